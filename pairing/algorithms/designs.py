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

import json
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations, product
from pathlib import Path
from typing import Any

from pairing.algorithms.design_search import Group

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

DATA = Path(__file__).parent / "data"


@cache
def _data(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / name).read_text())
    return loaded


def is_whist_size(players: int) -> bool:
    """Whist tournaments exist for every v = 4n or 4n + 1 (v >= 4)."""
    return players >= 4 and players % 4 in (0, 1)


def whist_sizes() -> tuple[int, ...]:
    """The whist sizes whose starting round is kept in ``data/whist.json``.

    Each was found offline by ``scripts/precompute_designs.py`` with seed 1: where a
    symmetric starting round (tables (x, y, -x, -y)) exists the symmetric search found it,
    the others were found by the starter search or the backtracking of
    ``design_search.py``; an entry's ``found_by`` names the search, its seed and its CPU
    time where it was recorded."""
    return tuple(sorted(int(v) for v in _data("whist.json")))


def has_whist_tournament(players: int) -> bool:
    """Whether a whist tournament for this many players is built here."""
    return str(players) in _data("whist.json")


@cache
def whist_tournament(players: int) -> tuple[tuple[WhistTable, ...], ...]:
    """A whist tournament Wh(players): rounds of four-player tables (seats 0+2 v 1+3) in
    which every pair are partners exactly once and opponents exactly twice. With 4n + 1
    players one player sits out each round (the one missing from its tables). Developed
    from the starting round kept as data, and checked before it is returned."""
    if not is_whist_size(players):
        raise ValueError(f"whist tournaments need 4n or 4n + 1 players, not {players}")
    entry = _data("whist.json").get(str(players))
    if entry is None:
        raise ValueError(f"no whist tournament for {players} players is kept")
    return develop_whist(entry, players)


def develop_whist(entry: dict[str, Any], players: int) -> tuple[tuple[WhistTable, ...], ...]:
    """Every round of the whist tournament from its starting round over the group
    (``{"group": moduli, "fixed_point": bool, "start": tables}``), checked."""
    group = Group(tuple(entry["group"]))
    fixed = group.order  # the point that every shift leaves where it is
    if group.order + bool(entry["fixed_point"]) != players:
        raise AssertionError(f"the kept whist starting round is not for {players} players")
    start = [tuple(t) for t in entry["start"]]
    rounds = []
    for shift in range(group.order):
        tables = (tuple(x if x == fixed else group.add(x, shift) for x in table) for table in start)
        rounds.append(tuple(sorted(_as_whist_table(t) for t in tables)))
    return _checked_whist(tuple(rounds), players)


