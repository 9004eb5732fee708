"""Independent counters for the pairing tests: they read plain lists of seats and share
no code with ``pairing.algorithms``, so a bug there cannot hide itself here. Seats 0+2 and
1+3 of a four-player table are partners (docs/rules.md R2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

Round = Sequence[Sequence[int]]


def key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def meeting_counts(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    """How often each pair shared a table."""
    counts: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for seats in tables:
            for a, b in combinations(seats, 2):
                counts[key(a, b)] += 1
    return counts


def partner_counts(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    """How often each pair were partners (four-player tables only)."""
    counts: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for seats in tables:
            if len(seats) == 4:
                counts[key(seats[0], seats[2])] += 1
                counts[key(seats[1], seats[3])] += 1
    return counts


def opponent_counts(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    """How often each pair sat on opposing sides."""
    rounds = [list(r) for r in rounds]
    met = meeting_counts(rounds)
    partners = partner_counts(rounds)
    return Counter({p: met[p] - partners[p] for p in met if met[p] - partners[p] > 0})


def all_pairs(ids: Iterable[int]) -> list[tuple[int, int]]:
    return [key(a, b) for a, b in combinations(sorted(ids), 2)]


def is_partition(tables: Round, byes: Sequence[int], ids: Iterable[int]) -> bool:
    """Every entrant exactly once: at one table or among the byes."""
    seen = [e for t in tables for e in t] + list(byes)
    return len(seen) == len(set(seen)) and set(seen) == set(ids)


def whist_tables(published: Sequence[Sequence[Sequence[Sequence[int]]]]) -> list[list[list[int]]]:
    """Published whist rounds [[a, b], [c, d]] (a+b partners v c+d) as seats a, c, b, d."""
    return [[[t[0][0], t[1][0], t[0][1], t[1][1]] for t in r] for r in published]
