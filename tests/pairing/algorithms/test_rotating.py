"""Rotating partners: whist schedules reach the ideal; round by round, nobody partners the
same player twice while it can be avoided (checked by an independent exhaustive search),
opponents spread, mixed tables, seeds."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pairing.algorithms.rotating import WHIST_MAX_PLAYERS, rotating_seat, whist_schedule
from pairing.algorithms.types import Draw, Entrant, History, PairingError
from tests.pairing.algorithms.counters import (
    all_pairs,
    is_partition,
    key,
    opponent_counts,
    partner_counts,
)


def has_fresh_partner_matching(players: list[int], partnered: set[tuple[int, int]]) -> bool:
    """Exhaustive: can the players be paired so that no pair has partnered before?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        key(first, other) not in partnered
        and has_fresh_partner_matching([p for p in rest if p != other], partnered)
        for other in rest
    )


@pytest.mark.parametrize("players", [5, 8, 9, 12, 13, 16, 33, 36, WHIST_MAX_PLAYERS])
def test_whist_schedule_partners_once_opposes_twice(players: int) -> None:
    ids = [100 + 7 * i for i in range(players)]
    schedule = whist_schedule(ids, seed=3)
    rounds = [[t.seats for t in d.tables] for d in schedule.rounds]
    for draw in schedule.rounds:
        assert is_partition([t.seats for t in draw.tables], draw.byes, ids)
        assert len(draw.byes) == players % 4
    partners, opponents = partner_counts(rounds), opponent_counts(rounds)
    assert {partners[p] for p in all_pairs(ids)} == {1}
    assert {opponents[p] for p in all_pairs(ids)} == {2}
    assert schedule.report.partner_counts == (1,)
    assert schedule.report.opponent_counts == (2,)
    assert schedule.report.whist_partner_deviation == 0
    assert schedule.report.whist_opponent_deviation == 0
    # Each round's report sees partner repeats as zero throughout.
    assert all(d.report.partner_repeats == 0 for d in schedule.rounds)


def test_whist_schedule_rejects_sizes_it_cannot_build() -> None:
    for count in (6, 10, WHIST_MAX_PLAYERS + 2):
        with pytest.raises(PairingError) as error:
            whist_schedule(list(range(count)), seed=0)
        assert error.value.code == "whist_size"


@pytest.mark.parametrize("count", [7, 11, 23])
def test_whist_for_4n_plus_3_leaves_one_seat_empty_and_never_repeats_a_partner(
    count: int,
) -> None:
    # given 4n + 3 players, when the whist schedule is built
    schedule = whist_schedule(list(range(count)), seed=3)
    rounds = [[list(t.seats) for t in d.tables] for d in schedule.rounds]
    # then every round seats everyone, one table three-handed
    assert len(rounds) == count
    for r in rounds:
        assert is_partition(r, [], range(count))
        assert sorted(len(t) for t in r)[0] == 3 and sorted(len(t) for t in r)[1:] == [4] * (
            count // 4
        )
    # and no pair partners twice, none opposes more than twice, and the report says so
    partners = partner_counts(rounds)
    assert max(partners.values()) == 1
    assert max(opponent_counts(rounds).values()) <= 3
    assert max(schedule.report.partner_counts) == 1
    assert "one seat empty" in schedule.construction
    # and the report counts the pairs off partner-once, oppose-twice as the counters do:
    # one pair a round loses its partnership at the three-handed table, the fewest the
    # tables allow (a round has room for count // 4 * 2 partnerships)
    pairs = list(all_pairs(range(count)))
    unpartnered = sum(partners[p] != 1 for p in pairs)
    assert schedule.report.whist_partner_deviation == unpartnered == count
    assert unpartnered == len(pairs) - count * (count // 4) * 2
    opponents = opponent_counts(rounds)
    assert schedule.report.whist_opponent_deviation == sum(opponents[p] != 2 for p in pairs)


def simulate(n: int, rounds: int, seed: int, **options: bool) -> Iterator[tuple[History, Draw]]:
    rng = random.Random(seed)
    score = dict.fromkeys(range(n), 0)
    history = History()
    for r in range(rounds):
        entrants = [Entrant(i, score[i], rank=i + 1) for i in range(n)]
        draw = rotating_seat(entrants, history, seed=r, **options)
        yield history, draw
        for t in draw.tables:
            for winner in rng.choice(t.sides):
                score[winner] += 1
        history = history.with_tables(draw.tables)


@pytest.mark.parametrize(
    ("n", "rounds", "by_standing"), [(8, 7, True), (12, 11, False), (16, 15, True)]
)
def test_no_partner_repeat_while_one_can_be_avoided(n: int, rounds: int, by_standing: bool) -> None:
    for history, draw in simulate(n, rounds, n, by_standing=by_standing):
        assert is_partition([t.seats for t in draw.tables], (), range(n))
        partnered = {key(min(p), max(p)) for p in history.partnered}
        if has_fresh_partner_matching(list(range(n)), partnered):
            assert draw.report.partner_repeats == 0
        else:
            assert draw.report.partner_repeats > 0


def test_partner_repeats_are_zero_whenever_avoidable_on_random_histories() -> None:
    rng = random.Random(0)
    checked = 0
    for trial in range(60):
        n = rng.choice((8, 12))
        partnered = {p for p in all_pairs(range(n)) if rng.random() < 0.55}
        history = History(
            met={frozenset(p): 1 for p in partnered}, partnered={frozenset(p): 1 for p in partnered}
        )
        entrants = [Entrant(i, rng.randint(0, 3), rank=i + 1) for i in range(n)]
        draw = rotating_seat(entrants, history, seed=trial)
        if has_fresh_partner_matching(list(range(n)), partnered):
            checked += 1
            assert draw.report.partner_repeats == 0
        else:
            assert draw.report.partner_repeats > 0
    assert checked > 10


def test_sixty_four_players_seven_rounds_no_partner_or_opponent_repeat() -> None:
    rounds = []
    for _, draw in simulate(64, 7, 1):
        assert draw.report.partner_repeats == 0
        rounds.append([t.seats for t in draw.tables])
    assert max(partner_counts(rounds).values()) == 1
    assert max(opponent_counts(rounds).values()) == 1


def test_mixed_tables_when_not_a_multiple_of_four() -> None:
    for _, draw in simulate(10, 4, 2):
        assert sorted(len(t.seats) for t in draw.tables) == [3, 3, 4]
        assert is_partition([t.seats for t in draw.tables], (), range(10))


def test_byes_when_allowed_with_fixed_tables_of_four() -> None:
    entrants = [Entrant(i, 0, rank=i + 1) for i in range(10)]
    draw = rotating_seat(entrants, History(), seed=0, smallest=4, byes_allowed=True)
    assert draw.byes == (8, 9)
    assert [len(t.seats) for t in draw.tables] == [4, 4]


def test_same_seed_same_round() -> None:
    history = History.from_rounds([[(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)]])
    entrants = [Entrant(i, i % 2) for i in range(12)]
    assert rotating_seat(entrants, history, seed=4) == rotating_seat(
        list(reversed(entrants)), history, seed=4
    )


def test_a_rotating_round_needs_two_entrants() -> None:
    with pytest.raises(PairingError) as raised:
        rotating_seat([Entrant(id=1, score=0, rank=1)], History(), seed=1)
    assert raised.value.code == "too_few"


def test_a_whist_schedule_refuses_an_entrant_listed_twice() -> None:
    with pytest.raises(ValueError, match="unique"):
        whist_schedule([1, 2, 3, 4, 5, 6, 7, 7], seed=1)
