"""Swiss at three- and four-player tables for individuals.

Vocabulary: entrants in the *standing order* (see ``swiss.py``) are cut into consecutive
*chunks*, one per table, the smaller tables of a mixed split at the bottom — the seating
closest in standing. The tabu search of ``seating.py`` then moves players between tables
under lexicographic costs, most important first:

1. repeated meetings: pairs at a table who already shared one (count squared);
2. partner repeats: at four-player tables, partners (seats 0+2, 1+3; docs/rules.md R2) who were
   partners before — the seat split within a table is searched too;
3. score cost: the squared difference in match points over every pair at a table;
4. tie-break: squared distance in the standing order.

Byes (only when the organiser allows them and the count does not split into tables) go to
the lowest-ranked entrants without one. With 64 players, AG(3, 4) shows 21 rounds without a
repeated meeting exist; the bar held by the tests and the bench is 7 rounds without one at
32 and 64 players under Swiss standings.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import lcm

from pairing.algorithms.quality import make_draw, score_map
from pairing.algorithms.schedule_search import ScheduleSearch
from pairing.algorithms.seating import RoundCosts, Tier, improve_seating
from pairing.algorithms.swiss import standing_order
from pairing.algorithms.table_sizes import table_sizes
from pairing.algorithms.types import Draw, Entrant, History, PairingError

SEATING_STEPS = 200
"""Tabu steps on the round alone before the (stronger) multi-round search takes over."""

GROUP_TIERS: tuple[Tier, ...] = ("met", "partnered", "gap", "position")


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
) -> Draw:
    """Seat a Swiss round at tables of ``table_size`` (smaller down to ``smallest``).

    ``rounds_left`` counts this round and the rounds still to come; above 1 the seating is
    checked against a plan for the rest so that early rounds do not make later repeats
    unavoidable (see ``schedule_search.py``)."""
    return seat_by_tiers(
        entrants,
        history,
        seed=seed,
        table_size=table_size,
        smallest=smallest,
        byes_allowed=byes_allowed,
        tiers=GROUP_TIERS,
        conflict_tiers=1,
        seating_steps=SEATING_STEPS,
        plan_steps=max_steps,
        rounds_left=rounds_left,
    )


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
    plan_steps: int = 0,
    initial: Sequence[Sequence[int]] | None = None,
    rounds_left: int = 1,
) -> Draw:
    """Chunk the standing order into tables, then improve them under ``tiers``; shared by
    the group Swiss, rotating partners and league nights. ``initial`` (entrant ids, sizes
    as ``table_sizes`` gives them) replaces the chunks when a format has a better start.
    With ``plan_steps`` (repeated meetings as the first tier), a seating left with repeats,
    or any seating when ``rounds_left`` > 1, goes to the multi-round search."""
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("entrant ids must be unique")
    if len(entrants) < 2:
        raise PairingError("too_few", "a round needs at least two entrants")
    sizes, bye_count = table_sizes(
        len(entrants), size=table_size, smallest=smallest, byes_allowed=byes_allowed
    )
    rng = random.Random(seed)
    standing = standing_order(entrants, seed)
    byes = choose_byes(standing, bye_count)
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
        tables: list[list[int]] = []
        start = 0
        for size in sizes:
            tables.append(list(range(start, start + size)))
            start += size
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
    has_conflicts = any(costs(t) >= costs.conflict_level for t in tables)
    if plan_steps and (rounds_left > 1 or has_conflicts):
        tables = _look_ahead(tables, ids, scores, history, rounds_left, costs, rng, plan_steps)
    tables.sort(key=min)
    seatings = [[ids[i] for i in _lead_with_best(t)] for t in tables]
    return make_draw(seatings, sorted(byes), scores=scores, history=history, seed=seed)


def _look_ahead(
    tables: list[list[int]],
    ids: Sequence[int],
    scores: Mapping[int, Fraction],
    history: History,
    rounds_left: int,
    costs: RoundCosts,
    rng: random.Random,
    max_steps: int,
) -> list[list[int]]:
    """Re-seat this round so that the remaining rounds can still avoid repeated meetings:
    plan them all at once (future rounds seeded at random), reduce repeats over the whole
    plan, then bring this round back close in standing without adding any."""
    n = len(ids)
    base = [[history.meetings(ids[i], ids[j]) if i != j else 0 for j in range(n)] for i in range(n)]
    unit = lcm(*(scores[e].denominator for e in ids))
    scaled = [int(scores[e] * unit) for e in ids]
    far = n * n + 1
    standing = [
        [(scaled[i] - scaled[j]) ** 2 * far + (i - j) ** 2 for j in range(n)] for i in range(n)
    ]
    plan = [[t[:] for t in tables]]
    sizes = [len(t) for t in tables]
    for _ in range(rounds_left - 1):
        order = list(range(n))
        rng.shuffle(order)
        future, start = [], 0
        for size in sizes:
            future.append(order[start : start + size])
            start += size
        plan.append(future)
    search = ScheduleSearch(n, plan, base=base, standing=standing, rng=rng)
    later_rounds = range(1, len(plan))
    if search.conflicts(range(len(plan))):
        # Keep this round as seated if the rest of the plan can work around it.
        if not any(costs(t) >= costs.conflict_level for t in tables):
            search.reduce_spread(max_steps, rounds=later_rounds)
        if search.conflicts(range(len(plan))):
            search.reduce_spread(max_steps)
            search.descend_standing(rounds=[0])
    planned = [_best_split(t, costs) for t in search.plan[0]]
    # The plan may trade a repeat now for fewer later; never take more repeats now than
    # this round seated alone would have.
    if _repeats_now(planned, costs) > _repeats_now(tables, costs):
        return tables
    return planned


def _repeats_now(tables: Sequence[Sequence[int]], costs: RoundCosts) -> int:
    """The first-tier (repeated meetings) total of a round's tables."""
    return sum(costs(t) for t in tables) // costs.conflict_level


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
