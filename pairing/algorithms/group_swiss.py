"""Swiss at three- and four-player tables for individuals.

Vocabulary: entrants in the *standing order* (see ``swiss.py``) are cut into consecutive
*chunks*, one per table, the smaller tables of a mixed split at the bottom: the *fold*,
where every search starts. The objective is lexicographic, most important first:

1. repeated meetings: pairs at a table who already shared one (count squared);
2. the *score spread*: the sum over tables of the squared differences in match points of
   every pair at the table;
3. tie-break: squared distance in the standing order;

and, the tables once fixed, partner repeats at four-player tables (partners are seats 0+2
and 1+3; docs/rules.md R2): each table takes the cheapest of its three partner splits.

A round is first seated alone: tabu search removes repeats from the fold (``seating.py``),
then simulated annealing lowers the spread by swaps that add no repeat (``annealing.py``).
Then the rounds still to come are looked after:

- *on a plan*: when the rounds so far are given (``earlier``) and seat this field (up to
  ``PLAN_MAX_PLAYERS``) at the same tables, the rest of the event is planned by
  :func:`plan_after`: rounds clear of every meeting so far, first a known schedule
  placed on the players (``designs``; see :func:`repeat_free_rounds`) or the schedule
  search's round robin, then after each round the same plan, the schedule placed anew,
  or a repaired plan (a schedule is placed anew by annealing, or, when the annealing
  misses, by listing the placings under which every round played is one of its rounds:
  ``designs.embedding``). This round is the round seated alone when the plan can be kept
  or repaired around it; else, on a plan of the schedule search (up to
  ``REPAIR_MAX_PLAYERS``), another seating of the round alone about as close in score, or
  one keeping only some of the plan's rounds clear, whichever the plan can be repaired
  around first (:func:`_alternatives`); else, on a placed schedule, it is seated from a
  placing moved so that one of its clear rounds seats players close in score (from the
  best of the placings that keep every round played a round of the schedule, up to
  ``REPAIR_MAX_PLAYERS``, then by ``place_for_round``), or, when the schedule has rounds
  to spare, as another seating of the round alone if the schedule placed anew leaves room
  for it and it is closer in score; else it is seated on the plan keeping
  ``rounds_left - 1`` of its rounds clear (see :func:`_on_plan`). So no pair ever meets
  twice while a plan is found;
- *on a design in id order*: without the rounds so far, when they do not seat this field
  or when no plan is found, the schedule's points are the entrants in id order and this
  round is seated keeping ``rounds_left - 1`` of its rounds clear (see
  :func:`_on_design`);
- otherwise the rest is planned with the multi-round tabu search of
  ``schedule_search.py`` (laid first on a known schedule when one fits), and this round
  moves only if that lowers the repeats of the whole plan.

Byes (only when the organiser allows them and the count does not split into tables) go to
the lowest-ranked entrants without one. Every search is driven by the seed and step
counts, never the clock: the same seed gives the same seating.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import lcm
from types import MappingProxyType

from pairing.algorithms.annealing import (
    anneal_breaking_few,
    anneal_round,
    class_clashes,
    descend_round,
    label_points,
    label_schedule,
    place_for_round,
    seating_cost,
    table_cost,
)
from pairing.algorithms.designs import (
    Round,
    embedding,
    embeddings,
    golf_schedule,
    kirkman_resolution,
    resolvable_four,
)
from pairing.algorithms.quality import make_draw, score_map
from pairing.algorithms.round_robin import group_round_robin_schedule
from pairing.algorithms.schedule_search import ScheduleSearch
from pairing.algorithms.seating import RoundCosts, Tier, improve_seating
from pairing.algorithms.swiss import standing_order
from pairing.algorithms.table_sizes import table_sizes
from pairing.algorithms.types import Draw, Entrant, History, PairingError, pair

SEATING_STEPS = 200
"""Tabu steps removing repeated meetings from the score-ordered fold."""

ANNEAL_STEPS_PER_PLAYER = 600
"""Annealing swaps on the round's score spread, per player seated."""

LABEL_STEPS = 6000
"""Annealing swaps placing the players on a known repeat-free schedule."""

PLACE_STEPS = 6000
"""Annealing swaps moving the placing on a known schedule so one of its clear rounds seats
players close in score."""

