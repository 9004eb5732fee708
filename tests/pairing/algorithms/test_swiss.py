"""Two-sided Swiss: checked against brute force on small fields, against the all-pairs
blossom on larger ones, and for byes, determinism and the classic draw shape."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import pytest

from pairing.algorithms.swiss import swiss_pair
from pairing.algorithms.types import Draw, Entrant, History, PairingError
from tests.pairing.algorithms.counters import is_partition, key

Tiers = tuple[int, int, int, Fraction]


def matchings(nodes: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of an even list of nodes."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def tiers(
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
    entrants: Sequence[Entrant],
    met: dict[tuple[int, int], int],
) -> Tiers:
    """(rematches as sum of counts squared, bye to a previous bye-holder, bye's place
    from the bottom, score cost) — the Swiss's priorities, computed independently."""
    score = {e.id: Fraction(e.score) for e in entrants}
    order = sorted(entrants, key=lambda e: (-score[e.id], e.rank))
    from_bottom = {e.id: len(order) - 1 - i for i, e in enumerate(order)}
    had_bye = {e.id: e.had_bye for e in entrants}
    return (
        sum(met.get(key(a, b), 0) ** 2 for a, b in pairs),
        int(bye is not None and had_bye[bye]),
        from_bottom[bye] if bye is not None else 0,
        sum(((score[a] - score[b]) ** 2 for a, b in pairs), Fraction(0)),
    )


def brute_force(entrants: Sequence[Entrant], met: dict[tuple[int, int], int]) -> Tiers:
    ids = [e.id for e in entrants]
    candidates = ids if len(ids) % 2 else [None]
    best: Tiers | None = None
    for bye in candidates:
        rest = [i for i in ids if i != bye]
        for m in matchings(rest):
            t = tiers(m, bye, entrants, met)
            best = t if best is None or t < best else best
    assert best is not None
    return best


def draw_tiers(draw: Draw, entrants: Sequence[Entrant], met: dict[tuple[int, int], int]) -> Tiers:
    pairs = [(t.seats[0], t.seats[1]) for t in draw.tables]
    return tiers(pairs, draw.byes[0] if draw.byes else None, entrants, met)


def random_field(rng: random.Random, n: int) -> tuple[list[Entrant], dict[tuple[int, int], int]]:
    """Distinct ranks (so the standing order needs no seed), random points and history."""
    ranks = rng.sample(range(1, n + 1), n)
    entrants = [
        Entrant(i, Fraction(rng.randint(0, 8), 2), rank=ranks[i], had_bye=rng.random() < 0.3)
        for i in range(n)
    ]
    met: dict[tuple[int, int], int] = {}
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < rng.choice((0.2, 0.5, 0.8)):
                met[(a, b)] = rng.choice((1, 1, 1, 2))
    return entrants, met


def history_of(met: dict[tuple[int, int], int]) -> History:
    return History({frozenset(p): c for p, c in met.items()})


@pytest.mark.parametrize("seed", range(150))
def test_swiss_matches_brute_force_on_small_fields(seed: int) -> None:
    rng = random.Random(seed)
    entrants, met = random_field(rng, rng.randint(2, 9))
    # Tiny windows and segments force the merging and widening paths.
    window, segment = 1 + seed % 3, 2 + 2 * (seed % 4)
    draw = swiss_pair(
        entrants, history_of(met), seed=seed, exact_limit=0, window=window, segment=segment
    )
    assert is_partition([t.seats for t in draw.tables], draw.byes, [e.id for e in entrants])
    assert len(draw.byes) == len(entrants) % 2
    assert draw_tiers(draw, entrants, met) == brute_force(entrants, met)


def simulate(
    n: int, rounds: int, seed: int, **options: Any
) -> Iterator[tuple[list[Entrant], History, Draw]]:
    """Swiss rounds with random results (win 1 point, bye 1 point)."""
    rng = random.Random(seed)
    score = dict.fromkeys(range(n), 0)
    byes: set[int] = set()
    history = History()
    ranks = rng.sample(range(1, n + 1), n)
    for r in range(rounds):
        entrants = [Entrant(i, score[i], rank=ranks[i], had_bye=i in byes) for i in range(n)]
        draw = swiss_pair(entrants, history, seed=r, **options)
        yield entrants, history, draw
        for t in draw.tables:
            score[rng.choice(t.seats)] += 1
        for b in draw.byes:
            score[b] += 1
            byes.add(b)
        history = history.with_tables(draw.tables)


