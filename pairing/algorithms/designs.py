"""Exact combinatorial designs, built rather than stored.

Vocabulary: a *resolvable design* splits players into tables round after round so that
every pair shares a table exactly once; each round is a *parallel class*. An *affine
geometry* AG(d, q) has q**d points and lines of q points; its lines fall into
(q**d - 1)/(q - 1) parallel classes, so it seats q**d players at tables of q for that many
rounds with every pair meeting once: AG(2, 3) is 9 players at 3-player tables in 4 rounds,
AG(3, 3) 27 players in 13 rounds, AG(2, 4) 16 players at 4-player tables in 5 rounds,
AG(3, 4) 64 players in 21 rounds. Kirkman's schoolgirls (15 players at 3-player tables in
7 rounds) come from a *packing* of the projective space PG(3, 2) into 7 disjoint spreads.
A *whist tournament* Wh(v) seats v players (v = 4n or 4n + 1) at four-player tables so
that every pair are partners exactly once and opponents exactly twice; it is built
*cyclically*: one starting round over Z_(v-1) plus a fixed point (or Z_v with one sit-out)
whose partner and opponent differences cover every non-zero difference once and twice, then
shifted by 1, 2, ... Starting rounds are found by seeded backtracking and checked before
use. Players are numbered 0..v-1 here; callers map them to entrants.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, product

Round = tuple[tuple[int, ...], ...]


# -- finite fields ---------------------------------------------------------------------------

_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(q) for a prime q or q = 4."""
    if q == 4:
        add = [[a ^ b for b in range(4)] for a in range(4)]
        return add, [list(row) for row in _GF4_MUL]
    if q < 2 or any(q % d == 0 for d in range(2, q)):
        raise ValueError(f"GF({q}) is only built here for primes and 4")
    return (
        [[(a + b) % q for b in range(q)] for a in range(q)],
        [[(a * b) % q for b in range(q)] for a in range(q)],
    )


def has_affine_resolution(players: int, table_size: int) -> bool:
    """Whether AG(d, table_size) seats exactly this many players for some d >= 2."""
    if table_size not in (2, 3, 4):
        return False
    count = table_size * table_size
    while count < players:
        count *= table_size
    return count == players


@cache
def affine_resolution(q: int, dim: int) -> tuple[Round, ...]:
    """The parallel classes of AG(dim, q): points 0..q**dim-1 (base-q digits), lines as
    tables of q players; every pair of points shares exactly one line."""
    add, mul = _field(q)
    points = list(product(range(q), repeat=dim))
    index = {p: i for i, p in enumerate(points)}
    # One direction per projective point: first non-zero coordinate equal to 1.
    directions = [d for d in points if any(d) and d[next(i for i, x in enumerate(d) if x)] == 1]
    classes: list[Round] = []
    for d in directions:
        seen: set[int] = set()
        lines: list[tuple[int, ...]] = []
        for p in points:
            if index[p] in seen:
                continue
            line = tuple(
                index[tuple(add[p[k]][mul[t][d[k]]] for k in range(dim))] for t in range(q)
            )
            seen.update(line)
            lines.append(tuple(sorted(line)))
        classes.append(tuple(sorted(lines)))
    return _checked_resolution(tuple(classes), q**dim)


