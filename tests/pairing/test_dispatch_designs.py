"""Round robins at tables of three and four, drawn round after round through the
dispatcher, follow the exact designs where one exists: no pair meets twice, and in a
full design every pair meets once."""

from __future__ import annotations

from itertools import combinations

import pytest

from pairing.algorithms.dispatch import DrawField, EarlierRound, draw_compute
from pairing.algorithms.types import Draw, Entrant, History
from tests.pairing.algorithms.counters import is_partition, meeting_counts


def _round_robin(count: int, table_size: str, rounds: int) -> list[Draw]:
    """Every round of a round robin of ``count`` players, each drawn from a field that
    holds the rounds before it, byes refused."""
    ids = list(range(1, count + 1))
    draws: list[Draw] = []
    history = History()
    for number in range(1, rounds + 1):
        field = DrawField(
            format="round_robin",
            table_size=table_size,
            allow_byes=False,
            tournament_seed=7,
            rounds_count=rounds,
            round_number=number,
            entrants=tuple(Entrant(id=i, score=0, rank=i) for i in ids),
            history=history,
            earlier_rounds=tuple(
                EarlierRound(n, tuple(t.seats for t in d.tables), frozenset(d.byes))
                for n, d in enumerate(draws, start=1)
            ),
        )
        draw = draw_compute(field, seed=number)
        draws.append(draw)
        history = history.with_tables(draw.tables)
    return draws


@pytest.mark.parametrize(
    ("count", "table_size", "rounds"),
    [
        (21, "3", 10),  # KTS(21)
        (33, "3", 16),  # KTS(33)
        (39, "3", 19),  # KTS(39)
        (28, "4", 9),  # resolvable (28, 4, 1)
        (40, "4", 13),  # resolvable (40, 4, 1)
    ],
)
def test_a_round_robin_where_a_design_exists_meets_every_pair_exactly_once(
    count: int, table_size: str, rounds: int
) -> None:
    draws = _round_robin(count, table_size, rounds)
    size = int(table_size)
    assert all(
        is_partition([t.seats for t in d.tables], d.byes, range(1, count + 1)) for d in draws
    )
    assert all(not d.byes and {len(t.seats) for t in d.tables} == {size} for d in draws)
    counts = meeting_counts([t.seats for t in d.tables] for d in draws)
    assert set(counts) == {(a, b) for a, b in combinations(range(1, count + 1), 2)}
    assert set(counts.values()) == {1}


@pytest.mark.parametrize(("count", "rounds"), [(32, 9), (32, 10), (36, 11)])
def test_a_round_robin_at_tables_of_four_follows_the_golf_schedule_without_a_repeat(
    count: int, rounds: int
) -> None:
    draws = _round_robin(count, "4", rounds)
    assert all(
        is_partition([t.seats for t in d.tables], d.byes, range(1, count + 1)) for d in draws
    )
    assert all(not d.byes and {len(t.seats) for t in d.tables} == {4} for d in draws)
    counts = meeting_counts([t.seats for t in d.tables] for d in draws)
    assert max(counts.values()) == 1
    assert len(counts) == 6 * (count // 4) * rounds