@pytest.mark.parametrize(
    ("n", "rounds", "seed"), [(16, 12, 1), (23, 14, 2), (40, 9, 3), (61, 8, 4)]
)
def test_restricted_graph_loses_nothing_against_the_all_pairs_blossom(
    n: int, rounds: int, seed: int
) -> None:
    for entrants, history, draw in simulate(n, rounds, seed, exact_limit=0, window=3, segment=8):
        full = swiss_pair(entrants, history, seed=0, strategy="full")
        met = {key(min(p), max(p)): c for p, c in history.met.items()}
        assert draw_tiers(draw, entrants, met) == draw_tiers(full, entrants, met)


def test_swiss_never_rematches_and_gives_each_bye_once_over_a_long_odd_event() -> None:
    seen: set[tuple[int, int]] = set()
    bye_holders: list[int] = []
    for _, _, draw in simulate(15, 12, 7):
        assert draw.report.rematches == 0
        for t in draw.tables:
            pair = key(*t.seats)
            assert pair not in seen
            seen.add(pair)
        bye_holders += draw.byes
    assert len(bye_holders) == len(set(bye_holders)) == 12


def test_bye_goes_to_the_lowest_ranked_entrant_without_one() -> None:
    entrants = [Entrant(i, 3 - i // 2, rank=i + 1, had_bye=i == 4) for i in range(5)]
    draw = swiss_pair(entrants, History(), seed=0)
    assert draw.byes == (3,)  # 4 is lowest but already had a bye


def test_bye_moves_up_when_the_lowest_cannot_otherwise_avoid_a_rematch() -> None:
    # 0, 1 and 2 met each other; 3 and 4 met. A bye for 4 or 3 leaves two of the
    # triangle to meet again; a bye for one of the triangle (2, the lowest) avoids it.
    met = {(0, 1): 1, (0, 2): 1, (1, 2): 1, (3, 4): 1}
    entrants = [Entrant(i, 0, rank=i + 1) for i in range(5)]
    draw = swiss_pair(entrants, history_of(met), seed=0)
    assert draw.byes == (2,)
    assert draw.report.rematches == 0


def test_round_one_pairs_top_half_against_bottom_half() -> None:
    entrants = [Entrant(i, 0, rank=i + 1) for i in range(8)]
    draw = swiss_pair(entrants, History(), seed=0)
    assert sorted(t.seats for t in draw.tables) == [(0, 4), (1, 5), (2, 6), (3, 7)]


def test_odd_score_group_floats_its_lowest_to_the_top_of_the_next() -> None:
    points = [2, 2, 2, 1, 1, 1, 1, 0]
    entrants = [Entrant(i, p, rank=i + 1) for i, p in enumerate(points)]
    draw = swiss_pair(entrants, History(), seed=0)
    assert (2, 3) in {t.seats for t in draw.tables}
    assert draw.report.largest_score_gap == 1
    assert draw.report.is_certified_optimal


def test_a_rematch_is_avoided_by_a_long_float_when_needed() -> None:
    # Leaders 0 and 1 met; the only way to avoid a rematch is to float both down.
    entrants = [Entrant(i, p, rank=i + 1) for i, p in enumerate([5, 5, 0, 0])]
    draw = swiss_pair(entrants, History.from_rounds([[(0, 1)]]), seed=0)
    assert draw.report.rematches == 0
    assert draw.report.largest_score_gap == 5


def test_rematch_when_unavoidable_is_reported() -> None:
    draw = swiss_pair([Entrant(0), Entrant(1)], History.from_rounds([[(0, 1)]]), seed=0)
    assert draw.report.rematches == 1
    assert draw.tables[0].cost.rematches == 1


def test_same_seed_same_draw_and_seed_breaks_ties() -> None:
    entrants = [Entrant(i, 0) for i in range(20)]
    first = swiss_pair(entrants, History(), seed=11)
    assert swiss_pair(list(reversed(entrants)), History(), seed=11) == first
    others = {swiss_pair(entrants, History(), seed=s).tables for s in range(5)}
    assert len(others) > 1


def test_late_entrant_joins_the_next_round() -> None:
    entrants = [Entrant(i, 0, rank=i + 1) for i in range(6)]
    first = swiss_pair(entrants, History(), seed=1)
    history = History().with_tables(first.tables)
    later = [
        Entrant(e.id, 1 if e.id in {t.seats[0] for t in first.tables} else 0, e.rank)
        for e in entrants
    ] + [Entrant(99, 0, rank=7)]
    second = swiss_pair(later, history, seed=2)
    assert 99 in second.seated + second.byes
    assert second.report.rematches == 0


def test_large_field_is_certified_optimal() -> None:
    for _, _, draw in simulate(400, 4, 9):
        assert draw.report.is_certified_optimal
        assert draw.report.rematches == 0


def test_too_few_entrants_is_a_user_error() -> None:
    with pytest.raises(PairingError) as error:
        swiss_pair([Entrant(1)], History(), seed=0)
    assert error.value.code == "too_few"