@cache
def kirkman_15() -> tuple[Round, ...]:
    """A Kirkman triple system on 15 players: 7 rounds of five 3-player tables, every pair
    once. Found as a packing of PG(3, 2): points are the non-zero 4-bit vectors, lines the
    triples {a, b, a xor b}, and each round a spread (5 disjoint lines)."""
    lines = sorted({tuple(sorted((a, b, a ^ b))) for a, b in combinations(range(1, 16), 2)})
    by_point: dict[int, list[tuple[int, ...]]] = {p: [] for p in range(1, 16)}
    for line in lines:
        for p in line:
            by_point[p].append(line)
    used: set[tuple[int, ...]] = set()
    rounds: list[list[tuple[int, ...]]] = []

    def fill(current: list[tuple[int, ...]], covered: set[int]) -> bool:
        if len(covered) == 15:
            rounds.append(list(current))
            if len(rounds) == 7 or fill([], set()):
                return True
            rounds.pop()
            return False
        point = min(p for p in range(1, 16) if p not in covered)
        for line in by_point[point]:
            if line in used or covered.intersection(line):
                continue
            used.add(line)
            current.append(line)
            if fill(current, covered | set(line)):
                return True
            current.pop()
            used.discard(line)
        return False

    if not fill([], set()):
        raise AssertionError("PG(3, 2) has a packing; the search must find it")
    return _checked_resolution(
        tuple(tuple(sorted(tuple(sorted(p - 1 for p in line)) for line in r)) for r in rounds), 15
    )


def _checked_resolution(rounds: tuple[Round, ...], players: int) -> tuple[Round, ...]:
    """The rounds, after checking each seats everyone once and no pair meets twice."""
    met: set[tuple[int, int]] = set()
    for r in rounds:
        if sorted(p for t in r for p in t) != list(range(players)):
            raise AssertionError("a design round must seat every player once")
        for t in r:
            for pair in combinations(t, 2):
                if pair in met:
                    raise AssertionError(f"pair {pair} meets twice in a design")
                met.add(pair)
    return rounds


# -- whist tournaments -----------------------------------------------------------------------

WhistTable = tuple[int, int, int, int]
"""Seats 0..3: partners 0+2 against 1+3."""


def is_whist_size(players: int) -> bool:
    """Whist tournaments exist for every v = 4n or 4n + 1 (v >= 4); built here cyclically
    (the search takes milliseconds up to 17 players, about 2 s at 20, minutes beyond 24)."""
    return players >= 4 and players % 4 in (0, 1)


@cache
def whist_tournament(players: int, seed: int = 0) -> tuple[tuple[WhistTable, ...], ...]:
    """A whist tournament Wh(players): rounds of four-player tables (seats 0+2 v 1+3) in
    which every pair are partners exactly once and opponents exactly twice. With 4n + 1
    players one player sits out each round (the one missing from its tables)."""
    if not is_whist_size(players):
        raise ValueError(f"whist tournaments need 4n or 4n + 1 players, not {players}")
    with_fixed_point = players % 4 == 0
    group = _Group(_WHIST_GROUPS.get(players - with_fixed_point, (players - with_fixed_point,)))
    start = _whist_start(group, with_fixed_point, seed)
    fixed = group.order  # the point that every shift leaves where it is
    rounds = []
    for shift in range(group.order):
        tables = (tuple(x if x == fixed else group.add(x, shift) for x in table) for table in start)
        rounds.append(tuple(sorted(_as_whist_table(t) for t in tables)))
    return _checked_whist(tuple(rounds), players)


def _checked_whist(
    rounds: tuple[tuple[WhistTable, ...], ...], players: int
) -> tuple[tuple[WhistTable, ...], ...]:
    """The rounds, after checking every pair partners once and opposes twice."""
    partners: dict[tuple[int, int], int] = {}
    opponents: dict[tuple[int, int], int] = {}
    for r in rounds:
        for a, b, c, d in r:
            for x, y in ((a, c), (b, d)):
                partners[min(x, y), max(x, y)] = partners.get((min(x, y), max(x, y)), 0) + 1
            for x, y in ((a, b), (a, d), (c, b), (c, d)):
                opponents[min(x, y), max(x, y)] = opponents.get((min(x, y), max(x, y)), 0) + 1
    for pair in combinations(range(players), 2):
        if partners.get(pair) != 1 or opponents.get(pair) != 2:
            raise AssertionError(f"pair {pair} breaks the whist conditions")
    return rounds


_WHIST_GROUPS = {9: (3, 3)}
"""Groups to develop over when the cyclic group has no starting round (Z_9 has none)."""