PLAN_WORK = 500_000
"""Budget of the multi-round tabu search, in player-rounds times steps: the search takes
``PLAN_WORK // (players * rounds)`` steps at most (at least 200), so a large field planning
many rounds takes fewer, dearer steps."""

PUBLISHED_REPEAT_FREE: Mapping[tuple[int, int], int] = MappingProxyType({(32, 4): 10})
"""Repeat-free schedules published but not (yet) kept in ``designs``: (players, table
size) to rounds. 32 at four: social-golfer solutions 8-4-10 (no pair twice in 10 rounds)."""

GROUP_TIERS: tuple[Tier, ...] = ("met", "partnered", "gap", "position")


def known_schedule(players: int, table_size: int) -> tuple[Round, ...] | None:
    """The longest repeat-free schedule kept in ``designs`` for this many players at tables
    of ``table_size`` (points 0..players-1), or None."""
    if table_size == 3:
        found = kirkman_resolution(players)
        return found[0] if found else None
    if table_size == 4:
        options = [d for d in (resolvable_four(players), golf_schedule(players)) if d]
        return max((d[0] for d in options), key=len) if options else None
    return None


def repeat_free_rounds(players: int, table_size: int) -> int:
    """Rounds up to which a schedule with no repeated meeting is known for this field at
    tables of ``table_size`` (every table full): the longest of the designs built or kept
    in ``designs`` and the published schedules above; 1 when none is known (any single
    round repeats nothing)."""
    design = known_schedule(players, table_size)
    return max(
        len(design) if design else 1,
        PUBLISHED_REPEAT_FREE.get((players, table_size), 1),
    )


def allowed_repeats(players: int, table_size: int, rounds: int) -> int | None:
    """Repeated meetings the best known schedule needs in ``rounds`` rounds: 0 up to
    :func:`repeat_free_rounds`; None past it (no bound is claimed, the bench compares with
    the schedule search of ``round_robin``)."""
    return 0 if rounds <= repeat_free_rounds(players, table_size) else None


def _round_start(
    entrants: Sequence[Entrant],
    *,
    seed: int,
    table_size: int,
    smallest: int | None,
    byes_allowed: bool,
) -> tuple[tuple[int, ...], random.Random, list[Entrant], set[int]]:
    """What every seater starts a round from: the table sizes, the round's random
    numbers, the standing order and the entrants who sit out (``choose_byes``)."""
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("entrant ids must be unique")
    if len(entrants) < 2:
        raise PairingError("too_few", "a round needs at least two entrants")
    sizes, bye_count = table_sizes(
        len(entrants), size=table_size, smallest=smallest, byes_allowed=byes_allowed
    )
    rng = random.Random(seed)
    standing = standing_order(entrants, seed)
    return sizes, rng, standing, choose_byes(standing, bye_count)


