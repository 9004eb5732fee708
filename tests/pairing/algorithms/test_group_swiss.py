"""Swiss at three- and four-player tables: seven rounds without a repeated meeting at 32
and 64 players, whole designs where they exist, never worse than the fold it starts from,
mixed table sizes, byes only when allowed, standing closeness, seeds."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from itertools import combinations, islice
from typing import Any

import pytest

from pairing.algorithms.annealing import seating_cost
from pairing.algorithms.group_swiss import (
    _alternatives,
    allowed_repeats,
    gap_matrix,
    group_swiss_seat,
    plan_after,
    repeat_free_rounds,
)
from pairing.algorithms.swiss import standing_order
from pairing.algorithms.types import Draw, Entrant, History, PairingError
from tests.pairing.algorithms.counters import is_partition, meeting_counts

#: The largest events: left out of coverage measurement (tests/conftest.py).
SLOW = pytest.mark.slow


def simulate(
    n: int, rounds: int, seed: int, *, chained: bool = False, **options: Any
) -> Iterator[tuple[list[Entrant], Draw]]:
    """Rounds with random results: one winning side per table, 1 point to each winner.
    ``chained`` passes the rounds so far as ``earlier``, as the dispatcher does."""
    rng = random.Random(seed)
    score = dict.fromkeys(range(n), 0)
    history = History()
    earlier: list[list[tuple[int, ...]]] | None = [] if chained else None
    for r in range(rounds):
        entrants = [Entrant(i, score[i], rank=i + 1) for i in range(n)]
        draw = group_swiss_seat(
            entrants, history, seed=r, rounds_left=rounds - r, earlier=earlier, **options
        )
        if earlier is not None:
            earlier.append([t.seats for t in draw.tables])
        yield entrants, draw
        for t in draw.tables:
            for winner in rng.choice(t.sides):
                score[winner] += 1
        history = history.with_tables(draw.tables)


@pytest.mark.parametrize(("n", "seed"), [(32, 1), (64, 2)])
def test_seven_rounds_without_a_repeated_meeting(n: int, seed: int) -> None:
    rounds = []
    for _, draw in simulate(n, 7, seed):
        assert is_partition([t.seats for t in draw.tables], draw.byes, range(n))
        assert all(len(t.seats) == 4 for t in draw.tables)
        assert draw.report.rematches == 0
        rounds.append([t.seats for t in draw.tables])
    assert max(meeting_counts(rounds).values()) == 1


def test_first_round_tables_are_standing_chunks_and_second_round_groups_by_points() -> None:
    draws = [d for _, d in simulate(16, 2, 3)]
    assert [sorted(t.seats) for t in draws[0].tables] == [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
        [8, 9, 10, 11],
        [12, 13, 14, 15],
    ]
    # After round 1, eight players have 1 point and eight 0: tables need not mix them.
    assert draws[1].report.largest_score_gap == 0
    assert draws[1].report.rematches == 0


@pytest.mark.parametrize(
    ("n", "sizes"), [(10, [4, 3, 3]), (11, [4, 4, 3]), (9, [3, 3, 3]), (7, [4, 3])]
)
def test_mixed_table_sizes_without_byes(n: int, sizes: list[int]) -> None:
    for _, draw in simulate(n, 3, 4):
        assert sorted((len(t.seats) for t in draw.tables), reverse=True) == sizes
        assert draw.byes == ()
        assert is_partition([t.seats for t in draw.tables], (), range(n))


def test_byes_only_when_allowed_and_to_the_lowest_without_one() -> None:
    entrants = [Entrant(i, 0, rank=i + 1, had_bye=i == 9) for i in range(10)]
    draw = group_swiss_seat(entrants, History(), seed=0, smallest=4, byes_allowed=True)
    assert draw.byes == (7, 8)
    assert all(len(t.seats) == 4 for t in draw.tables)
    with pytest.raises(PairingError) as error:
        group_swiss_seat(entrants, History(), seed=0, smallest=4)
    assert error.value.code == "cannot_seat"


def test_three_player_tables_four_rounds_without_a_repeat_at_twelve() -> None:
    # Five would need a nearly Kirkman triple system on 12 points, which does not exist.
    rounds = []
    for _, draw in simulate(12, 4, 5, table_size=3):
        assert all(len(t.seats) == 3 for t in draw.tables)
        rounds.append([t.seats for t in draw.tables])
    assert max(meeting_counts(rounds).values()) == 1


def test_forced_repeat_is_seated_as_opponents_not_partners() -> None:
    # Four players who all met: a repeat is forced; 0 and 1 were partners, so they must
    # not be partners (seats 0+2 / 1+3) again.
    history = History.from_rounds([[(0, 2, 1, 3)], [(0, 1, 2, 3)]])
    entrants = [Entrant(i) for i in range(4)]
    draw = group_swiss_seat(entrants, history, seed=0)
    seats = draw.tables[0].seats
    assert {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))} == {
        frozenset((0, 3)),
        frozenset((1, 2)),
    }
    assert draw.report.partner_repeats == 0
    assert draw.report.rematches == 6


def test_same_seed_same_seating() -> None:
    history = History.from_rounds([[(i, i + 1, i + 2, i + 3) for i in range(0, 20, 4)]])
    entrants = [Entrant(i, i % 3) for i in range(20)]
    first = group_swiss_seat(entrants, history, seed=5, rounds_left=3)
    assert group_swiss_seat(list(reversed(entrants)), history, seed=5, rounds_left=3) == first


def spread(tables: Iterable[Sequence[int]], score: dict[int, Fraction]) -> Fraction:
    """Sum over tables of the squared differences in match points of every pair there."""
    return sum(
        ((score[a] - score[b]) ** 2 for t in tables for a, b in combinations(t, 2)), Fraction(0)
    )


def repeats(tables: Iterable[Sequence[int]], history: History) -> int:
    return sum(1 for t in tables for a, b in combinations(t, 2) if history.meetings(a, b))


def test_known_repeat_free_rounds_come_from_the_designs() -> None:
    assert repeat_free_rounds(16, 4) == 5  # AG(2, 4)
    assert repeat_free_rounds(64, 4) == 21  # AG(3, 4)
    assert repeat_free_rounds(27, 3) == 13  # AG(3, 3)
    assert repeat_free_rounds(15, 3) == 7  # Kirkman's schoolgirls
    assert repeat_free_rounds(32, 4) == 10  # published social-golfer schedules
    assert repeat_free_rounds(13, 4) == 1  # none known: one round repeats nothing
    assert allowed_repeats(64, 4, 21) == 0
    assert allowed_repeats(64, 4, 22) is None


@pytest.mark.parametrize("chained", [False, True])
@pytest.mark.parametrize(
    ("n", "size", "rounds", "seed"),
    [(16, 4, 5, 7), (9, 3, 4, 8), (15, 3, 7, 9), pytest.param(27, 3, 13, 10, marks=SLOW)],
)
def test_every_round_a_design_allows_is_played_without_a_repeat(
    n: int, size: int, rounds: int, seed: int, chained: bool
) -> None:
    # Whole resolvable designs: AG(2, 4), AG(2, 3), Kirkman's schoolgirls, AG(3, 3). Every
    # pair meets exactly once, so the Swiss must end on a complete design, whether it
    # follows the design in id order or as placed by the rounds so far.
    assert allowed_repeats(n, size, rounds) == 0
    played = []
    for _, draw in simulate(n, rounds, seed, chained=chained, table_size=size):
        assert is_partition([t.seats for t in draw.tables], draw.byes, range(n))
        played.append([t.seats for t in draw.tables])
    counts = meeting_counts(played)
    assert max(counts.values()) == 1
    assert len(counts) == n * (n - 1) // 2


@pytest.mark.parametrize(("n", "size", "smallest"), [(32, 4, None), (18, 3, None), (22, 4, 3)])
def test_a_round_seated_alone_is_never_worse_than_the_fold(
    n: int, size: int, smallest: int | None
) -> None:
    # The score-ordered fold (chunks of the standing order) is where the search starts:
    # repeated meetings first, then the spread, it never ends worse.
    rng = random.Random(n)
    score = {i: Fraction(0) for i in range(n)}
    history = History()
    for r in range(5):
        entrants = [Entrant(i, score[i], rank=i + 1) for i in range(n)]
        draw = group_swiss_seat(entrants, history, seed=r, table_size=size, smallest=smallest)
        standing = standing_order(entrants, r)
        fold, start = [], 0
        for t in sorted((len(t.seats) for t in draw.tables), reverse=True):
            fold.append([e.id for e in standing[start : start + t]])
            start += t
        seated = [t.seats for t in draw.tables]
        assert (repeats(seated, history), spread(seated, score)) <= (
            repeats(fold, history),
            spread(fold, score),
        )
        for t in draw.tables:
            for winner in rng.choice(t.sides):
                score[winner] += 1
        history = history.with_tables(draw.tables)


def test_planning_ahead_never_takes_a_repeat_now_that_the_round_alone_avoids() -> None:
    rng = random.Random(11)
    score = dict.fromkeys(range(20), 0)
    history = History()
    for r in range(5):
        entrants = [Entrant(i, score[i], rank=i + 1) for i in range(20)]
        alone = group_swiss_seat(entrants, history, seed=r)
        ahead = group_swiss_seat(entrants, history, seed=r, rounds_left=6 - r, max_steps=300)
        assert ahead.report.rematches <= alone.report.rematches
        for t in ahead.tables:
            for winner in rng.choice(t.sides):
                score[winner] += 1
        history = history.with_tables(ahead.tables)


def test_same_seed_same_seating_when_planning_on_a_design() -> None:
    history = History.from_rounds([[(i, i + 1, i + 2, i + 3) for i in range(0, 64, 4)]])
    entrants = [Entrant(i, i % 2) for i in range(64)]
    first = group_swiss_seat(entrants, history, seed=9, rounds_left=6)
    assert group_swiss_seat(entrants, history, seed=9, rounds_left=6) == first
    assert first.report.rematches == 0


@pytest.mark.parametrize(
    ("n", "size", "rounds", "seed"), [(21, 3, 8, 12), pytest.param(32, 4, 9, 13, marks=SLOW)]
)
def test_a_long_event_placed_by_its_rounds_repeats_nothing(
    n: int, size: int, rounds: int, seed: int
) -> None:
    # 8 of KTS(21)'s 10 rounds and 9 of the 10 of the published 32-player golf schedule:
    # the schedule is placed anew after every round, and still no pair meets twice.
    played = []
    for _, draw in simulate(n, rounds, seed, chained=True, table_size=size):
        assert is_partition([t.seats for t in draw.tables], draw.byes, range(n))
        assert draw.report.rematches == 0
        played.append([t.seats for t in draw.tables])
    assert max(meeting_counts(played).values()) == 1


def test_the_plan_depends_on_the_rounds_played_only() -> None:
    events = simulate(21, 8, 14, chained=True, table_size=3)
    played = [[t.seats for t in d.tables] for _, d in islice(events, 3)]
    rounds = tuple(tuple(sorted(tuple(sorted(t)) for t in r)) for r in played)
    shape = (3,) * 7
    first = plan_after(21, shape, None, 8, rounds)
    assert first is not None
    plan_after.cache_clear()
    assert plan_after(21, shape, None, 8, rounds) == first
    # Its rounds (five at least) partition the field, and repeat no meeting so far nor
    # one another's.
    plan, _ = first
    assert len(plan) >= 5
    assert all(is_partition(r, (), range(21)) for r in plan)
    counts = meeting_counts([*rounds, *plan])
    assert max(counts.values()) == 1


@pytest.mark.parametrize(("n", "rounds", "seed"), [(22, 6, 15), (30, 7, 16)])
def test_a_mixed_field_planned_by_its_rounds_repeats_nothing(
    n: int, rounds: int, seed: int
) -> None:
    # Tables of four and three: no known schedule; the plan starts as the schedule
    # search's round robin and is repaired or kept after each round.
    played = []
    for _, draw in simulate(n, rounds, seed, chained=True, smallest=3):
        assert draw.report.rematches == 0
        played.append([t.seats for t in draw.tables])
    assert max(meeting_counts(played).values()) == 1


def test_a_changed_field_falls_back_to_the_design_in_id_order() -> None:
    # Round one seated 20 of the 21; the chain does not apply, and the round is still
    # seated without a repeat.
    earlier = [[tuple(range(i, i + 3)) for i in range(0, 18, 3)] + [(18, 19)]]
    history = History.from_rounds(earlier)
    entrants = [Entrant(i, 0, rank=i + 1) for i in range(21)]
    draw = group_swiss_seat(entrants, history, seed=1, table_size=3, rounds_left=7, earlier=earlier)
    assert is_partition([t.seats for t in draw.tables], (), range(21))
    assert draw.report.rematches == 0


def test_alternative_seatings_repeat_nothing_and_stay_close_in_score() -> None:
    # Given a third round of 22 players at tables of four and three, seated alone
    events = simulate(22, 3, 15, chained=True, smallest=3)
    *_, (entrants, draw) = list(events)
    ids = [e.id for e in entrants]
    scores = {e.id: Fraction(e.score) for e in entrants}
    history = History()
    for _, earlier in islice(simulate(22, 2, 15, chained=True, smallest=3), 2):
        history = history.with_tables(earlier.tables)
    met = [[history.meetings(a, b) for b in ids] for a in ids]
    gap = gap_matrix(ids, scores)
    ordered = [[g * 10_000 + (i - j) ** 2 for j, g in enumerate(row)] for i, row in enumerate(gap)]
    tables = [list(t.seats) for t in draw.tables]
    first = seating_cost(tables, gap)
    # When other seatings of it are asked for
    found = _alternatives(tables, gap, met, ordered, random.Random(4))
    # Then there are some; each seats everyone once at tables of the same sizes, repeats no
    # meeting, costs at most half as much again in score spread, and they come cheapest first
    assert found
    costs = [seating_cost(seated, gap) for seated in found]
    assert costs == sorted(costs) and costs[-1] <= first + first // 2
    for seated in found:
        assert sorted(len(t) for t in seated) == sorted(len(t) for t in tables)
        assert is_partition([tuple(t) for t in seated], (), range(22))
        assert all(met[a][b] == 0 for t in seated for a, b in combinations(t, 2))


@pytest.mark.parametrize(
    ("n", "size", "smallest", "rounds"),
    [
        (21, 3, None, 8),
        pytest.param(22, 4, 3, 6, marks=SLOW),
        pytest.param(32, 4, None, 9, marks=SLOW),
    ],
)
def test_the_quick_plan_check_finds_the_full_plan_or_nothing(
    n: int, size: int, smallest: int | None, rounds: int
) -> None:
    # Given an event's rounds as played, by their canonical tables
    played = [
        tuple(sorted(tuple(sorted(t.seats)) for t in d.tables))
        for _, d in simulate(n, rounds, 17, chained=True, table_size=size, smallest=smallest)
    ]
    shape = tuple(sorted(len(t) for t in played[0]))
    # When the plan after each prefix is checked without repairing it, and in full
    for k in range(1, rounds):
        prefix = tuple(played[:k])
        quick = plan_after(n, shape, smallest, rounds, prefix, repair=False)
        plan_after.cache_clear()
        full = plan_after(n, shape, smallest, rounds, prefix)
        # Then the quick check answers with the full plan, or with none
        assert quick is None or quick == full, k
        assert full is not None, k
