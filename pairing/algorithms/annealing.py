"""Simulated annealing on one round's tables, and on the labelling of a known schedule.

Vocabulary: players are local indices 0..n-1; a *pair matrix* ``cost[i][j]`` is what
seating i and j at one table costs (symmetric, zero diagonal); a table costs the sum over
its pairs. A *conflict* matrix marks pairs who must not share a table (pairs who met).

:func:`anneal_round` swaps players between tables. Moves that would add a conflicted pair
are refused, so the conflicts never rise above the start; the rest is annealing on the
pair cost, cooling geometrically from a temperature measured on the start, with the best
seating seen kept and a closing first-improvement descent.

:func:`label_schedule` places players on the points of a known schedule (every round a
partition of the points, no two points together twice) so that the rounds it picks clash
as little as possible with the history: swapping two players' points keeps the schedule's
own rounds free of repeats, so only clashes with the history count. The ``wanted`` rounds
with the fewest clashes are taken.

Everything is driven by a seeded ``random.Random`` and step counts, never the clock.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence

Matrix = Sequence[Sequence[int]]


def two_of(rng: random.Random, n: int) -> tuple[int, int]:
    """Two different numbers below ``n``, drawn as ``two_of(rng, n)`` draws them
    (the same numbers from the same state) without its general-purpose overhead, which
    the searches' inner loops otherwise spend most of a step on."""
    a = rng.randrange(n)
    if n <= 21:
        # sample() draws the second from the n - 1 left, the last moved into a's place.
        j = rng.randrange(n - 1)
        return a, n - 1 if j == a else j
    b = rng.randrange(n)
    while b == a:
        b = rng.randrange(n)
    return a, b


def table_cost(table: Sequence[int], cost: Matrix) -> int:
    """The sum of ``cost`` over the pairs at one table (tables of three and four, the
    searches' inner loop, written out)."""
    if len(table) == 4:
        a, b, c, d = table
        ra, rb, rc = cost[a], cost[b], cost[c]
        return ra[b] + ra[c] + ra[d] + rb[c] + rb[d] + rc[d]
    if len(table) == 3:
        a, b, c = table
        ra = cost[a]
        return ra[b] + ra[c] + cost[b][c]
    return sum(cost[a][b] for i, a in enumerate(table) for b in table[i + 1 :])


def seating_cost(tables: Sequence[Sequence[int]], cost: Matrix) -> int:
    """A round's pair cost: the sum of its tables'."""
    return sum(table_cost(t, cost) for t in tables)


def swap_delta(
    m: Matrix, tables: Sequence[Sequence[int]], where: Sequence[int], a: int, b: int
) -> int:
    """How much swapping players ``a`` and ``b`` (at tables ``where[a]`` and ``where[b]``)
    changes the sum of ``m`` over the pairs at each table."""
    ma, mb = m[a], m[b]
    d = 0
    for x in tables[where[a]]:
        if x != a:
            d += mb[x] - ma[x]
    for y in tables[where[b]]:
        if y != b:
            d += ma[y] - mb[y]
    return d