def group_swiss_seat(
    entrants: Sequence[Entrant],
    history: History,
    *,
    seed: int,
    table_size: int = 4,
    smallest: int | None = None,
    byes_allowed: bool = False,
    rounds_left: int = 1,
    max_steps: int = 3000,
    earlier: Sequence[Sequence[Sequence[int]]] | None = None,
) -> Draw:
    """Seat a Swiss round at tables of ``table_size`` (smaller down to ``smallest``).

    ``rounds_left`` counts this round and the rounds still to come, so that early rounds
    do not make later repeats unavoidable (see the module's docstring); ``max_steps`` caps
    the steps of the multi-round tabu search. ``earlier`` is the event's rounds so far in
    order, each a list of tables of entrant ids: with it, the rounds to come are planned by
    :func:`plan_after` instead of following a known schedule in id order."""
    sizes, rng, standing, byes = _round_start(
        entrants, seed=seed, table_size=table_size, smallest=smallest, byes_allowed=byes_allowed
    )
    ids = [e.id for e in standing if e.id not in byes]
    scores = score_map(entrants)
    n = len(ids)
    costs = RoundCosts(
        ids,
        scores,
        history,
        GROUP_TIERS,
        conflict_tiers=1,
        pair_slots=sum(s * (s - 1) // 2 for s in sizes),
    )
    tables = improve_seating(
        fold(sizes),
        costs,
        conflict_level=costs.conflict_level,
        rng=rng,
        seats_matter=False,
        max_steps=SEATING_STEPS,
    )
    met = [[history.meetings(ids[i], ids[j]) for j in range(n)] for i in range(n)]
    conflict = [[m * m for m in row] for row in met]
    gap = gap_matrix(ids, scores)
    far = len(sizes) * 6 * (n - 1) ** 2 + 1
    ordered = [[g * far + (i - j) ** 2 for j, g in enumerate(row)] for i, row in enumerate(gap)]
    tables = anneal_round(tables, gap, conflict, rng=rng, steps=ANNEAL_STEPS_PER_PLAYER * n)
    tables = descend_round(tables, ordered, conflict, rng)
    design = known_schedule(n, table_size) if set(sizes) == {table_size} else None
    planned = None
    if earlier is not None and not byes and n <= PLAN_MAX_PLAYERS:
        planned = _on_plan(
            tables, sizes, ids, met, gap, ordered, rounds_left, earlier, smallest, rng
        )
    if planned is not None:
        tables = planned
    else:
        tables = _unplanned(
            tables, sizes, design, ids, history, met, gap, ordered, rounds_left, rng, max_steps
        )
    tables = [_best_split(t, costs) for t in tables]
    tables.sort(key=min)
    seatings = [[ids[i] for i in _lead_with_best(t)] for t in tables]
    return make_draw(seatings, sorted(byes), scores=scores, history=history, seed=seed)


def _unplanned(
    tables: list[list[int]],
    sizes: Sequence[int],
    design: Sequence[Round] | None,
    ids: Sequence[int],
    history: History,
    met: list[list[int]],
    gap: list[list[int]],
    ordered: list[list[int]],
    rounds_left: int,
    rng: random.Random,
    max_steps: int,
) -> list[list[int]]:
    """The round seated for the rounds to come without a plan: on the known schedule in
    id order for a long enough event (:func:`_on_design`), else by the multi-round search
    (:func:`_look_ahead`) when rounds remain or the round alone repeats a meeting."""
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    played = sum(history.met.get(pair(a, b), 0) for a, b in combinations(ids, 2)) // per_round
    if design and played + rounds_left <= DESIGN_SHARE * len(design):
        design = None
    on_design = (
        _on_design(tables, design, ids, met, gap, ordered, rounds_left, rng) if design else None
    )
    if on_design is not None:
        return on_design
    if rounds_left > 1 or _repeats_now(tables, met):
        return _look_ahead(tables, sizes, met, gap, ordered, rounds_left, rng, max_steps)
    return tables


def fold(sizes: Sequence[int]) -> list[list[int]]:
    """Consecutive chunks of the standing order (local indices), one per table."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    return tables


def gap_matrix(ids: Sequence[int], scores: Mapping[int, Fraction]) -> list[list[int]]:
    """Squared differences in match points, scaled to whole numbers."""
    unit = lcm(*(scores[e].denominator for e in ids)) if ids else 1
    scaled = [int(scores[e] * unit) for e in ids]
    return [[(a - b) ** 2 for b in scaled] for a in scaled]


DESIGN_SHARE = 0.4
"""Staying on a known schedule costs score spread (each round must keep the rounds to come
clear), so the seater stays on one only for an event longer than this share of the
schedule's rounds; shorter events are planned by the multi-round search, which keeps them
clear too with room to spare and seats closer in score."""

SPARE_STARTS = 2
"""Unprotected rounds of the schedule tried as starting seatings, besides the free one."""


def _on_design(
    tables: list[list[int]],
    design: Sequence[Sequence[Sequence[int]]],
    ids: Sequence[int],
    met: list[list[int]],
    gap: list[list[int]],
    ordered: list[list[int]],
    rounds_left: int,
    rng: random.Random,
) -> list[list[int]] | None:
    """This round seated so that a repeat-free schedule keeps ``rounds_left - 1`` rounds
    clear of every meeting so far; None when the history leaves fewer than
    ``rounds_left`` of its rounds clear (the field changed, or earlier rounds were seated
    otherwise).

    The schedule's points are the entrants in id order: a known schedule as it is (the
    same every round, so each round finds it without any state kept), or a plan of
    :func:`plan_after`. Its rounds no pair of which has met are still playable. The
    rounds to keep (*protected*) are those that clash least with the seating found alone;
    this round is then seated by annealing on the score spread with every pair of the
    history and of the protected rounds forbidden, started from the seating found alone
    (its forbidden pairs first removed by tabu search) and from the best unprotected
    rounds, which are clear by construction. So the protected rounds stay clear for the
    next round, and by induction no pair ever meets twice while the schedule lasts."""
    n = len(ids)
    by_id = sorted(range(n), key=lambda i: ids[i])
    classes = [[[by_id[q] for q in t] for t in r] for r in design]
    clear = [c for c in classes if all(met[a][b] == 0 for t in c for a, b in combinations(t, 2))]
    if len(clear) < rounds_left:
        return None
    together = [[0] * n for _ in range(n)]
    for t in tables:
        for a, b in combinations(t, 2):
            together[a][b] = together[b][a] = 1

    ranked = sorted(range(len(clear)), key=lambda k: (seating_cost(clear[k], together), k))
    protected = [clear[k] for k in ranked[: rounds_left - 1]]
    spare = [clear[k] for k in ranked[rounds_left - 1 :]]
    forbidden = [row[:] for row in met]
    for c in protected:
        for t in c:
            for a, b in combinations(t, 2):
                forbidden[a][b] = forbidden[b][a] = 1
    level = sum(len(t) * (len(t) - 1) // 2 for t in tables) * max(map(max, ordered)) + 1
    weight = [
        [f * level + o for f, o in zip(frow, orow, strict=True)]
        for frow, orow in zip(forbidden, ordered, strict=True)
    ]

    def cost(t: Sequence[int]) -> int:
        return table_cost(t, weight)

    starts = [
        improve_seating(
            tables,
            cost,
            conflict_level=level,
            rng=rng,
            seats_matter=False,
            max_steps=SEATING_STEPS,
        )
    ]
    spare.sort(key=lambda c: seating_cost(c, gap))
    starts += [[list(t) for t in c] for c in spare[:SPARE_STARTS]]
    seatings = []
    for start in starts:
        seated = anneal_round(start, gap, forbidden, rng=rng, steps=ANNEAL_STEPS_PER_PLAYER * n)
        seatings.append(descend_round(seated, ordered, forbidden, rng))
    best = min(seatings, key=lambda c: (seating_cost(c, forbidden), seating_cost(c, ordered)))
    if seating_cost(best, forbidden):
        return best
    # The protected rounds were chosen before seating; let the search choose instead which
    # clear rounds to give up, as long as enough stay clear.
    group = [[-1] * n for _ in range(n)]
    for k, c in enumerate(clear):
        for t in c:
            for a, b in combinations(t, 2):
                group[a][b] = group[b][a] = k
    freer = anneal_breaking_few(
        best,
        ordered,
        met,
        group,
        len(clear) - (rounds_left - 1),
        rng=rng,
        steps=ANNEAL_STEPS_PER_PLAYER * n,
    )
    return min((best, freer), key=lambda c: seating_cost(c, ordered))


def _on_plan(
    tables: list[list[int]],
    sizes: Sequence[int],
    ids: Sequence[int],
    met: list[list[int]],
    gap: list[list[int]],
    ordered: list[list[int]],
    rounds_left: int,
    earlier: Sequence[Sequence[Sequence[int]]],
    smallest: int | None,
    rng: random.Random,
) -> list[list[int]] | None:
    """This round seated so that :func:`plan_after` still finds every round to come clear
    of every meeting; None when the earlier rounds do not seat this field at tables of
    these sizes, or no repeat-free plan of the whole event is known.

    The round seated alone is kept when it repeats nothing and the plan can be repaired
    around it (:func:`plan_after` of the rounds with it); on a plan of the schedule
    search, so may another seating about as close in score, or one seated on the plan
    keeping fewer of its rounds clear. Otherwise the round is seated
    on the plan (:func:`_on_design`), keeping ``rounds_left - 1`` of its rounds clear, so
    the next round finds them without any repair. By induction no pair meets twice."""
    n = len(ids)
    shape = tuple(sorted(sizes))
    total = len(earlier) + rounds_left
    local = {e: i for i, e in enumerate(ids)}
    if not all(_seats_at(r, local, shape) for r in earlier):
        return None
    by_id = sorted(range(n), key=lambda i: ids[i])
    rank = [0] * n
    for q, i in enumerate(by_id):
        rank[i] = q
    prefix = tuple(_canonical([[rank[local[e]] for e in t] for t in r]) for r in earlier)
    found = plan_after(n, shape, smallest, total, prefix)
    if found is None:
        return None
    plan, placing = found

    def played_with(seated: Sequence[Sequence[int]]) -> bool:
        now = _canonical([[rank[i] for i in t] for t in seated])
        return plan_after(n, shape, smallest, total, (*prefix, now)) is not None

    if not _repeats_now(tables, met) and played_with(tables):
        return tables
    if placing is None and n <= REPAIR_MAX_PLAYERS:
        # A plan of the schedule search: other seatings of the round alone, then seatings
        # keeping only some of the plan's rounds clear, fewest first; the first the plan
        # can be repaired around is kept (each sits closer in score than the next).
        for other in _alternatives(tables, gap, met, ordered, rng):
            if played_with(other):
                return other
        for keep in range(1, min(rounds_left - 1, len(plan))):
            kept = _on_design(tables, plan, ids, met, gap, ordered, keep + 1, rng)
            if kept is not None and not _repeats_now(kept, met) and played_with(kept):
                return kept
    design = known_schedule(n, shape[0])
    if placing is not None and design is not None:
        # The plan is a known schedule placed on the players: move the placing so that one
        # of its clear rounds seats players close in score, and seat the round from it.
        met_id = [[met[by_id[a]][by_id[b]] for b in range(n)] for a in range(n)]
        gap_id = [[gap[by_id[a]][by_id[b]] for b in range(n)] for a in range(n)]
        if n <= REPAIR_MAX_PLAYERS and total <= len(design):
            placing = tuple(_best_embedding(design, prefix, met_id, gap_id, placing))
        moved, chosen = place_for_round(
            design,
            met_id,
            gap_id,
            wanted=rounds_left,
            start=placing,
            rng=rng,
            steps=PLACE_STEPS,
        )
        placed = [[[moved[q] for q in t] for t in r] for r in design]
        start = [[by_id[q] for q in t] for t in placed[chosen]]
        seated = _on_design(start, placed, ids, met, gap, ordered, rounds_left, rng)
        choices = [seated] if seated is not None and played_with(seated) else []
        # Or, when the schedule has rounds to spare and the field is small enough for the
        # search to be quick, another seating of the round alone that the schedule, placed
        # anew, still leaves enough clear rounds around: the cheaper wins. (With no round
        # to spare, a closer round now costs later rounds more than it saves.)
        spare = len(design) > total and n <= REPAIR_MAX_PLAYERS
        for other in _alternatives(tables, gap, met, ordered, rng) if spare else ():
            now = _canonical([[rank[i] for i in t] for t in other])
            after = plan_after(n, shape, smallest, total, (*prefix, now), repair=False)
            if after is not None and after[1] is not None:
                choices.append(other)
                break
        if choices:
            return min(choices, key=lambda c: seating_cost(c, gap))
    # Seated on the plan, keeping all but one of its rounds clear, the round leaves the
    # next round its plan without any search.
    return _on_design(tables, plan, ids, met, gap, ordered, rounds_left, rng)


EMBED_WORK = 200_000
"""Budget of the searches for placings under which the rounds played are rounds of a
known schedule (``designs.embeddings``), in placements tried: about half a second at 32
players. It lists some ten thousand of the placings that keep two rounds of the 32-player
schedule and all 16 that keep three, and finds the first within 140,000 placements tried
for any number of rounds (measured on three relabellings)."""


def _best_embedding(
    design: Sequence[Round],
    played: Plan,
    met: list[list[int]],
    gap: list[list[int]],
    placing: Sequence[int],
) -> Sequence[int]:
    """Of ``placing`` and the placings under which every round ``played`` is a round of
    ``design`` (players in id order), the one whose cheapest clear round costs least under
    ``gap``; ``placing`` on a tie. Such a placing leaves every other round of the design
    clear, so the round to come may be any of them."""

    def cheapest(player: Sequence[int]) -> float:
        clashes = class_clashes(design, player, met)
        costs = class_clashes(design, player, gap)
        return min((c for c, k in zip(costs, clashes, strict=True) if k == 0), default=math.inf)

    best, best_cost = placing, cheapest(placing)
    for player in embeddings(design, played, len(met), budget=EMBED_WORK):
        if best_cost == 0:
            break
        cost = cheapest(player)
        if cost < best_cost:
            best, best_cost = player, cost
    return best


ALTERNATIVES = 6
"""Other seatings of a round alone, as close in score, tried when the plan cannot be
repaired around the first."""


def _alternatives(
    tables: list[list[int]],
    gap: list[list[int]],
    met: list[list[int]],
    ordered: list[list[int]],
    rng: random.Random,
) -> list[list[list[int]]]:
    """Seatings of the round alone repeating nothing, each from a random reseating of the
    first's tables (same sizes) cleared of repeats by tabu search, then annealed on the
    score spread; cheapest first, none costing more than the first by half."""
    n = len(met)
    base = seating_cost(tables, gap)
    found = []
    for _ in range(ALTERNATIVES):
        shaken = [list(t) for t in tables]
        flat = [p for t in shaken for p in t]
        rng.shuffle(flat)
        at = 0
        for t in shaken:
            t[:] = flat[at : at + len(t)]
            at += len(t)
        shaken = improve_seating(
            shaken,
            lambda t: sum(met[a][b] * (base + 1) + gap[a][b] for a, b in combinations(t, 2)),
            conflict_level=base + 1,
            rng=rng,
            seats_matter=False,
            max_steps=SEATING_STEPS,
        )
        if _repeats_now(shaken, met):
            continue
        seated = anneal_round(shaken, gap, met, rng=rng, steps=ANNEAL_STEPS_PER_PLAYER * n)
        seated = descend_round(seated, ordered, met, rng)
        cost = seating_cost(seated, gap)
        if cost <= base + base // 2:
            found.append((cost, seated))
    found.sort(key=lambda f: f[0])
    return [seated for _, seated in found]


def _seats_at(
    tables: Sequence[Sequence[int]], local: Mapping[int, int], shape: tuple[int, ...]
) -> bool:
    """Whether a round seats every entrant of the field once, at tables of ``shape``."""
    seated = [e for t in tables for e in t]
    return (
        tuple(sorted(len(t) for t in tables)) == shape
        and len(seated) == len(local)
        and set(seated) == set(local)
    )


def _canonical(tables: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(sorted(t)) for t in tables))


PLAN_MAX_PLAYERS = 64
"""Fields planned by :func:`plan_after`, up to the sizes the bench measures. At 200
players at tables of four the plan gave no fewer repeats (0 either way) and took 10-15 s a
round against 6-11 s, so larger fields keep to the paths below."""

REPAIR_WORK = 100_000
"""Budget of the repair of a plan around a round played off it, in player-rounds times
tabu steps (at least 200 steps)."""

REPAIR_MAX_PLAYERS = 48
"""Fields larger than this do not repair a plan with the schedule search, nor search the
placings that keep the rounds played as rounds of the schedule: at 64 players neither
changed a seating in the bench's rounds, and each cost seconds a round; they keep to the
placed schedule."""


Plan = tuple[tuple[tuple[int, ...], ...], ...]


@lru_cache(maxsize=512)
def plan_after(
    players: int,
    shape: tuple[int, ...],
    smallest: int | None,
    total: int,
    rounds: Plan,
    repair: bool = True,
) -> tuple[Plan, tuple[int, ...] | None] | None:
    """At least ``total - len(rounds)`` rounds at tables of ``shape`` (players numbered in
    id order) clear of every meeting of ``rounds`` and of one another: the plan for the
    rest of an event of ``total`` rounds after ``rounds``, with the placing of the players
    on the known schedule (``known_schedule``) it is made of, or None once it is made of
    other rounds; None when no plan is found.

    Before the first round the plan is the known schedule in id order when the event fits in
    it, else the schedule search's group round robin when it repeats nothing. After each
    round the plan is kept as long as enough of it is clear; else, while it is a placed
    schedule, the placing is moved by annealing (``label_points``) until enough rounds are
    clear again, or, when the event fits in the schedule and the annealing misses (up to
    ``REPAIR_MAX_PLAYERS``), a placing is searched for under which every round played is one
    of the schedule's (``designs.embedding``; not with ``repair`` False); else the planned
    round the last round clashes with most is dropped and the schedule search repairs the
    rest. Each search is seeded by the field and the round's number. A round seated from the
    plan needs no search, so recomputing costs nothing then. Being a function of the rounds
    played only, every draw finds the plan the draw before left, with no state kept between
    draws; the cache spares recomputing it within one process. With ``repair`` False the
    last round's plan is not searched for (the rounds before it are): a quick check whose
    answer, when it finds a plan, is the one the full call finds."""
    wanted = total - len(rounds)
    design = known_schedule(players, shape[0]) if len(set(shape)) == 1 else None
    if not rounds:
        if design is not None and total <= len(design):
            return tuple(_canonical(r) for r in design), tuple(range(players))
        schedule = group_round_robin_schedule(
            list(range(players)),
            seed=0,
            table_size=max(shape),
            rounds=total,
            smallest=smallest,
        )
        if schedule.report.excess_meetings or any(d.byes for d in schedule.rounds):
            return None
        return tuple(_canonical([t.seats for t in d.tables]) for d in schedule.rounds), None
    found = plan_after(players, shape, smallest, total, rounds[:-1])
    if found is None:
        return None
    before, placing = found
    met = [[0] * players for _ in range(players)]
    for r in rounds:
        for t in r:
            for a, b in combinations(t, 2):
                met[a][b] += 1
                met[b][a] += 1
    if any(met[a][b] > 1 for a in range(players) for b in range(a)):
        return None

    def clear(plan: Sequence[Sequence[Sequence[int]]]) -> list[Sequence[Sequence[int]]]:
        return [r for r in plan if not any(met[a][b] for t in r for a, b in combinations(t, 2))]

    kept = clear(before)
    if len(kept) >= wanted:
        return tuple(_canonical(r) for r in kept), placing
    key = f"group-swiss-plan:{players}:{shape}:{total}:{len(rounds)}"
    rng = random.Random(key)
    if placing is not None and design is not None:
        moved, clashes = label_points(
            design, met, wanted=wanted, rng=rng, steps=LABEL_STEPS, start=placing
        )
        if clashes and repair and total <= len(design) and players <= REPAIR_MAX_PLAYERS:
            # The annealing can miss a placing that exists: one under which every round
            # played is one of the schedule's rounds leaves all the others clear.
            embedded = embedding(design, rounds, players, budget=EMBED_WORK)
            if embedded is not None:
                moved, clashes = embedded, 0
        if clashes == 0:
            placed = [[[moved[q] for q in t] for t in r] for r in design]
            return tuple(_canonical(r) for r in clear(placed)), tuple(moved)
    if players > REPAIR_MAX_PLAYERS or not repair:
        return None
    last = {frozenset(p) for t in rounds[-1] for p in combinations(t, 2)}

    def clash(r: Sequence[Sequence[int]]) -> int:
        return sum(frozenset(p) in last for t in r for p in combinations(t, 2))

    rest = [[list(t) for t in r] for r in sorted(before, key=clash)[:wanted]]
    search = ScheduleSearch(players, rest, base=met, rng=rng)
    search.reduce_spread(max(200, REPAIR_WORK // (players * max(1, len(rest)))))
    if search.conflicts(range(len(rest))):
        return None
    return tuple(_canonical(r) for r in search.plan), None


def _look_ahead(
    tables: list[list[int]],
    sizes: Sequence[int],
    met: list[list[int]],
    gap: list[list[int]],
    ordered: list[list[int]],
    rounds_left: int,
    rng: random.Random,
    max_steps: int,
) -> list[list[int]]:
    """This round re-seated, if need be, so the remaining rounds can avoid repeats."""
    n = len(met)
    future = rounds_left - 1
    clash = [row[:] for row in met]
    for t in tables:
        for a in t:
            for b in t:
                if a != b:
                    clash[a][b] += 1
    plan: list[list[list[int]]] = []
    design = known_schedule(n, sizes[0]) if len(set(sizes)) == 1 else None
    if design is not None and future:
        plan, clashes = label_schedule(
            design, clash, wanted=min(future, len(design)), rng=rng, steps=LABEL_STEPS
        )
        if clashes == 0 and len(plan) == future:
            return tables
    if design is not None and rounds_left <= len(design):
        # The schedule may still hold this round too: the clash-free rounds closest in
        # score, this round the one of them with the least spread.
        whole, clashes = label_schedule(design, met, wanted=rounds_left, rng=rng, steps=LABEL_STEPS)
        if clashes == 0:
            whole.sort(key=lambda r: seating_cost(r, gap))
            return _polished(whole[0], whole[1:], met, gap, ordered, rng)
    while len(plan) < future:
        order = list(range(n))
        rng.shuffle(order)
        plan.append([[order[p] for p in t] for t in fold(sizes)])
    search = ScheduleSearch(n, [[t[:] for t in tables], *plan], base=met, standing=ordered, rng=rng)
    steps = min(max_steps, max(200, PLAN_WORK // (n * rounds_left)))
    every = range(rounds_left)
    fixed = search.spread()
    if future:
        fixed = search.reduce_spread(steps, rounds=range(1, rounds_left))
        if not search.conflicts(every):
            return tables
    moved = search.reduce_spread(steps)
    search.descend_standing(rounds=[0])
    planned = _polished(search.plan[0], search.plan[1:], met, gap, ordered, rng)
    now, alone = _repeats_now(planned, met), _repeats_now(tables, met)
    # Moving this round is worth it only when it lowers the repeats of the whole plan, and
    # never for a repeat now that the round alone avoids.
    if (moved < fixed and now <= alone) or now < alone:
        return planned
    return tables


def _polished(
    now: list[list[int]],
    later: Sequence[Sequence[Sequence[int]]],
    met: Sequence[Sequence[int]],
    gap: Sequence[Sequence[int]],
    ordered: Sequence[Sequence[int]],
    rng: random.Random,
) -> list[list[int]]:
    """This round's spread lowered, keeping clear of every pair the history and the planned
    later rounds already seat together."""
    taken = [list(row) for row in met]
    for r in later:
        for t in r:
            for a in t:
                for b in t:
                    if a != b:
                        taken[a][b] += 1
    tables = anneal_round(now, gap, taken, rng=rng, steps=ANNEAL_STEPS_PER_PLAYER * len(met))
    return descend_round(tables, ordered, taken, rng)


def _repeats_now(tables: Sequence[Sequence[int]], met: Sequence[Sequence[int]]) -> int:
    """Pairs at this round's tables who met before."""
    return sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if met[a][b])


