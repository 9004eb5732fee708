"""Round robins: every round fixed in advance.

Two-sided (players, or partnerships as single entrants): the *circle method* in Berger's
arrangement — one entrant fixed, the others rotating one place a round — so every pair
meets exactly once in n - 1 rounds (n rounds for an odd count, each entrant sitting out
exactly once: the *bye* rotates with the circle). A *double* round robin repeats the
rounds with the seats swapped.

At three- or four-player tables the aim is that each pair shares a table as close to once
as possible. Where an exact design exists it is used (see ``designs.py``): a Kirkman
triple system for every count 3, 9, 15, ..., 63 at 3-player tables ((n - 1)/2 rounds),
a resolvable (n, 4, 1) design for 4, 16, 28, 40, 52 and 64 at 4-player tables
((n - 1)/3 rounds), and the published social-golfer schedules (32 players at tables of
four for 10 rounds and 36 for 11, no pair twice: the most rounds either can have, as each
round a player meets three new players). Otherwise the
multi-round tabu search of ``schedule_search.py`` spreads the meetings, and the
schedule's report says how close it came: pairs unmet and meetings beyond the first,
against the least any schedule of the same shape could have.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from math import ceil

from pairing.algorithms.designs import golf_schedule, kirkman_resolution, resolvable_four
from pairing.algorithms.quality import make_draw, schedule_report
from pairing.algorithms.schedule_search import ScheduleSearch, spread_bound
from pairing.algorithms.table_sizes import table_sizes
from pairing.algorithms.types import Draw, History, PairingError, Schedule, partner_pairs


def round_robin_schedule(entrant_ids: Sequence[int], *, seed: int, legs: int = 1) -> Schedule:
    """Two-sided round robin (``legs=2``: double, seats swapped in the second leg)."""
    ids = _shuffled(entrant_ids, seed)
    if len(ids) < 2:
        raise PairingError("too_few", "a round robin needs at least two entrants")
    if legs not in (1, 2):
        raise PairingError("legs", "a round robin is single or double")
    circle: list[int | None] = list(ids) + ([None] if len(ids) % 2 else [])
    n = len(circle)
    fixed, rotating = circle[-1], circle[:-1]
    first_leg: list[tuple[list[tuple[int, int]], list[int]]] = []
    for r in range(n - 1):
        tables: list[tuple[int, int]] = []
        byes: list[int] = []
        pairs = [(fixed, rotating[r])] + [
            (rotating[(r + i) % (n - 1)], rotating[(r - i) % (n - 1)]) for i in range(1, n // 2)
        ]
        for k, (a, b) in enumerate(pairs):
            if a is None or b is None:
                byes.extend(x for x in (a, b) if x is not None)
                continue
            # Berger: the fixed entrant alternates seats; the others alternate by table.
            home_first = r % 2 == 0 if k == 0 else k % 2 == 1
            tables.append((a, b) if home_first else (b, a))
        first_leg.append((tables, byes))
    legs_rounds = list(first_leg)
    if legs == 2:
        legs_rounds += [([(b, a) for a, b in t], byes) for t, byes in first_leg]
    zero = {e: Fraction(0) for e in ids}
    return _schedule(
        [([list(t) for t in tables], byes) for tables, byes in legs_rounds],
        ids,
        zero,
        seed,
        "circle method (Berger tables)" + (", double" if legs == 2 else ""),
    )


def group_round_robin_schedule(
    entrant_ids: Sequence[int],
    *,
    seed: int,
    table_size: int,
    rounds: int | None = None,
    smallest: int | None = None,
    byes_allowed: bool = False,
    max_steps: int = 4000,
) -> Schedule:
    """Round robin at three- or four-player tables: each pair meets as close to once as
    possible in ``rounds`` rounds (default: the fewest in which everyone can meet)."""
    if table_size not in (3, 4):
        raise PairingError("table_size", "group round robins seat 3 or 4; use round_robin")
    ids = _shuffled(entrant_ids, seed)
    n = len(ids)
    sizes, bye_count = table_sizes(n, size=table_size, smallest=smallest, byes_allowed=byes_allowed)
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    pair_count = n * (n - 1) // 2
    wanted = rounds if rounds is not None else ceil(pair_count / per_round)
    if wanted < 1:
        raise PairingError("rounds", "a schedule needs at least one round")
    design = _design(n, table_size) if bye_count == 0 else None
    zero = {e: Fraction(0) for e in ids}
    if design is not None and wanted <= len(design[0]):
        classes, name = design
        plan = [[[ids[p] for p in t] for t in cls] for cls in classes[:wanted]]
        return _schedule(_seated(plan, [[] for _ in plan]), ids, zero, seed, name)
    rng = random.Random(seed)
    plan_idx, sitting_out = _random_plan(n, sizes, bye_count, wanted, rng)
    search = ScheduleSearch(n, plan_idx, rng=rng)
    meetings = per_round * wanted
    search.reduce_spread(max_steps, target=spread_bound(pair_count, meetings))
    plan = [[[ids[p] for p in t] for t in r] for r in search.plan]
    byes = [[ids[p] for p in out] for out in sitting_out]
    return _schedule(_seated(plan, byes), ids, zero, seed, "tabu search (social golfer)")


def _design(n: int, table_size: int) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], str] | None:
    if table_size == 3:
        return kirkman_resolution(n)
    if table_size == 4:
        return resolvable_four(n) or golf_schedule(n)
    return None


def _random_plan(
    n: int, sizes: Sequence[int], bye_count: int, rounds: int, rng: random.Random
) -> tuple[list[list[list[int]]], list[list[int]]]:
    """Random tables per round; byes rotate through the field in order."""
    plan: list[list[list[int]]] = []
    byes: list[list[int]] = []
    for r in range(rounds):
        out = [(r * bye_count + j) % n for j in range(bye_count)]
        players = [p for p in range(n) if p not in out]
        rng.shuffle(players)
        tables, start = [], 0
        for size in sizes:
            tables.append(players[start : start + size])
            start += size
        plan.append(tables)
        byes.append(out)
    return plan, byes


def _seated(
    plan: Sequence[list[list[int]]], byes: Sequence[list[int]]
) -> list[tuple[list[list[int]], list[int]]]:
    """Seat four-player tables round by round so that partners (0+2, 1+3) repeat as
    little as possible; the tables themselves do not change."""
    partnered: dict[frozenset[int], int] = {}

    def repeats(s: Sequence[int]) -> int:
        return sum(partnered.get(p, 0) ** 2 for p in partner_pairs(s))

    out = []
    for tables, out_of_round in zip(plan, byes, strict=True):
        seated = []
        for t in tables:
            if len(t) == 4:
                a, b, c, d = t
                t = min(([a, b, c, d], [a, c, b, d], [a, b, d, c]), key=repeats)
                for p in partner_pairs(t):
                    partnered[p] = partnered.get(p, 0) + 1
            seated.append(list(t))
        out.append((seated, out_of_round))
    return out


def _shuffled(entrant_ids: Sequence[int], seed: int) -> list[int]:
    if len(set(entrant_ids)) != len(entrant_ids):
        raise ValueError("entrant ids must be unique")
    ids = sorted(entrant_ids)
    random.Random(seed).shuffle(ids)
    return ids


def _schedule(
    rounds: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]],
    ids: Sequence[int],
    scores: dict[int, Fraction],
    seed: int,
    construction: str,
) -> Schedule:
    history = History()
    draws: list[Draw] = []
    for tables, byes in rounds:
        draw = make_draw(tables, sorted(byes), scores=scores, history=history, seed=seed)
        draws.append(draw)
        history = history.with_tables(draw.tables)
    return Schedule(tuple(draws), schedule_report(draws, ids), construction)
