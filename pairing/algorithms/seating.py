"""Improving one round's seating by moving players between tables (tabu search).

Vocabulary: a *seating* is a list of tables, each a list of players (local indices 0..n-1)
in seat order; the caller supplies a *table cost* (an integer, lexicographic tiers folded
as in ``matching.py``) and a *conflict level*: a table whose cost reaches it breaks a rule the
organiser cares about most (a repeated meeting, a repeated partner). Moves swap two
players at different tables; when seats matter (partners at four-player tables) moves also
swap seats within a table. The search first removes conflicts — at each step the best
move touching a conflicted table, even an uphill one, with recently moved players tabu —
and then descends on the lower tiers (score gaps). Table sizes never change. Everything is
driven by a seeded ``random.Random`` and step counts, never the clock, so the same seed
gives the same seating.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from math import lcm
from typing import Literal

from pairing.algorithms.types import History

CostFunction = Callable[[Sequence[int]], int]
"""The cost of one table given its players in seat order."""

_WITHIN_SWAPS = ((1, 2), (2, 3))
"""Seat swaps that reach the other two partner splits of a four-player table."""


def improve_seating(
    tables: list[list[int]],
    cost: CostFunction,
    *,
    conflict_level: int,
    rng: random.Random,
    seats_matter: bool,
    max_steps: int = 2000,
) -> list[list[int]]:
    """A seating at least as cheap as ``tables`` with the same table sizes."""
    search = _Search([list(t) for t in tables], cost, conflict_level, rng, seats_matter)
    search.remove_conflicts(max_steps)
    search.descend()
    return search.tables


class _Search:
    def __init__(
        self,
        tables: list[list[int]],
        cost: CostFunction,
        conflict_level: int,
        rng: random.Random,
        seats_matter: bool,
    ) -> None:
        self.tables = tables
        self.cost = cost
        self.conflict_level = conflict_level
        self.rng = rng
        self.seats_matter = seats_matter
        self.costs = [cost(t) for t in tables]

    def total(self) -> int:
        return sum(self.costs)

    def conflicted(self) -> list[int]:
        return [k for k, c in enumerate(self.costs) if c >= self.conflict_level]

    # A move is (table_a, seat_a, table_b, seat_b); table_a == table_b swaps seats within.
    def delta(self, ta: int, sa: int, tb: int, sb: int) -> tuple[int, list[int], list[int]]:
        a = self.tables[ta][:]
        if ta == tb:
            a[sa], a[sb] = a[sb], a[sa]
            ca = self.cost(a)
            return ca - self.costs[ta], a, a
        b = self.tables[tb][:]
        a[sa], b[sb] = b[sb], a[sa]
        ca, cb = self.cost(a), self.cost(b)
        return ca + cb - self.costs[ta] - self.costs[tb], a, b

    def apply(self, ta: int, tb: int, a: list[int], b: list[int]) -> None:
        self.tables[ta] = a
        self.costs[ta] = self.cost(a)
        if ta != tb:
            self.tables[tb] = b
            self.costs[tb] = self.cost(b)

    def moves_from(self, ta: int) -> list[tuple[int, int, int, int]]:
        moves = []
        for sa in range(len(self.tables[ta])):
            for tb in range(len(self.tables)):
                if tb == ta:
                    continue
                for sb in range(len(self.tables[tb])):
                    moves.append((ta, sa, tb, sb))
        if self.seats_matter and len(self.tables[ta]) == 4:
            moves.extend((ta, i, ta, j) for i, j in _WITHIN_SWAPS)
        return moves

    def all_moves(self) -> list[tuple[int, int, int, int]]:
        moves = []
        count = len(self.tables)
        for ta in range(count):
            for tb in range(ta + 1, count):
                for sa in range(len(self.tables[ta])):
                    for sb in range(len(self.tables[tb])):
                        moves.append((ta, sa, tb, sb))
            if self.seats_matter and len(self.tables[ta]) == 4:
                moves.extend((ta, i, ta, j) for i, j in _WITHIN_SWAPS)
        return moves

    def remove_conflicts(self, max_steps: int) -> None:
        """Tabu search on conflicted tables; keeps the best seating seen."""
        best_tables = [t[:] for t in self.tables]
        best_total = self.total()
        tabu: dict[tuple[int, int], int] = {}  # (player, table) -> first step it may return
        for step in range(max_steps):
            conflicted = self.conflicted()
            if not conflicted:
                break
            candidates: list[tuple[int, float, tuple[int, int, int, int], list[int], list[int]]]
            candidates = []
            current = self.total()
            for ta in conflicted:
                for move in self.moves_from(ta):
                    ta_, sa, tb, sb = move
                    d, a, b = self.delta(ta_, sa, tb, sb)
                    moved_in = (self.tables[ta_][sa], tb), (self.tables[tb][sb], ta_)
                    is_tabu = ta_ != tb and any(tabu.get(m, -1) > step for m in moved_in)
                    if is_tabu and current + d >= best_total:
                        continue
                    candidates.append((d, self.rng.random(), move, a, b))
            if not candidates:
                break
            d, _, (ta, sa, tb, sb), a, b = min(candidates, key=lambda c: (c[0], c[1]))
            if ta != tb:
                tenure = 3 + self.rng.randrange(8)
                tabu[(self.tables[ta][sa], ta)] = step + tenure
                tabu[(self.tables[tb][sb], tb)] = step + tenure
            self.apply(ta, tb, a, b)
            if self.total() < best_total:
                best_total = self.total()
                best_tables = [t[:] for t in self.tables]
        if self.total() > best_total:
            self.tables = best_tables
            self.costs = [self.cost(t) for t in self.tables]

    def descend(self) -> None:
        """First-improvement descent over every move, in seeded random order."""
        improved = True
        while improved:
            improved = False
            moves = self.all_moves()
            self.rng.shuffle(moves)
            for ta, sa, tb, sb in moves:
                d, a, b = self.delta(ta, sa, tb, sb)
                if d < 0:
                    self.apply(ta, tb, a, b)
                    improved = True


Tier = Literal["met", "partnered", "opposed", "gap", "position"]


class RoundCosts:
    """Table costs for one round from pairwise figures, in a chosen order of tiers.

    ``met``: pairs at the table who met before (count squared); ``partnered``: partner
    pairs who were partners before; ``opposed``: opposing pairs who opposed before;
    ``gap``: squared difference in match points; ``position``: squared distance in the
    standing order. The first ``conflict_tiers`` tiers are conflicts for the search.
    Players are local indices 0..n-1 (``ids[i]`` is the entrant).
    """

    def __init__(
        self,
        ids: Sequence[int],
        scores: Mapping[int, Fraction],
        history: History,
        tiers: Sequence[Tier],
        *,
        conflict_tiers: int,
        pair_slots: int,
    ) -> None:
        n = len(ids)
        unit = lcm(*(scores[e].denominator for e in ids)) if ids else 1
        scaled = [int(scores[e] * unit) for e in ids]
        figures: dict[Tier, list[list[int]]] = {t: [[0] * n for _ in range(n)] for t in tiers}
        for i, j in combinations(range(n), 2):
            a, b = ids[i], ids[j]
            values: dict[Tier, int] = {
                "met": history.meetings(a, b) ** 2,
                "partnered": history.partnerships(a, b) ** 2,
                "opposed": history.oppositions(a, b) ** 2,
                "gap": (scaled[i] - scaled[j]) ** 2,
                "position": (i - j) ** 2,
            }
            for t in tiers:
                figures[t][i][j] = figures[t][j][i] = values[t]
        most = [max((max(row) for row in figures[t]), default=0) for t in tiers]
        place = [1] * len(tiers)
        for k in range(len(tiers) - 2, -1, -1):
            place[k] = place[k + 1] * (pair_slots * most[k + 1] + 1)
        # Any count in a conflict tier outweighs every lower tier of the whole round.
        self.conflict_level = (
            place[conflict_tiers - 1] if conflict_tiers else place[0] * (pair_slots * most[0] + 1)
        )

        def weighted(roles: set[Tier]) -> list[list[int]]:
            out = [[0] * n for _ in range(n)]
            for k, t in enumerate(tiers):
                if t in roles:
                    grid = figures[t]
                    for i in range(n):
                        row, src = out[i], grid[i]
                        for j in range(n):
                            row[j] += src[j] * place[k]
            return out

        shared: set[Tier] = {"met", "gap", "position"}
        self.shared = weighted(shared)
        self.partner = weighted({"partnered"})
        self.opponent = weighted({"opposed"})
        self.plain = [
            [s + o for s, o in zip(rs, ro, strict=True)]
            for rs, ro in zip(self.shared, self.opponent, strict=True)
        ]

    def __call__(self, seats: Sequence[int]) -> int:
        """Cost of one table of local indices in seat order."""
        if len(seats) == 4:
            a, b, c, d = seats
            s, o = self.shared, self.opponent
            return (
                s[a][b]
                + s[a][c]
                + s[a][d]
                + s[b][c]
                + s[b][d]
                + s[c][d]
                + self.partner[a][c]
                + self.partner[b][d]
                + o[a][b]
                + o[a][d]
                + o[c][b]
                + o[c][d]
            )
        p = self.plain
        return sum(p[x][y] for x, y in combinations(seats, 2))
