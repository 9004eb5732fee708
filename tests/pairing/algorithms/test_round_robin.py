"""Round robins: two-sided completeness and rotating byes; at three- and four-player
tables the exact designs are reached and the closeness report matches an independent count."""

from __future__ import annotations

import pytest

from pairing.algorithms.round_robin import group_round_robin_schedule, round_robin_schedule
from pairing.algorithms.types import PairingError, Schedule
from tests.pairing.algorithms.counters import all_pairs, is_partition, meeting_counts


def rounds_of(schedule: Schedule) -> list[list[tuple[int, ...]]]:
    return [[t.seats for t in d.tables] for d in schedule.rounds]


@pytest.mark.parametrize("n", range(2, 14))
def test_every_pair_meets_exactly_once_with_rotating_byes(n: int) -> None:
    ids = [10 * i + 3 for i in range(n)]
    schedule = round_robin_schedule(ids, seed=n)
    assert len(schedule.rounds) == (n if n % 2 else n - 1)
    for draw in schedule.rounds:
        assert is_partition([t.seats for t in draw.tables], draw.byes, ids)
        assert all(len(t.seats) == 2 for t in draw.tables)
        assert len(draw.byes) == n % 2
    counts = meeting_counts(rounds_of(schedule))
    assert {counts[p] for p in all_pairs(ids)} == {1}
    byes = [b for d in schedule.rounds for b in d.byes]
    assert sorted(byes) == (sorted(ids) if n % 2 else [])
    assert schedule.report.is_exact


def test_double_round_robin_swaps_seats() -> None:
    ids = list(range(6))
    schedule = round_robin_schedule(ids, seed=1, legs=2)
    first, second = schedule.rounds[:5], schedule.rounds[5:]
    assert [[t.seats[::-1] for t in d.tables] for d in first] == [
        [t.seats for t in d.tables] for d in second
    ]
    counts = meeting_counts(rounds_of(schedule))
    assert {counts[p] for p in all_pairs(ids)} == {2}


@pytest.mark.parametrize("n", [6, 7, 8, 9, 12])
def test_each_entrant_takes_seat_zero_about_half_the_time(n: int) -> None:
    schedule = round_robin_schedule(list(range(n)), seed=0)
    for e in range(n):
        seats = [t.seats.index(e) for d in schedule.rounds for t in d.tables if e in t.seats]
        assert abs(seats.count(0) - seats.count(1)) <= 1


@pytest.mark.parametrize(("n", "size", "rounds"), [(9, 3, 4), (15, 3, 7), (27, 3, 13), (16, 4, 5)])
def test_exact_designs_are_reached(n: int, size: int, rounds: int) -> None:
    ids = [5 * i + 1 for i in range(n)]
    schedule = group_round_robin_schedule(ids, seed=2, table_size=size)
    assert len(schedule.rounds) == rounds
    for draw in schedule.rounds:
        assert is_partition([t.seats for t in draw.tables], draw.byes, ids)
        assert all(len(t.seats) == size for t in draw.tables)
    counts = meeting_counts(rounds_of(schedule))
    assert {counts[p] for p in all_pairs(ids)} == {1}
    assert schedule.report.is_exact and schedule.report.is_best_possible


def test_sixty_four_players_seven_rounds_of_ag34_never_repeat() -> None:
    schedule = group_round_robin_schedule(list(range(64)), seed=0, table_size=4, rounds=7)
    assert max(meeting_counts(rounds_of(schedule)).values()) == 1
    assert schedule.construction.startswith("affine geometry AG(3, 4)")


@pytest.mark.parametrize(
    ("n", "size", "sizes"), [(10, 4, [4, 3, 3]), (12, 4, [4, 4, 4]), (14, 3, [3, 3, 3, 3, 2])]
)
def test_other_counts_report_how_close_they_came(n: int, size: int, sizes: list[int]) -> None:
    ids = list(range(n))
    schedule = group_round_robin_schedule(ids, seed=1, table_size=size, max_steps=800)
    for draw in schedule.rounds:
        assert sorted((len(t.seats) for t in draw.tables), reverse=True) == sizes
        assert is_partition([t.seats for t in draw.tables], draw.byes, ids)
    counts = meeting_counts(rounds_of(schedule))
    values = [counts[p] for p in all_pairs(ids)]
    report = schedule.report
    assert report.pairs_unmet == values.count(0)
    assert report.pairs_met_once == values.count(1)
    assert report.max_meetings == max(values)
    assert report.deviation == sum((v - 1) ** 2 for v in values)
    meetings = sum(values)
    q, rem = divmod(meetings, len(values))
    assert report.deviation_bound == (len(values) - rem) * (q - 1) ** 2 + rem * q * q
    assert report.deviation >= report.deviation_bound


def test_thirteen_at_fixed_tables_of_four_with_byes_rotating() -> None:
    schedule = group_round_robin_schedule(
        list(range(13)),
        seed=0,
        table_size=4,
        smallest=4,
        byes_allowed=True,
        rounds=13,
        max_steps=500,
    )
    byes = [b for d in schedule.rounds for b in d.byes]
    assert sorted(byes) == list(range(13))
    assert all(len(t.seats) == 4 for d in schedule.rounds for t in d.tables)


def test_same_seed_same_schedule() -> None:
    one = group_round_robin_schedule(list(range(10)), seed=9, table_size=4, max_steps=300)
    two = group_round_robin_schedule(list(reversed(range(10))), seed=9, table_size=4, max_steps=300)
    assert one == two


def test_group_round_robin_refuses_two_seat_tables() -> None:
    with pytest.raises(PairingError):
        group_round_robin_schedule(list(range(6)), seed=0, table_size=2)
