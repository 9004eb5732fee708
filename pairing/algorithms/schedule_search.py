"""Seating several rounds at once so that pairs meet as evenly as possible.

Vocabulary: a *plan* is a seating for each of several rounds (each round a list of tables
of player indices; players missing from a round sit out). A pair's *count* is how often it
shares a table, history included. The *spread cost* is the sum over pairs of
count * (count - 1) / 2: zero exactly when no pair meets twice, and, for a fixed number of
meetings, smallest when counts are as equal as they can be — so it also leaves no pair
unmet when there are enough meetings to go round. An optional *standing cost* (a pairwise
matrix, e.g. squared score gaps) ranks plans of equal spread, the first round weighing
more than all later ones together: the Swiss looks ahead with it, keeping the round it
seats now close in standing while checking the remaining rounds can still avoid repeats.

The search is the social-golfer tabu search of Dotú and Van Hentenryck: at each step take
the best swap of two players at different tables of one round among those touching a pair
that meets too often, with recently moved players tabu, and a seeded random shake when it
stalls; then a descent on the standing cost that never raises the spread.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pairing.algorithms.annealing import two_of

Plan = list[list[list[int]]]

SHAKE_AFTER = 150
"""Steps without a new best before a random shake."""
PATIENCE = 1000
"""Steps without a new best before the search gives up."""


def spread_bound(pair_count: int, meetings: int) -> int:
    """The least spread any plan with this many meetings over this many pairs can have:
    counts as equal as possible."""
    if pair_count == 0:
        return 0
    q, rem = divmod(meetings, pair_count)
    return (pair_count - rem) * q * (q - 1) // 2 + rem * (q + 1) * q // 2


class ScheduleSearch:
    """A plan being improved in place. ``base`` holds each pair's count from history."""

    def __init__(
        self,
        player_count: int,
        plan: Plan,
        *,
        base: Sequence[Sequence[int]] | None = None,
        standing: Sequence[Sequence[int]] | None = None,
        rng: random.Random,
    ) -> None:
        n = player_count
        self.n = n
        self.plan = [[list(t) for t in r] for r in plan]
        self.rng = rng
        self.counts = (
            [list(row) for row in base] if base is not None else [[0] * n for _ in range(n)]
        )
        for tables in self.plan:
            for t in tables:
                for i, a in enumerate(t):
                    for b in t[i + 1 :]:
                        self.counts[a][b] += 1
                        self.counts[b][a] += 1
        self.where = [self._where(r) for r in range(len(self.plan))]
        self.standing = standing
        later = 0
        if standing is not None:
            most = max((max(row) for row in standing), default=0)
            slots = sum(len(t) * (len(t) - 1) // 2 for r in self.plan for t in r)
            later = slots * most + 1
        self.first_weight = later if later else 1

    def _where(self, r: int) -> dict[int, int]:
        return {p: k for k, t in enumerate(self.plan[r]) for p in t}

    # -- costs ----------------------------------------------------------------------------

    def spread(self) -> int:
        """Sum over pairs of count * (count - 1) / 2 (history included)."""
        c = self.counts
        return sum(
            c[i][j] * (c[i][j] - 1) // 2 for i in range(self.n) for j in range(i + 1, self.n)
        )

    def standing_cost(self) -> int:
        if self.standing is None:
            return 0
        s = self.standing
        total = 0
        for r, tables in enumerate(self.plan):
            weight = self.first_weight if r == 0 else 1
            for t in tables:
                for i, a in enumerate(t):
                    for b in t[i + 1 :]:
                        total += weight * s[a][b]
        return total

    def _spread_delta(self, r: int, a: int, b: int) -> int:
        """Change in spread if a and b (at different tables of round r) swap."""
        c = self.counts
        ta = self.plan[r][self.where[r][a]]
        tb = self.plan[r][self.where[r][b]]
        d = 0
        for x in ta:
            if x != a:
                d += c[b][x] - (c[a][x] - 1)
        for y in tb:
            if y != b:
                d += c[a][y] - (c[b][y] - 1)
        return d

    def _standing_delta(self, r: int, a: int, b: int) -> int:
        if self.standing is None:
            return 0
        s = self.standing
        ta = self.plan[r][self.where[r][a]]
        tb = self.plan[r][self.where[r][b]]
        d = 0
        for x in ta:
            if x != a:
                d += s[b][x] - s[a][x]
        for y in tb:
            if y != b:
                d += s[a][y] - s[b][y]
        return d * (self.first_weight if r == 0 else 1)

    def swap(self, r: int, a: int, b: int) -> None:
        ka, kb = self.where[r][a], self.where[r][b]
        ta, tb = self.plan[r][ka], self.plan[r][kb]
        c = self.counts
        for x in ta:
            if x != a:
                c[a][x] -= 1
                c[x][a] -= 1
                c[b][x] += 1
                c[x][b] += 1
        for y in tb:
            if y != b:
                c[b][y] -= 1
                c[y][b] -= 1
                c[a][y] += 1
                c[y][a] += 1
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        self.where[r][a], self.where[r][b] = kb, ka

    # -- search ---------------------------------------------------------------------------

    def conflicts(self, rounds: Sequence[int]) -> list[tuple[int, int]]:
        """(round, player) for every player seated with someone they meet too often."""
        c = self.counts
        found = []
        for r in rounds:
            for t in self.plan[r]:
                for a in t:
                    if any(c[a][x] > 1 for x in t if x != a):
                        found.append((r, a))
        return found

    def reduce_spread(
        self, max_steps: int, *, rounds: Sequence[int] | None = None, target: int = 0
    ) -> int:
        """Tabu search on the spread, moving players only in ``rounds`` (default all),
        until it reaches ``target`` (a proven lower bound) or runs out of steps; leaves the
        best plan found in place and returns its spread."""
        movable = list(range(len(self.plan))) if rounds is None else list(rounds)
        current = self.spread()
        best = current
        best_plan = [[t[:] for t in r] for r in self.plan]
        tabu: dict[tuple[int, int, int], int] = {}
        stall = 0
        since_best = 0
        for step in range(max_steps):
            if since_best > PATIENCE:
                break
            if current <= target:
                break
            found = self.conflicts(movable)
            if not found:
                break
            choice: tuple[int, float, int, int, int] | None = None
            for r, a in found:
                ka = self.where[r][a]
                for kb, tb in enumerate(self.plan[r]):
                    if kb == ka:
                        continue
                    for b in tb:
                        d = self._spread_delta(r, a, b)
                        is_tabu = tabu.get((r, a, kb), -1) > step or tabu.get((r, b, ka), -1) > step
                        if is_tabu and current + d >= best:
                            continue
                        key = (d, self.rng.random(), r, a, b)
                        if choice is None or key[:2] < choice[:2]:
                            choice = key
            if choice is None:
                tabu.clear()  # every move tabu: small instances; forget and go on
                continue
            d, _, r, a, b = choice
            tenure = 2 + self.rng.randrange(max(2, min(10, self.n // 4)))
            tabu[(r, a, self.where[r][a])] = step + tenure
            tabu[(r, b, self.where[r][b])] = step + tenure
            self.swap(r, a, b)
            current += d
            if current < best:
                best, stall, since_best = current, 0, 0
                best_plan = [[t[:] for t in rr] for rr in self.plan]
            else:
                stall += 1
                since_best += 1
                if stall > SHAKE_AFTER:
                    self._shake(movable)
                    current = self.spread()
                    stall = 0
        if current > best:
            self._load(best_plan)
        return min(current, best)

    def _shake(self, rounds: Sequence[int]) -> None:
        for _ in range(3):
            r = self.rng.choice(list(rounds))
            if len(self.plan[r]) < 2:
                return
            ka, kb = two_of(self.rng, len(self.plan[r]))
            self.swap(r, self.rng.choice(self.plan[r][ka]), self.rng.choice(self.plan[r][kb]))

    def _load(self, plan: Plan) -> None:
        # Subtract the current plan's meetings, add the stored plan's.
        for sign, source in ((-1, self.plan), (1, plan)):
            for tables in source:
                for t in tables:
                    for i, a in enumerate(t):
                        for b in t[i + 1 :]:
                            self.counts[a][b] += sign
                            self.counts[b][a] += sign
        self.plan = [[t[:] for t in r] for r in plan]
        self.where = [self._where(r) for r in range(len(self.plan))]

    def descend_standing(self, rounds: Sequence[int] | None = None) -> None:
        """First-improvement descent on the standing cost by swaps that keep the spread."""
        if self.standing is None:
            return
        movable = list(range(len(self.plan))) if rounds is None else list(rounds)
        improved = True
        while improved:
            improved = False
            for r in movable:
                players = [p for t in self.plan[r] for p in t]
                self.rng.shuffle(players)
                for i, a in enumerate(players):
                    for b in players[i + 1 :]:
                        if self.where[r][a] == self.where[r][b]:
                            continue
                        ds = self._standing_delta(r, a, b)
                        if ds < 0 and self._spread_delta(r, a, b) <= 0:
                            self.swap(r, a, b)
                            improved = True