class _Group:
    """A finite abelian group Z_m1 x Z_m2 x ..., elements numbered 0..order-1."""

    def __init__(self, moduli: tuple[int, ...]) -> None:
        self.moduli = moduli
        self.elements = list(product(*(range(m) for m in moduli)))
        self.order = len(self.elements)
        index = {e: i for i, e in enumerate(self.elements)}
        self._add = [
            [
                index[tuple((x + y) % m for x, y, m in zip(a, b, moduli, strict=True))]
                for b in self.elements
            ]
            for a in self.elements
        ]
        self._sub = [
            [
                index[tuple((x - y) % m for x, y, m in zip(a, b, moduli, strict=True))]
                for b in self.elements
            ]
            for a in self.elements
        ]

    def add(self, a: int, b: int) -> int:
        return self._add[a][b]

    def sub(self, a: int, b: int) -> int:
        return self._sub[a][b]


def _as_whist_table(t: tuple[int, ...]) -> WhistTable:
    a, b, c, d = t
    return (a, b, c, d)


class _Restart(Exception):
    """The current attempt used up its node budget."""


def _whist_start(group: _Group, with_fixed_point: bool, seed: int) -> list[tuple[int, ...]]:
    """A starting round whose differences make the shifts a whist tournament: seeded
    backtracking, restarted with a doubled node budget whenever an attempt runs long
    (such searches have heavy tails)."""
    m = group.order
    fixed = m
    rng = random.Random(seed)
    points = list(range(1, m)) + ([0, fixed] if with_fixed_point else [])
    # Without a fixed point, 0 sits out the starting round.
    budget = 2000
    while True:
        try:
            return _whist_attempt(group, points, fixed, rng, budget)
        except _Restart:
            budget *= 2
        if budget > 1 << 26:
            raise AssertionError(f"no whist starting round over the group {group.moduli}")


def _whist_attempt(
    group: _Group, points: list[int], fixed: int, rng: random.Random, budget: int
) -> list[tuple[int, ...]]:
    partner_used = [0] * group.order
    opponent_used = [0] * group.order
    tables: list[tuple[int, ...]] = []
    free = set(points)
    nodes = 0

    def mark(a: int, b: int, used: list[int], delta: int, cap: int) -> bool:
        """Count the pair's two differences; False if either now exceeds ``cap``."""
        if fixed in (a, b):
            return True
        x, y = group.sub(a, b), group.sub(b, a)
        used[x] += delta
        used[y] += delta
        return used[x] <= cap and used[y] <= cap

    def search() -> bool:
        nonlocal nodes
        if not free:
            return True
        nodes += 1
        if nodes > budget:
            raise _Restart
        first = fixed if fixed in free else min(free)
        rest = sorted(free - {first})
        rng.shuffle(rest)
        for partner in rest:
            if mark(first, partner, partner_used, 1, 1):
                others = [x for x in rest if x != partner]
                for i, c in enumerate(others):
                    ok = mark(first, c, opponent_used, 1, 2)
                    ok = mark(partner, c, opponent_used, 1, 2) and ok
                    if ok:
                        for d in others[i + 1 :]:
                            ok = mark(c, d, partner_used, 1, 1)
                            ok = mark(first, d, opponent_used, 1, 2) and ok
                            ok = mark(partner, d, opponent_used, 1, 2) and ok
                            if ok:
                                table = (first, c, partner, d)
                                tables.append(table)
                                free.difference_update(table)
                                if search():
                                    return True
                                tables.pop()
                                free.update(table)
                            mark(c, d, partner_used, -1, 1)
                            mark(first, d, opponent_used, -1, 2)
                            mark(partner, d, opponent_used, -1, 2)
                    mark(first, c, opponent_used, -1, 2)
                    mark(partner, c, opponent_used, -1, 2)
            mark(first, partner, partner_used, -1, 1)
        return False

    if not search():
        raise AssertionError(f"no whist starting round over the group {group.moduli}")
    return tables