def anneal_round(
    tables: list[list[int]],
    cost: Matrix,
    conflict: Matrix,
    *,
    rng: random.Random,
    steps: int,
) -> list[list[int]]:
    """A seating with the same table sizes, no more conflicted pairs than ``tables`` and a
    pair cost at most theirs."""
    tables = [list(t) for t in tables]
    if len(tables) < 2 or steps <= 0:
        return tables
    where: list[int] = [0] * sum(len(t) for t in tables)
    for k, t in enumerate(tables):
        for p in t:
            where[p] = k

    def delta(m: Matrix, a: int, b: int) -> int:
        return swap_delta(m, tables, where, a, b)

    def swap(a: int, b: int) -> None:
        ka, kb = where[a], where[b]
        ta, tb = tables[ka], tables[kb]
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        where[a], where[b] = kb, ka

    n = len(where)
    count = len(tables)

    def random_pair() -> tuple[int, int]:
        ka, kb = two_of(rng, count)
        return rng.choice(tables[ka]), rng.choice(tables[kb])

    sample = [abs(delta(cost, *random_pair())) for _ in range(min(200, 4 * n))]
    positive = sorted(d for d in sample if d)
    if not positive:
        return descend_round(tables, cost, conflict, rng)
    hot = float(positive[len(positive) // 2])
    cold = float(positive[0]) / 20
    ratio = (cold / hot) ** (1 / steps)
    temperature = hot
    current = seating_cost(tables, cost)
    best, best_tables = current, [t[:] for t in tables]
    for _ in range(steps):
        a, b = random_pair()
        temperature *= ratio
        if delta(conflict, a, b) > 0:
            continue
        d = delta(cost, a, b)
        if d <= 0 or rng.random() < math.exp(-d / temperature):
            swap(a, b)
            current += d
            if current < best:
                best, best_tables = current, [t[:] for t in tables]
    return descend_round(best_tables, cost, conflict, rng)


def descend_round(
    tables: list[list[int]], cost: Matrix, conflict: Matrix, rng: random.Random
) -> list[list[int]]:
    """First-improvement descent over every swap that adds no conflict."""
    players = [p for t in tables for p in t]
    where = {p: k for k, t in enumerate(tables) for p in t}
    improved = True
    while improved:
        improved = False
        rng.shuffle(players)
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                ka, kb = where[a], where[b]
                if ka == kb:
                    continue
                ta, tb = tables[ka], tables[kb]
                dc = sum(conflict[b][x] - conflict[a][x] for x in ta if x != a) + sum(
                    conflict[a][y] - conflict[b][y] for y in tb if y != b
                )
                if dc > 0:
                    continue
                d = sum(cost[b][x] - cost[a][x] for x in ta if x != a) + sum(
                    cost[a][y] - cost[b][y] for y in tb if y != b
                )
                if d < 0 or (d == 0 and dc < 0):
                    ta[ta.index(a)] = b
                    tb[tb.index(b)] = a
                    where[a], where[b] = kb, ka
                    improved = True
    return tables


def label_schedule(
    rounds: Sequence[Sequence[Sequence[int]]],
    clash: Matrix,
    *,
    wanted: int,
    rng: random.Random,
    steps: int,
) -> tuple[list[list[list[int]]], int]:
    """The ``wanted`` rounds of ``rounds`` (tables of points 0..n-1) with players placed on
    the points to clash least with ``clash`` (pair counts, e.g. meetings so far), as tables
    of players; and their clash total (0: those rounds repeat no meeting)."""
    player, _ = label_points(rounds, clash, wanted=wanted, rng=rng, steps=steps)
    costs = class_clashes(rounds, player, clash)
    chosen = sorted(range(len(rounds)), key=lambda c: (costs[c], c))[:wanted]
    plan = [[[player[q] for q in t] for t in rounds[c]] for c in chosen]
    return plan, sum(costs[c] for c in chosen)


def class_clashes(
    rounds: Sequence[Sequence[Sequence[int]]], player: Sequence[int], clash: Matrix
) -> list[int]:
    """Each round's clash total with the players placed ``player[point]``."""
    return [sum(table_cost([player[q] for q in t], clash) for t in r) for r in rounds]


class _Placing:
    """Players placed on the points of a schedule's rounds, ``player[point]``, with what
    swapping two players' points changes in each round."""

    def __init__(self, rounds: Sequence[Sequence[Sequence[int]]], player: Sequence[int]):
        n = len(player)
        self.members = [[list(t) for t in r] for r in rounds]
        self.block = [[0] * n for _ in rounds]  # block[c][point] = its table in round c
        for c, r in enumerate(rounds):
            for k, t in enumerate(r):
                for q in t:
                    self.block[c][q] = k
        self.player = list(player)
        self.point = [0] * n
        for q, p in enumerate(self.player):
            self.point[p] = q

    def deltas(self, m: Matrix, a: int, b: int) -> list[int]:
        """Per round, how much swapping players ``a`` and ``b`` changes its sum of ``m``."""
        player, qa, qb = self.player, self.point[a], self.point[b]
        ma, mb = m[a], m[b]
        out = []
        for c, tables in enumerate(self.members):
            ka, kb = self.block[c][qa], self.block[c][qb]
            if ka == kb:
                out.append(0)
                continue
            d = 0
            for q in tables[ka]:
                if q != qa:
                    x = player[q]
                    d += mb[x] - ma[x]
            for q in tables[kb]:
                if q != qb:
                    y = player[q]
                    d += ma[y] - mb[y]
            out.append(d)
        return out

    def swap(self, a: int, b: int) -> None:
        qa, qb = self.point[a], self.point[b]
        self.player[qa], self.player[qb] = b, a
        self.point[a], self.point[b] = qb, qa


def label_points(
    rounds: Sequence[Sequence[Sequence[int]]],
    clash: Matrix,
    *,
    wanted: int,
    rng: random.Random,
    steps: int,
    start: Sequence[int] | None = None,
) -> tuple[list[int], int]:
    """The placing ``player[point]`` of players on the points of ``rounds`` whose ``wanted``
    least clashing rounds clash least with ``clash``, and that clash total. The search
    starts from ``start`` (a random placing when None) and stops as soon as the total is
    0, so a start that already clashes nowhere comes back unchanged at once."""
    n = len(clash)
    if start is None:
        order = list(range(n))
        rng.shuffle(order)
        start = order
    placing = _Placing(rounds, start)
    player = placing.player
    costs = class_clashes(rounds, player, clash)

    def objective(values: Sequence[int]) -> int:
        return sum(sorted(values)[:wanted])

    current = objective(costs)
    best, best_player = current, player[:]
    temperature = 2.0
    ratio = (0.05 / temperature) ** (1 / max(steps, 1))
    for _ in range(steps):
        if best == 0:
            break
        a, b = two_of(rng, n)
        ds = placing.deltas(clash, a, b)
        moved = [c + d for c, d in zip(costs, ds, strict=True)]
        value = objective(moved)
        temperature *= ratio
        d = value - current
        if d <= 0 or rng.random() < math.exp(-d / temperature):
            placing.swap(a, b)
            costs, current = moved, value
            if current < best:
                best, best_player = current, player[:]
    return best_player, best


def anneal_breaking_few(
    tables: list[list[int]],
    cost: Matrix,
    conflict: Matrix,
    group: Matrix,
    allowance: int,
    *,
    rng: random.Random,
    steps: int,
) -> list[list[int]]:
    """As :func:`anneal_round`, with one more rule: ``group[i][j]`` names the group a pair
    belongs to (-1 for none), and the seating may touch (seat a pair of) at most
    ``allowance`` groups; ``tables`` must already keep to it. Used to keep rounds of a
    schedule clear: a group is a round whose pairs must not meet, and the search chooses
    which rounds to give up."""
    tables = [list(t) for t in tables]
    where = [0] * sum(len(t) for t in tables)
    for k, t in enumerate(tables):
        for p in t:
            where[p] = k
    used: dict[int, int] = {}
    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1 :]:
                g = group[a][b]
                if g >= 0:
                    used[g] = used.get(g, 0) + 1
    if len(used) > allowance:
        raise ValueError("the starting seating touches too many groups")
    count = len(tables)

    def changes(a: int, b: int) -> dict[int, int]:
        out: dict[int, int] = {}
        ga, gb = group[a], group[b]
        for x in tables[where[a]]:
            if x != a:
                for g, d in ((ga[x], -1), (gb[x], 1)):
                    if g >= 0:
                        out[g] = out.get(g, 0) + d
        for y in tables[where[b]]:
            if y != b:
                for g, d in ((gb[y], -1), (ga[y], 1)):
                    if g >= 0:
                        out[g] = out.get(g, 0) + d
        return out

    def touched_after(change: dict[int, int]) -> int:
        touched = len(used)
        for g, d in change.items():
            before = used.get(g, 0)
            after = before + d
            touched += (after > 0) - (before > 0)
        return touched

    def allowed(change: dict[int, int]) -> bool:
        return touched_after(change) <= allowance

    def delta(m: Matrix, a: int, b: int) -> int:
        return swap_delta(m, tables, where, a, b)

    def swap(a: int, b: int, change: dict[int, int]) -> None:
        ka, kb = where[a], where[b]
        ta, tb = tables[ka], tables[kb]
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        where[a], where[b] = kb, ka
        for g, d in change.items():
            left = used.get(g, 0) + d
            if left:
                used[g] = left
            else:
                used.pop(g, None)

    if count < 2:
        return tables
    temperature, ratio = 0.0, 1.0
    current = seating_cost(tables, cost)
    best, best_tables = current, [t[:] for t in tables]
    sample = []
    for _ in range(min(200, 4 * len(where))):
        ka, kb = two_of(rng, count)
        d = abs(delta(cost, rng.choice(tables[ka]), rng.choice(tables[kb])))
        if d:
            sample.append(d)
    if sample:
        sample.sort()
        temperature = float(sample[len(sample) // 2])
        ratio = (sample[0] / 20 / temperature) ** (1 / max(steps, 1))
    # Touching a group past the allowance is penalised, the penalty growing from the
    # typical move to more than any seating's cost, so the search can trade one group for
    # another through seatings that briefly touch both; only seatings within the allowance
    # are kept.
    typical = temperature or 1.0
    heaviest = float(current + 1)
    growth = (heaviest / typical) ** (1 / max(steps, 1))
    penalty = typical
    excess = 0
    for _ in range(steps if sample else 0):
        temperature *= ratio
        penalty *= growth
        ka, kb = two_of(rng, count)
        a, b = rng.choice(tables[ka]), rng.choice(tables[kb])
        if delta(conflict, a, b) > 0:
            continue
        change = changes(a, b)
        over = max(0, touched_after(change) - allowance)
        d = delta(cost, a, b)
        total = d + penalty * (over - excess)
        if total > 0 and rng.random() >= math.exp(-total / temperature):
            continue
        swap(a, b, change)
        current += d
        excess = over
        if not excess and current < best:
            best, best_tables = current, [t[:] for t in tables]
    # Descend from the best seating seen, under the same rules.
    tables = best_tables
    for k, t in enumerate(tables):
        for p in t:
            where[p] = k
    used.clear()
    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1 :]:
                g = group[a][b]
                if g >= 0:
                    used[g] = used.get(g, 0) + 1
    players = [p for t in tables for p in t]
    improved = True
    while improved:
        improved = False
        rng.shuffle(players)
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                if where[a] == where[b] or delta(conflict, a, b) > 0:
                    continue
                if delta(cost, a, b) < 0:
                    change = changes(a, b)
                    if allowed(change):
                        swap(a, b, change)
                        improved = True
    return tables


def place_for_round(
    rounds: Sequence[Sequence[Sequence[int]]],
    clash: Matrix,
    cost: Matrix,
    *,
    wanted: int,
    start: Sequence[int],
    rng: random.Random,
    steps: int,
) -> tuple[list[int], int]:
    """A placing ``player[point]`` of players on the points of ``rounds`` that keeps
    ``wanted`` rounds clear of ``clash`` (as ``start`` must) and makes one of them as cheap
    as it can under ``cost``; and the index of that round.

    Swapping two players' points is annealed on the cheapest clear round's cost; a swap
    that would leave fewer than ``wanted`` rounds clear is refused."""
    n = len(clash)
    classes = len(rounds)
    placing = _Placing(rounds, start)
    player = placing.player
    clashes = class_clashes(rounds, player, clash)
    costs = class_clashes(rounds, player, cost)
    if sum(1 for v in clashes if v == 0) < wanted:
        raise ValueError("the start must keep the wanted rounds clear")

    def cheapest(cl: Sequence[int], co: Sequence[int]) -> int:
        return min(co[c] for c in range(classes) if cl[c] == 0)

    current = cheapest(clashes, costs)
    best, best_player = current, player[:]
    sample = [
        abs(d) for _ in range(min(100, 2 * n)) for d in placing.deltas(cost, *two_of(rng, n)) if d
    ]
    hot = float(statistics.median_low(sample)) if sample else 1.0
    temperature = hot
    ratio = (0.01 / 20) ** (1 / max(steps, 1)) if sample else 1.0
    for _ in range(steps):
        if best == 0:
            break
        temperature *= ratio
        a, b = two_of(rng, n)
        dc = placing.deltas(clash, a, b)
        moved = [c + d for c, d in zip(clashes, dc, strict=True)]
        if sum(1 for v in moved if v == 0) < wanted:
            continue
        dm = placing.deltas(cost, a, b)
        priced = [c + d for c, d in zip(costs, dm, strict=True)]
        value = cheapest(moved, priced)
        d = value - current
        if d <= 0 or rng.random() < math.exp(-d / max(temperature, 1e-9)):
            placing.swap(a, b)
            clashes, costs, current = moved, priced, value
            if current < best:
                best, best_player = current, player[:]
    final_clashes = class_clashes(rounds, best_player, clash)
    final_costs = class_clashes(rounds, best_player, cost)
    chosen = min(
        (c for c in range(classes) if final_clashes[c] == 0), key=lambda c: (final_costs[c], c)
    )
    return best_player, chosen