def seat_by_tiers(
    entrants: Sequence[Entrant],
    history: History,
    *,
    seed: int,
    table_size: int,
    smallest: int | None,
    byes_allowed: bool,
    tiers: Sequence[Tier],
    conflict_tiers: int,
    seating_steps: int,
    initial: Sequence[Sequence[int]] | None = None,
) -> Draw:
    """Chunk the standing order into tables, then improve them under ``tiers`` (the
    rotating-partners seater). ``initial`` (entrant ids, sizes as ``table_sizes`` gives
    them) replaces the chunks when a format has a better start."""
    sizes, rng, standing, byes = _round_start(
        entrants, seed=seed, table_size=table_size, smallest=smallest, byes_allowed=byes_allowed
    )
    players = [e for e in standing if e.id not in byes]
    ids = [e.id for e in players]
    local = {eid: i for i, eid in enumerate(ids)}
    scores = score_map(entrants)
    costs = RoundCosts(
        ids,
        scores,
        history,
        tiers,
        conflict_tiers=conflict_tiers,
        pair_slots=sum(s * (s - 1) // 2 for s in sizes),
    )
    if initial is None:
        tables = fold(sizes)
    else:
        tables = [[local[e] for e in t] for t in initial]
        if sorted(len(t) for t in tables) != sorted(sizes):
            raise ValueError("initial tables must have the sizes table_sizes gives")
    tables = improve_seating(
        tables,
        costs,
        conflict_level=costs.conflict_level,
        rng=rng,
        seats_matter=True,
        max_steps=seating_steps,
    )
    tables.sort(key=min)
    seatings = [[ids[i] for i in _lead_with_best(t)] for t in tables]
    return make_draw(seatings, sorted(byes), scores=scores, history=history, seed=seed)


def _best_split(seats: list[int], costs: RoundCosts) -> list[int]:
    """The cheapest of the three partner splits of a four-player table."""
    if len(seats) != 4:
        return seats
    a, b, c, d = seats
    return min(([a, b, c, d], [a, c, b, d], [a, b, d, c]), key=costs)


def choose_byes(standing: Sequence[Entrant], count: int) -> set[int]:
    """The lowest-ranked entrants without a bye, then the lowest-ranked with one."""
    if count == 0:
        return set()
    ranked = sorted(range(len(standing)), key=lambda i: (standing[i].had_bye, -i))
    return {standing[i].id for i in ranked[:count]}


def _lead_with_best(seats: Sequence[int]) -> list[int]:
    """Rotate the table so the best-placed entrant sits in seat 0 (keeps partners)."""
    k = seats.index(min(seats))
    return list(seats[k:]) + list(seats[:k])
