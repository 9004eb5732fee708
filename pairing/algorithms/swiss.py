"""Two-sided Swiss pairing (players, or partnerships as single entrants).

Vocabulary: the *standing order* sorts entrants by match points, then rank, then a seeded
tie-break. A *score group* holds the entrants on equal points. The *pairing order* is the
standing order with each score group arranged so that pairing neighbours (positions 0-1,
2-3, ...) gives the classic Swiss draw: an incoming *floater* meets the top of the group,
the top half meets the bottom half in order (1 v n/2+1), and an odd one out floats down.

A round is a minimum-cost perfect matching (networkx's blossom) under lexicographic costs,
most important first:

1. rematches (sum over pairs of previous meetings squared) — zero whenever avoidable;
2. a bye for an entrant who already had one;
3. the bye as low in the standing order as possible;
4. score cost: the sum over tables of the squared difference in match points;
5. tie-break: distance in the pairing order, so ties keep the classic draw.

Scale: the all-pairs graph is too slow at 1,000 entrants, so the default *restricted*
strategy cuts the pairing order into even segments and links each entrant only to its
``window`` nearest earlier and later neighbours it has not met. Pairing neighbours in a
sorted list is the least score cost of any perfect matching (squared gaps are convex), and
no segment boundary crosses a neighbour pair, so when every segment is rematch-free and
reaches its own neighbour cost the whole draw is provably optimal for tiers 1-4
(``is_certified_optimal``). A segment that falls short is merged with its neighbours and
solved again; a field with no rematch-free pairing at all, or small enough, is solved over
every pair (``strategy="full"``), which is exact by construction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import lcm
from typing import Literal

from pairing.algorithms.matching import Edge, min_cost_matching
from pairing.algorithms.quality import make_draw, score_map
from pairing.algorithms.types import Draw, Entrant, History, PairingError, as_fraction

Strategy = Literal["restricted", "full"]

EXACT_LIMIT = 120
"""Fields up to this size are re-solved over every pair when no certificate is found."""


def swiss_pair(
    entrants: Sequence[Entrant],
    history: History,
    *,
    seed: int,
    strategy: Strategy = "restricted",
    window: int = 6,
    segment: int = 64,
    exact_limit: int = EXACT_LIMIT,
) -> Draw:
    """Pair a two-sided Swiss round; an odd field gives one bye (to the lowest-ranked
    entrant without one, unless that forces a rematch another bye avoids)."""
    if len(entrants) < 2:
        raise PairingError("too_few", "a Swiss round needs at least two entrants")
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("entrant ids must be unique")
    field = _Field.build(entrants, history, seed)
    scores = score_map(entrants)
    if strategy == "full":
        pairs, bye = field.solve_full()
        certified: bool | None = True
    else:
        pairs, bye, certified = field.solve_restricted(
            window, max(2, segment - segment % 2), exact_limit
        )
    seatings = [field.seat(a, b) for a, b in pairs]
    seatings.sort(key=lambda s: field.standing_pos[s[0]])
    return make_draw(
        seatings,
        () if bye is None else (bye,),
        scores=scores,
        history=history,
        seed=seed,
        is_certified_optimal=certified,
    )


def standing_order(entrants: Sequence[Entrant], seed: int) -> list[Entrant]:
    """Entrants by match points (high first), then rank, then a tie-break drawn from ``seed``
    (drawn in id order, so the input order never matters)."""
    rng = random.Random(seed)
    tiebreak = {eid: rng.random() for eid in sorted(e.id for e in entrants)}
    return sorted(entrants, key=lambda e: (-as_fraction(e.score), e.rank, tiebreak[e.id]))


@dataclass
class _Field:
    standing: list[Entrant]
    standing_pos: dict[int, int]
    scaled: dict[int, int]
    history: History

    @classmethod
    def build(cls, entrants: Sequence[Entrant], history: History, seed: int) -> _Field:
        standing = standing_order(entrants, seed)
        unit = lcm(*(as_fraction(e.score).denominator for e in entrants))
        scaled = {e.id: int(as_fraction(e.score) * unit) for e in entrants}
        return cls(standing, {e.id: i for i, e in enumerate(standing)}, scaled, history)

    def seat(self, a: int, b: int) -> tuple[int, int]:
        """Higher-standing entrant in seat 0."""
        return (a, b) if self.standing_pos[a] < self.standing_pos[b] else (b, a)

    def bye_candidates(self) -> list[Entrant]:
        """Best bye first: no bye yet, then lowest in the standing order."""
        return sorted(self.standing, key=lambda e: (e.had_bye, -self.standing_pos[e.id]))

    def gap_cost(self, a: int, b: int) -> int:
        return (self.scaled[a] - self.scaled[b]) ** 2

    # -- exact: every pair ----------------------------------------------------------------

    def solve_full(self) -> tuple[list[tuple[int, int]], int | None]:
        """Exact lexicographic optimum over every pair (and a bye node for an odd field)."""
        order = pairing_order(self.standing, self.scaled)
        pos = {e.id: i for i, e in enumerate(order)}
        ids = [e.id for e in order]
        n = len(ids)
        edges: list[Edge] = []
        for i in range(n):
            for j in range(i + 1, n):
                a, b = ids[i], ids[j]
                met = self.history.meetings(a, b)
                edges.append((i, j, (met * met, 0, 0, self.gap_cost(a, b), (j - i) ** 2)))
        nodes = list(range(n))
        if n % 2:
            bye_node = n
            nodes.append(bye_node)
            for e in self.standing:
                from_bottom = n - 1 - self.standing_pos[e.id]
                edges.append((pos[e.id], bye_node, (0, int(e.had_bye), from_bottom, 0, 0)))
        matched = min_cost_matching(nodes, edges)
        pairs: list[tuple[int, int]] = []
        bye: int | None = None
        for u, v in matched:
            if v == n:
                bye = ids[u]
            else:
                pairs.append((ids[u], ids[v]))
        return pairs, bye

    # -- restricted: segments of the pairing order ----------------------------------------

    def solve_restricted(
        self, window: int, segment: int, exact_limit: int
    ) -> tuple[list[tuple[int, int]], int | None, bool]:
        bye: int | None = None
        players = self.standing
        if len(players) % 2:
            bye = self.bye_candidates()[0].id
            players = [e for e in players if e.id != bye]
        order = [e.id for e in pairing_order(players, self.scaled)]
        result = _SegmentSolver(self, order, window).solve(segment)
        if result is None:
            # No rematch-free pairing with this bye: only the exact search can weigh a
            # rematch against giving the bye to someone else.
            pairs, full_bye = self.solve_full()
            return pairs, full_bye, True
        pairs, certified = result
        if not certified and len(self.standing) <= exact_limit:
            pairs, full_bye = self.solve_full()
            return pairs, full_bye, True
        return pairs, bye, certified


def pairing_order(players: Sequence[Entrant], scaled: dict[int, int]) -> list[Entrant]:
    """The pairing order of entrants already in standing order (see the module docstring)."""
    order: list[Entrant] = []
    start = 0
    while start < len(players):
        end = start
        while end < len(players) and scaled[players[end].id] == scaled[players[start].id]:
            end += 1
        group = list(players[start:end])
        incoming = len(order) % 2
        top, rest = group[:incoming], group[incoming:]
        out = []
        if len(rest) % 2:
            out, rest = rest[-1:], rest[:-1]
        half = len(rest) // 2
        order += top
        for k in range(half):
            order += (rest[k], rest[half + k])
        order += out
        start = end
    return order


class _SegmentSolver:
    """Solves even segments of the pairing order on a windowed, rematch-free graph."""

    def __init__(self, field: _Field, order: list[int], window: int) -> None:
        self.field = field
        self.order = order
        self.window = window

    def neighbour_bound(self, a: int, b: int) -> int:
        """Score cost of pairing neighbours in positions [a, b): the least possible."""
        o = self.order
        return sum(self.field.gap_cost(o[k], o[k + 1]) for k in range(a, b, 2))

    def edges(self, a: int, b: int, window: int) -> list[Edge]:
        o, met = self.order, self.field.history.met
        chosen: set[tuple[int, int]] = set()
        for i in range(a, b):
            for step in (1, -1):
                found = 0
                j = i + step
                while a <= j < b and found < window:
                    if frozenset((o[i], o[j])) not in met:
                        chosen.add((min(i, j), max(i, j)))
                        found += 1
                    j += step
        return [(i, j, (self.field.gap_cost(o[i], o[j]), (j - i) ** 2)) for i, j in sorted(chosen)]

    def solve_one(self, a: int, b: int, window: int) -> tuple[list[tuple[int, int]], bool] | None:
        """Pairs of the segment and whether they reach the neighbour bound; None if the
        windowed graph has no perfect matching."""
        matched = min_cost_matching(list(range(a, b)), self.edges(a, b, window))
        if len(matched) * 2 != b - a:
            return None
        o = self.order
        cost = sum(self.field.gap_cost(o[i], o[j]) for i, j in matched)
        return [(o[i], o[j]) for i, j in matched], cost == self.neighbour_bound(a, b)

    def solve(self, segment: int) -> tuple[list[tuple[int, int]], bool] | None:
        n = len(self.order)
        if n == 0:
            return [], True
        bounds = [*range(0, n, segment), n]
        segments = [(bounds[k], bounds[k + 1]) for k in range(len(bounds) - 1)]
        solved: dict[tuple[int, int], list[tuple[int, int]]] = {}
        while True:
            failed: list[int] = []
            for k, (a, b) in enumerate(segments):
                if (a, b) in solved:
                    continue
                got = self.solve_one(a, b, self.window)
                if got is not None and got[1]:
                    solved[(a, b)] = got[0]
                else:
                    failed.append(k)
            if not failed:
                return [p for s in segments for p in solved[s]], True
            if len(segments) == 1:
                return self._whole_field()
            segments = _merge(segments, failed)

    def _whole_field(self) -> tuple[list[tuple[int, int]], bool] | None:
        """The whole field failed its certificate: widen the window until the cost stops
        improving; None when even the full rematch-free graph has no perfect matching."""
        n = len(self.order)
        window = self.window
        best: tuple[list[tuple[int, int]], bool] | None = None
        best_cost: int | None = None
        while True:
            got = self.solve_one(0, n, window)
            if got is not None:
                if got[1]:
                    return got
                cost = sum(self.field.gap_cost(a, b) for a, b in got[0])
                if best_cost is not None and cost >= best_cost:
                    return best
                best, best_cost = got, cost
            if window >= n:
                return best
            window *= 2


def _merge(segments: list[tuple[int, int]], failed: list[int]) -> list[tuple[int, int]]:
    """Merge every failed segment with both neighbours."""
    joined = [False] * (len(segments) - 1)
    for k in failed:
        if k > 0:
            joined[k - 1] = True
        if k < len(segments) - 1:
            joined[k] = True
    merged: list[tuple[int, int]] = []
    start = segments[0][0]
    for k, (_, b) in enumerate(segments):
        if k == len(segments) - 1 or not joined[k]:
            merged.append((start, b))
            if k < len(segments) - 1:
                start = segments[k + 1][0]
    return merged