def _checked_whist(
    rounds: tuple[tuple[WhistTable, ...], ...], players: int
) -> tuple[tuple[WhistTable, ...], ...]:
    """The rounds, after checking each seats 4n players once and every pair partners
    once and opposes twice."""
    partners: dict[tuple[int, int], int] = {}
    opponents: dict[tuple[int, int], int] = {}
    for r in rounds:
        seated = [p for t in r for p in t]
        if len(seated) != len(set(seated)) or len(seated) != 4 * (players // 4):
            raise AssertionError("a whist round must seat 4n players once each")
        for a, b, c, d in r:
            for x, y in ((a, c), (b, d)):
                partners[min(x, y), max(x, y)] = partners.get((min(x, y), max(x, y)), 0) + 1
            for x, y in ((a, b), (a, d), (c, b), (c, d)):
                opponents[min(x, y), max(x, y)] = opponents.get((min(x, y), max(x, y)), 0) + 1
    for pair in combinations(range(players), 2):
        if partners.get(pair) != 1 or opponents.get(pair) != 2:
            raise AssertionError(f"pair {pair} breaks the whist conditions")
    return rounds


def _as_whist_table(t: tuple[int, ...]) -> WhistTable:
    a, b, c, d = t
    return (a, b, c, d)


# -- 1-rotational resolvable designs --------------------------------------------------------


def rotational_sizes(k: int) -> tuple[int, ...]:
    """Players for which a 1-rotational resolvable design with tables of k is kept."""
    return tuple(sorted(int(v) for v, e in _data("rotational.json").items() if e["k"] == k))


@cache
def rotational_resolution(players: int, k: int) -> tuple[Round, ...] | None:
    """The parallel classes of the 1-rotational resolvable design on ``players`` points
    with blocks of ``k`` kept as data, checked; None when none is kept."""
    entry = _data("rotational.json").get(str(players))
    if entry is None or entry["k"] != k:
        return None
    return develop_rotational(entry, players)


def develop_rotational(entry: dict[str, Any], players: int) -> tuple[Round, ...]:
    """The rounds of a 1-rotational design from its base blocks over the group
    (``{"group": moduli, "k": k, "base": blocks}``): the first round is the fixed point
    with the subgroup H of order k - 1 and the base blocks shifted by H; the others are
    its shifts by a representative of each coset of H. Checked before returned."""
    group = Group(tuple(entry["group"]))
    k = int(entry["k"])
    fixed = group.order
    if group.order + 1 != players:
        raise AssertionError(f"the kept base blocks are not for {players} players")
    subgroup = group.subgroup_of_order(k - 1)
    if subgroup is None:
        raise AssertionError(f"the group {group.moduli} has no single subgroup of order {k - 1}")
    first = [(fixed, *subgroup)] + [
        tuple(group.add(x, h) for x in block) for block in entry["base"] for h in subgroup
    ]
    shifts: list[int] = []
    covered: set[int] = set()
    for g in range(group.order):
        if g not in covered:
            shifts.append(g)
            covered.update(group.add(g, h) for h in subgroup)
    rounds = tuple(
        tuple(
            sorted(
                tuple(sorted(x if x == fixed else group.add(x, g) for x in block))
                for block in first
            )
        )
        for g in shifts
    )
    if len(rounds) * (k - 1) != players - 1:
        raise AssertionError("a resolvable design has (v - 1)/(k - 1) rounds")
    return _checked_resolution(rounds, players)


# -- designs on levels, and tripling ---------------------------------------------------------


def develop_leveled(entry: dict[str, Any], players: int) -> tuple[Round, ...]:
    """The rounds of a resolvable design on Z_q x levels (plus a fixed point) from its
    base round (``{"q", "levels", "k", "fixed_point", "base", "fixed_classes"}``, see
    ``design_search.leveled_resolution``): the base round shifted by each x in Z_q, then
    each fixed round {(x, 0), (x + a, 1), (x + b, 2)}. Checked before returned."""
    q, levels = int(entry["q"]), int(entry["levels"])
    fixed = levels * q
    if levels * q + bool(entry["fixed_point"]) != players:
        raise AssertionError(f"the kept base round is not for {players} players")

    def shifted(p: int, x: int) -> int:
        return p if p == fixed else (p // q) * q + (p % q + x) % q

    rounds: list[Round] = [
        tuple(sorted(tuple(sorted(shifted(p, x) for p in block)) for block in entry["base"]))
        for x in range(q)
    ]
    for a, b in entry["fixed_classes"]:
        rounds.append(tuple((x, q + (x + a) % q, 2 * q + (x + b) % q) for x in range(q)))
    if len(rounds) * (int(entry["k"]) - 1) != players - 1:
        raise AssertionError("a resolvable design has (v - 1)/(k - 1) rounds")
    return _checked_resolution(tuple(rounds), players)


def tripled(rounds: tuple[Round, ...], players: int) -> tuple[Round, ...]:
    """A Kirkman triple system on 3v players from one on v: player (x, i) is numbered
    i*v + x. One round seats each x's three copies together; then each round of the
    smaller system gives three, one per slope d: its triple {a0, a1, a2} becomes the
    triples {(a0, j), (a1, j + d), (a2, j + 2d)} for j in Z_3 (the non-vertical lines of
    the 3 x 3 grid on its copies), so any two players on different x meet exactly once."""
    out: list[Round] = [tuple((x, players + x, 2 * players + x) for x in range(players))]
    for r in rounds:
        for d in range(3):
            out.append(
                tuple(
                    sorted(
                        tuple(sorted(((j + s * d) % 3) * players + t[s] for s in range(3)))
                        for t in r
                        for j in range(3)
                    )
                )
            )
    return _checked_resolution(tuple(out), 3 * players)


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


@cache
def kirkman_two_levels(q: int) -> tuple[Round, ...]:
    """A Kirkman triple system on 2q + 1 players for a prime q = 7 (mod 12), built
    cyclotomically on Z_q x {0, 1} plus a fixed point: point x of level i is numbered
    i*q + x, the fixed point 2q. With Q the non-zero squares (-1 is not one, as
    q = 3 mod 4) and e a cube root of 1 (a square, as q = 1 mod 6), the base round holds
    {fixed, 0, q}; {s, s*b, q + s*c} for each s in Q; and
    {q + x, q + e*x, q + e*e*x} for x in Q up to factors of e. Non-squares b and c with
    (c - 1)/(c - b) a non-square make it work: level 0 is Q and b*Q, level 1 c*Q and Q;
    the level-0 differences are +-(b - 1)*Q, the level-1 ones (1 - e)*Q times the sixth
    roots of 1, the differences across levels (c - 1)*Q and (c - b)*Q: each non-zero
    element once. Adding x in Z_q to every point but the fixed one gives the q rounds."""
    if not _is_prime(q) or q % 12 != 7:
        raise ValueError(f"the two-level Kirkman construction needs a prime q = 7 mod 12, not {q}")
    squares = sorted({x * x % q for x in range(1, q)})
    cube_root = next(e for e in range(2, q) if pow(e, 3, q) == 1)
    b, c = next(
        (b, c)
        for b in range(2, q)
        for c in range(2, q)
        if b not in squares
        and c not in squares
        and c != b
        and (c - 1) * pow(c - b, -1, q) % q not in squares
    )
    base: list[list[int]] = [[2 * q, 0, q]]
    base += [[s, s * b % q, q + s * c % q] for s in squares]
    seen: set[int] = set()
    for x in squares:
        if x not in seen:
            orbit = [x, x * cube_root % q, x * cube_root * cube_root % q]
            seen.update(orbit)
            base.append([q + y for y in orbit])
    entry = {"q": q, "levels": 2, "k": 3, "fixed_point": True, "base": base, "fixed_classes": []}
    return develop_leveled(entry, 2 * q + 1)


def symmetric_starter(group: Group) -> list[tuple[int, int]] | None:
    """Pairs (x, y) of elements of a group of odd order whose classes {x, -x}, {y, -y}
    take every class once, and whose classes {y - x, -(y - x)} and {y + x, -(y + x)} take
    every class once too; None when there are none (found by backtracking over a handful
    of classes)."""
    if group.order % 2 == 0:
        return None
    neg = [group.sub(0, x) for x in range(group.order)]
    canon = [min(x, neg[x]) for x in range(group.order)]

    def pair(free: list[int], used: frozenset[int]) -> list[tuple[int, int]] | None:
        if not free:
            return []
        a = free[0]
        for b in free[1:]:
            for y in (b, neg[b]):
                d1, d2 = canon[group.sub(y, a)], canon[group.add(y, a)]
                if 0 in (d1, d2) or d1 == d2 or d1 in used or d2 in used:
                    continue
                rest = pair([c for c in free if c not in (a, b)], used | {d1, d2})
                if rest is not None:
                    return [(a, y), *rest]
        return None

    return pair(sorted({canon[x] for x in range(1, group.order)}), frozenset())


@cache
def resolvable_four_three_levels(moduli: tuple[int, ...]) -> tuple[Round, ...] | None:
    """A resolvable (3m + 1, 4, 1) design on G x {0, 1, 2} plus a fixed point, G the group
    of odd order m with ``moduli`` (point x of level i numbered i*m + x, the fixed point
    3m), from a symmetric starter (see ``symmetric_starter``): the base round holds
    {fixed, 0, m, 2m} and, for each starter pair (x, y) and level i, the table
    {x, -x on level i; y, -y on level i + 1 (mod 3)}. Each level's non-zero points are
    the classes of the x and the y, once; its own differences +-2x and +-2y, once each;
    and the differences from a level to the next +-(y - x), +-(y + x), once each. Adding
    g in G to every point but the fixed one gives the m rounds. None when G has no
    starter."""
    group = Group(moduli)
    m = group.order
    starter = symmetric_starter(group)
    if starter is None:
        return None
    fixed = 3 * m
    first: list[tuple[int, ...]] = [(fixed, 0, m, 2 * m)]
    for x, y in starter:
        for i in range(3):
            j = (i + 1) % 3
            first.append((i * m + x, i * m + group.sub(0, x), j * m + y, j * m + group.sub(0, y)))
    rounds = tuple(
        tuple(
            sorted(
                tuple(sorted(p if p == fixed else (p // m) * m + group.add(p % m, g) for p in t))
                for t in first
            )
        )
        for g in range(m)
    )
    return _checked_resolution(rounds, 3 * m + 1)


def _single_table(players: int) -> tuple[Round, ...]:
    """One round at one table: the whole design when the field fills a single table."""
    return (((*range(players),),),)


@cache
def kirkman_resolution(players: int) -> tuple[tuple[Round, ...], str] | None:
    """A Kirkman triple system on ``players`` (every pair once at tables of three in
    (players - 1)/2 rounds), with the name of its construction; None when none is built.
    One table for 3, affine geometries for powers of 3, the PG(3, 2) packing for 15, kept
    base blocks (1-rotational or on levels), tripling a smaller one, and the cyclotomic
    construction on two levels for 2q + 1 with q a prime = 7 (mod 12)."""
    if players % 6 != 3:
        return None
    if players == 3:
        return _single_table(3), "one table of three"
    if has_affine_resolution(players, 3):
        dim = 2
        while 3**dim < players:
            dim += 1
        return affine_resolution(3, dim), f"affine geometry AG({dim}, 3)"
    if players == 15:
        return kirkman_15(), "Kirkman triple system (packing of PG(3, 2))"
    rotational = rotational_resolution(players, 3)
    if rotational is not None:
        return rotational, f"1-rotational Kirkman triple system KTS({players})"
    entry = _data("leveled.json").get(str(players))
    if entry is not None and entry["k"] == 3:
        return develop_leveled(entry, players), f"Kirkman triple system KTS({players}) on levels"
    smaller = kirkman_resolution(players // 3) if players % 9 == 0 else None
    if smaller is not None:
        return tripled(smaller[0], players // 3), f"tripled KTS({players // 3})"
    q = (players - 1) // 2
    if _is_prime(q) and q % 12 == 7:
        return kirkman_two_levels(q), f"cyclotomic KTS({players}) on two levels over Z_{q}"
    return None


@cache
def resolvable_four(players: int) -> tuple[tuple[Round, ...], str] | None:
    """A resolvable (v, 4, 1) design (every pair once at tables of four in (v - 1)/3
    rounds), with the name of its construction; None when none is built. One table for 4,
    affine geometries for powers of 4, kept base blocks (1-rotational or on levels), and a
    symmetric starter on three levels over a group of order (v - 1)/3."""
    if players % 12 != 4:
        return None
    if players == 4:
        return _single_table(4), "one table of four"
    if has_affine_resolution(players, 4):
        dim = 2
        while 4**dim < players:
            dim += 1
        return affine_resolution(4, dim), f"affine geometry AG({dim}, 4)"
    rotational = rotational_resolution(players, 4)
    if rotational is not None:
        return rotational, f"1-rotational resolvable ({players}, 4, 1) design"
    entry = _data("leveled.json").get(str(players))
    if entry is not None and entry["k"] == 4:
        return develop_leveled(entry, players), f"resolvable ({players}, 4, 1) design on levels"
    order = (players - 1) // 3
    for moduli in _groups_of_order(order):
        rounds = resolvable_four_three_levels(moduli)
        if rounds is not None:
            group = " x ".join(f"Z_{m}" for m in moduli)
            return rounds, f"resolvable ({players}, 4, 1) design: symmetric starter over {group}"
    return None


def _groups_of_order(order: int) -> list[tuple[int, ...]]:
    """The cyclic group of this order, then Z_p x Z_(order/p) for each prime p whose
    square divides it."""
    out: list[tuple[int, ...]] = [(order,)]
    out += [(p, order // p) for p in range(2, order) if _is_prime(p) and order % (p * p) == 0]
    return out


# -- published social-golfer schedules ------------------------------------------------------


@cache
def golf_schedule(players: int) -> tuple[tuple[Round, ...], str] | None:
    """A published social-golfer schedule for ``players`` at tables of four (no pair
    shares a table twice, though not every pair meets), kept as data with its source and
    checked on load; None when none is kept. Kept: 32 players for 10 rounds and 36 for
    11, the most possible (a player meets three new players a round: 3 * 11 > 31 and
    3 * 12 > 35), from A. Miller et al.'s social-golfer solutions."""
    entry = _data("golf.json").get(str(players))
    if entry is None:
        return None
    rounds = tuple(tuple(tuple(t) for t in r) for r in entry["rounds"])
    if any(len(t) != int(entry["table_size"]) for r in rounds for t in r):
        raise AssertionError("a kept social-golfer round has a table of the wrong size")
    return _checked_resolution(rounds, players), f"social-golfer schedule ({len(rounds)} rounds)"


# -- embedding rounds played into a design ----------------------------------------------------


def embedding(
    design: Sequence[Sequence[Sequence[int]]],
    rounds: Sequence[Sequence[Sequence[int]]],
    players: int,
    *,
    budget: int = 100_000,
) -> list[int] | None:
    """The first placing of :func:`embeddings`, or None."""
    return next(embeddings(design, rounds, players, budget=budget), None)


def embeddings(
    design: Sequence[Sequence[Sequence[int]]],
    rounds: Sequence[Sequence[Sequence[int]]],
    players: int,
    *,
    budget: int = 100_000,
) -> Iterator[list[int]]:
    """Each placing ``player[point]`` of players 0..players-1 on the points of ``design``
    under which every round of ``rounds`` is one of the design's classes, a different one
    each, until ``budget`` placements have been tried.

    Depth-first over the players, those sharing most tables with the players already
    placed first. A round's class is settled by the first two of its table-mates placed
    (two points share a block of one class at most), so the search branches over points,
    never over classes: in a design where every pair meets once, two rounds fix nearly
    everything and the rest only need checking."""
    if len(rounds) > len(design) or any(
        sorted(p for t in r for p in t) != list(range(players)) for r in rounds
    ):
        return
    block_of = [[0] * players for _ in design]
    pair_class = [[-1] * players for _ in range(players)]
    for c, cls in enumerate(design):
        for b, block in enumerate(cls):
            for x in block:
                block_of[c][x] = b
            for x, y in combinations(block, 2):
                pair_class[x][y] = pair_class[y][x] = c
    table_of = [[0] * players for _ in rounds]
    mates: list[list[list[int]]] = [[[] for _ in range(players)] for _ in rounds]
    for r, rd in enumerate(rounds):
        for t, table in enumerate(rd):
            for p in table:
                table_of[r][p] = t
                mates[r][p] = [q for q in table if q != p]
    order = _embedding_order(rounds, players, mates)
    point = [-1] * players
    player = [-1] * players
    chosen = [-1] * len(rounds)
    taken = [False] * len(design)
    image = [[-1] * len(r) for r in rounds]
    owner = [[-1] * len(design[0]) for _ in rounds] if design else []
    tries = 0

    def images(r: int, c: int) -> dict[int, int] | None:
        # The blocks of class c the tables of round r go to, as far as the players placed
        # so far show; None unless it is one to one (two players share a block of c exactly
        # when they share a table of r).
        to_block: dict[int, int] = {}
        to_table: dict[int, int] = {}
        for q in range(players):
            if point[q] < 0:
                continue
            t, b = table_of[r][q], block_of[c][point[q]]
            if to_block.setdefault(t, b) != b or to_table.setdefault(b, t) != t:
                return None
        return to_block

    def place(depth: int) -> Iterator[list[int]]:
        nonlocal tries
        if depth == players:
            yield player[:]
            return
        p = order[depth]
        candidates: set[int] | None = None
        for r in range(len(rounds)):
            c = chosen[r]
            if c >= 0 and image[r][table_of[r][p]] >= 0:
                block = set(design[c][image[r][table_of[r][p]]])
                candidates = block if candidates is None else candidates & block
        pool = sorted(candidates) if candidates is not None else range(players)
        for x in pool:
            if player[x] >= 0:
                continue
            tries += 1
            if tries > budget:
                return
            undo: list[tuple[int, int, int, int]] = []
            ok = True
            point[p], player[x] = x, p
            for r in range(len(rounds)):
                if chosen[r] < 0:
                    q = next((q for q in mates[r][p] if point[q] >= 0), -1)
                    if q < 0:
                        continue
                    c = pair_class[x][point[q]]
                    settled = images(r, c) if c >= 0 and not taken[c] else None
                    if settled is None:
                        ok = False
                        break
                    chosen[r], taken[c] = c, True
                    undo.append((r, c, -1, -1))
                    for t, b in settled.items():
                        image[r][t], owner[r][b] = b, t
                        undo.append((r, -1, t, b))
                    continue
                c = chosen[r]
                t, b = table_of[r][p], block_of[c][x]
                if image[r][t] == b:
                    continue
                if image[r][t] >= 0 or owner[r][b] >= 0:
                    ok = False
                    break
                image[r][t], owner[r][b] = b, t
                undo.append((r, -1, t, b))
            if ok:
                yield from place(depth + 1)
            for r, c, t, b in reversed(undo):
                if c >= 0:
                    chosen[r], taken[c] = -1, False
                else:
                    image[r][t], owner[r][b] = -1, -1
            point[p], player[x] = -1, -1
            if tries > budget:
                return

    yield from place(0)


def _embedding_order(
    rounds: Sequence[Sequence[Sequence[int]]], players: int, mates: list[list[list[int]]]
) -> list[int]:
    """Players in the order :func:`embedding` places them: each next the one sharing a
    table with the most players already placed (ties to the lowest number)."""
    order: list[int] = []
    links = [0] * players
    left = set(range(players))
    while left:
        p = min(left, key=lambda q: (-links[q], q))
        order.append(p)
        left.discard(p)
        for r in range(len(rounds)):
            for q in mates[r][p]:
                links[q] += 1
    return order
