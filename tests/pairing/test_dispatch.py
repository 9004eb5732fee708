"""The pure dispatcher: its table covers every format and table size a tournament may
have, refuses the rest with a PairingError, and needs nothing from the database once the
field is read."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import product
from typing import Any

import pytest

from league.models import TableSize, Tournament, TournamentFormat
from league.services.rounds import round_create
from pairing.algorithms.dispatch import (
    DISPATCH,
    DrawField,
    EarlierRound,
    FormatNotAvailable,
    PartnersNeedFour,
    draw_compute,
    group_split,
    pairer_for,
)
from pairing.algorithms.rotating import WHIST_MAX_PLAYERS, whist_schedule
from pairing.algorithms.types import Draw, Entrant, History, PairingError
from pairing.selectors import pairing_field
from pairing.services.pairing import round_pair
from tests.pairing.conftest import play, tournament_with_entries


def _field(format: str, table_size: str, count: int = 8) -> DrawField:
    return DrawField(
        format=format,
        table_size=table_size,
        allow_byes=True,
        tournament_seed=1,
        rounds_count=3,
        round_number=1,
        entrants=tuple(Entrant(id=i, score=0, rank=i) for i in range(1, count + 1)),
        history=History(),
        earlier_rounds=(),
    )


@pytest.mark.parametrize(("format", "table_size"), list(product(TournamentFormat, TableSize)))
def test_every_format_and_table_size_a_tournament_allows_is_in_the_table(
    format: str, table_size: str
) -> None:
    # Every combination the model allows has an entry: a pairing function, or a refusal
    # with a clear reason (rotating partners at tables without partners)
    assert (str(format), str(table_size)) in DISPATCH
    field = _field(str(format), str(table_size))
    if format == TournamentFormat.ROTATING_PARTNER and table_size in (
        TableSize.TWO,
        TableSize.THREE,
    ):
        with pytest.raises(PartnersNeedFour) as raised:
            draw_compute(field, seed=1)
        assert raised.value.code == "partners_need_four"
    else:
        draw = draw_compute(field, seed=1)
        assert sorted(e for t in draw.tables for e in t.seats) + sorted(draw.byes) == sorted(
            e.id for e in field.entrants
        )


def test_the_table_names_no_format_or_size_the_model_does_not_know() -> None:
    formats, sizes = set(TournamentFormat.values), set(TableSize.values)
    assert {f for f, _s in DISPATCH} == formats
    assert {s for _f, s in DISPATCH} == sizes


@pytest.mark.parametrize(("format", "table_size"), [("knockout", "4"), ("swiss", "5")])
def test_an_unsupported_combination_raises_a_pairing_error(format: str, table_size: str) -> None:
    with pytest.raises(PairingError) as raised:
        pairer_for(format, table_size)
    assert isinstance(raised.value, FormatNotAvailable)
    assert raised.value.code == "format_not_available"
    assert format in str(raised.value) and table_size in str(raised.value)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "table_size"),
    [
        (Tournament.Format.SWISS, Tournament.TableSize.FOUR),
        (Tournament.Format.ROUND_ROBIN, Tournament.TableSize.FOUR),
        (Tournament.Format.ROTATING_PARTNER, Tournament.TableSize.FOUR),
    ],
)
def test_once_the_field_is_read_the_draw_needs_no_query(
    format: str, table_size: str, django_assert_num_queries: Any
) -> None:
    # Given round two of an eight-player event whose first round was paired and played
    tournament = tournament_with_entries(8, format=format, table_size=table_size)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=3)
    play(first)
    second = round_create(tournament=tournament)
    read = pairing_field(round=second)
    # When its draw is computed from the field, then the database is not asked again
    with django_assert_num_queries(0):
        draw = draw_compute(read.field, seed=3)
    # And the draw is the one round_pair stores
    assert [t.seats for t in draw.tables] == [
        t.seats for t in round_pair(round=second, seed=3).tables
    ]


# -- the fixed schedules and their fallbacks ---------------------------------------------------


def _run(
    format: str,
    table_size: str,
    ids: list[int],
    rounds: int,
    *,
    allow_byes: bool = True,
    withdrawn_after: dict[int, set[int]] | None = None,
    rounds_count: int | None = None,
) -> list[Draw]:
    """Draw ``rounds`` rounds in turn, each round's field holding the rounds before it
    (``withdrawn_after``: entrants gone from the field after the given round)."""
    draws: list[Draw] = []
    history = History()
    gone: set[int] = set()
    for number in range(1, rounds + 1):
        field = DrawField(
            format=format,
            table_size=table_size,
            allow_byes=allow_byes,
            tournament_seed=5,
            rounds_count=rounds_count or rounds,
            round_number=number,
            entrants=tuple(Entrant(id=i, score=0, rank=i) for i in ids if i not in gone),
            history=history,
            earlier_rounds=tuple(
                EarlierRound(
                    number=n,
                    tables=tuple(t.seats for t in d.tables),
                    byes=frozenset(d.byes),
                )
                for n, d in enumerate(draws, start=1)
            ),
        )
        draw = draw_compute(field, seed=number)
        draws.append(draw)
        history = history.with_tables(draw.tables)
        gone |= (withdrawn_after or {}).get(number, set())
    return draws


def _seated_once(draw: Draw, ids: set[int]) -> bool:
    everyone = [e for t in draw.tables for e in t.seats] + list(draw.byes)
    return len(everyone) == len(set(everyone)) and set(everyone) == ids


def test_rotating_partners_for_4n_plus_3_play_the_whist_with_one_empty_seat() -> None:
    # given seven players at tables of three and four
    ids = list(range(1, 8))
    draws = _run("rotating_partner", "3-4", ids, 7, allow_byes=False)
    # then every round seats a four and a three, with no byes
    assert all(sorted(len(t.seats) for t in d.tables) == [3, 4] and not d.byes for d in draws)
    # and the rounds are Wh(8)'s with the empty seat: no two players partner twice
    partners = Counter(
        frozenset((t.seats[0], t.seats[2])) for d in draws for t in d.tables if len(t.seats) == 4
    ) + Counter(
        frozenset((t.seats[1], t.seats[3])) for d in draws for t in d.tables if len(t.seats) == 4
    )
    assert max(partners.values()) == 1
    assert [[t.seats for t in d.tables] for d in draws] == [
        [t.seats for t in d.tables] for d in whist_schedule(ids, seed=5).rounds
    ]


def test_the_largest_rotating_partner_field_plays_a_true_whist() -> None:
    # given the largest field a whist is kept for (64 players), at tables of four
    ids = list(range(1, WHIST_MAX_PLAYERS + 1))
    draws = _run("rotating_partner", "4", ids, 3, rounds_count=WHIST_MAX_PLAYERS - 1)
    # then its rounds are the whist schedule's
    planned = whist_schedule(ids, seed=5)
    assert [[t.seats for t in d.tables] for d in draws] == [
        [t.seats for t in d.tables] for d in planned.rounds[:3]
    ]
    # whose every pair partners once and opposes twice, as each round's report says
    assert planned.report.partner_counts == (1,) and planned.report.opponent_counts == (2,)
    for d in draws:
        assert d.report.partner_repeats == 0
        assert d.report.schedule_partner_deviation == 0
        assert d.report.schedule_opponent_deviation == 0
        assert d.report.as_dict()["schedule_opponent_deviation"] == 0


def test_a_whist_with_an_empty_seat_reports_how_far_it_strays() -> None:
    # given eleven players at tables of three and four: Wh(12) with one seat empty
    ids = list(range(1, 12))
    draw = _run("rotating_partner", "3-4", ids, 1, allow_byes=False)[0]
    # then the round's report carries the whole schedule's deviation, counted here again
    rounds = [[t.seats for t in d.tables] for d in whist_schedule(ids, seed=5).rounds]
    partners: Counter[frozenset[int]] = Counter()
    met: Counter[frozenset[int]] = Counter()
    for r in rounds:
        for seats in r:
            met.update(frozenset((a, b)) for a in seats for b in seats if a < b)
            if len(seats) == 4:
                partners.update([frozenset(seats[0::2]), frozenset(seats[1::2])])
    pairs = [frozenset((a, b)) for a in ids for b in ids if a < b]
    assert draw.report.schedule_partner_deviation == sum(partners[p] != 1 for p in pairs)
    assert draw.report.schedule_opponent_deviation == sum(met[p] - partners[p] != 2 for p in pairs)
    assert draw.report.schedule_partner_deviation > 0  # the empty seat's partners


def test_after_the_whist_runs_out_rounds_are_seated_one_at_a_time() -> None:
    # given eight rotating-partner players: Wh(8) has seven rounds
    ids = list(range(1, 9))
    draws = _run("rotating_partner", "4", ids, 8)
    # then the eighth round is still a full seating of the field at tables of four
    assert _seated_once(draws[7], set(ids))
    assert [len(t.seats) for t in draws[7].tables] == [4, 4]
    assert [t.seats for t in draws[6].tables] == [
        t.seats for t in whist_schedule(ids, seed=5).rounds[6].tables
    ]


@pytest.mark.parametrize(
    ("count", "table_size", "allow_byes"),
    [
        (7, "4", True),  # 4n + 3 at tables of four only: no three-handed table
        (6, "3-4", True),  # no whist for 6
        (9, "3-4", False),  # 4n + 1 sits one out every round, and byes are refused
    ],
)
def test_rotating_partners_fall_back_to_one_round_at_a_time_off_the_whist(
    count: int, table_size: str, allow_byes: bool
) -> None:
    ids = set(range(1, count + 1))
    draw = _run("rotating_partner", table_size, sorted(ids), 1, allow_byes=allow_byes)[0]
    assert _seated_once(draw, ids)
    if not allow_byes:
        assert not draw.byes


def test_rotating_partners_for_4n_plus_1_with_byes_sit_each_player_out_once() -> None:
    ids = list(range(1, 10))
    draws = _run("rotating_partner", "3-4", ids, 9)
    assert all(len(d.byes) == 1 and _seated_once(d, set(ids)) for d in draws)
    assert sorted(e for d in draws for e in d.byes) == ids


def test_a_round_robin_follows_its_schedule_past_a_withdrawal() -> None:
    # given six players at tables of two; player 6 withdraws after round 1
    draws = _run("round_robin", "2", list(range(1, 7)), 3, withdrawn_after={1: {6}})
    # then the withdrawn player's opponent has the bye, and nobody plays 6 again
    later = draws[1:]
    assert all(6 not in d.seated for d in later)
    assert all(len(d.byes) == 1 for d in later)
    met = Counter(frozenset(t.seats) for d in draws for t in d.tables)
    assert max(met.values()) == 1


def test_a_round_robin_without_byes_leaves_the_schedule_when_a_withdrawal_needs_one() -> None:
    # given the same withdrawal, but byes refused: five players cannot all play at twos
    with pytest.raises(PairingError) as raised:
        _run("round_robin", "2", list(range(1, 7)), 2, allow_byes=False, withdrawn_after={1: {6}})
    assert raised.value.code == "byes_not_allowed"


def test_a_round_robin_with_a_late_entrant_is_paired_round_by_round() -> None:
    # given four players' round robin, with a fifth in the field from round 2
    first = _run("round_robin", "2", [1, 2, 3, 4], 1)[0]
    field = DrawField(
        format="round_robin",
        table_size="2",
        allow_byes=True,
        tournament_seed=5,
        rounds_count=3,
        round_number=2,
        entrants=tuple(Entrant(id=i, score=0, rank=i) for i in range(1, 6)),
        history=History().with_tables(first.tables),
        earlier_rounds=(EarlierRound(1, tuple(t.seats for t in first.tables), frozenset()),),
    )
    # when round 2 is drawn, then everyone is seated or has the bye and no pair repeats
    draw = draw_compute(field, seed=2)
    assert _seated_once(draw, {1, 2, 3, 4, 5})
    assert not {frozenset(t.seats) for t in draw.tables} & {
        frozenset(t.seats) for t in first.tables
    }


def test_a_round_robin_played_past_its_schedule_is_still_seated() -> None:
    # four players at twos meet everyone in three rounds; a fourth round is drawn anyway
    draws = _run("round_robin", "2", [1, 2, 3, 4], 4, rounds_count=3)
    assert _seated_once(draws[3], {1, 2, 3, 4})
    met = Counter(frozenset(t.seats) for d in draws[:3] for t in d.tables)
    assert set(met.values()) == {1} and len(met) == 6


def _after_hand_made_round(
    format: str, table_size: str, ids: list[int], tables: tuple[tuple[int, ...], ...]
) -> DrawField:
    """Round 2's field after a round 1 seated by hand as ``tables``."""
    return DrawField(
        format=format,
        table_size=table_size,
        allow_byes=True,
        tournament_seed=5,
        rounds_count=5,
        round_number=2,
        entrants=tuple(Entrant(id=i, score=0, rank=i) for i in ids),
        history=History().with_tables(tables),
        earlier_rounds=(EarlierRound(1, tables, frozenset()),),
    )


def test_after_a_hand_made_round_a_round_robin_avoids_its_meetings() -> None:
    # given round 1 of six players at twos seated by hand (not the schedule's round 1)
    ids = list(range(1, 7))
    scheduled = {frozenset(t.seats) for t in _run("round_robin", "2", ids, 1)[0].tables}
    hand_made = ((1, 2), (3, 4), (5, 6))
    assert {frozenset(t) for t in hand_made} != scheduled
    field = _after_hand_made_round("round_robin", "2", ids, hand_made)
    # when round 2 is drawn, then it seats everyone and repeats none of round 1's games
    draw = draw_compute(field, seed=2)
    assert _seated_once(draw, set(ids))
    assert not {frozenset(t.seats) for t in draw.tables} & {frozenset(t) for t in hand_made}


def test_after_a_hand_made_round_rotating_partners_avoid_its_partnerships() -> None:
    # given round 1 of eight rotating-partner players seated by hand, off the whist
    ids = list(range(1, 9))
    planned = {t.seats for t in whist_schedule(ids, seed=5).rounds[0].tables}
    hand_made = ((1, 2, 3, 4), (5, 6, 7, 8))
    assert set(hand_made) != planned
    draw = draw_compute(_after_hand_made_round("rotating_partner", "4", ids, hand_made), seed=2)
    # then round 2 seats everyone and nobody partners the same player again
    assert _seated_once(draw, set(ids))
    partners = {frozenset((t.seats[s], t.seats[s + 2])) for t in draw.tables for s in (0, 1)}
    assert not partners & {frozenset((t[s], t[s + 2])) for t in hand_made for s in (0, 1)}


def test_a_league_night_with_an_odd_field_and_no_byes_is_refused() -> None:
    field = _field("league_night", "2", count=5)
    with pytest.raises(PairingError) as raised:
        draw_compute(replace(field, allow_byes=False), seed=1)
    assert raised.value.code == "byes_not_allowed"


def test_only_fixed_partnerships_seat_partnerships_as_entrants() -> None:
    assert _field("fixed_partnership", "4").is_partnership_format
    assert not _field("rotating_partner", "4").is_partnership_format
    # a partnership is one entrant, so its table holds two entrants; so do tables of two
    assert _field("fixed_partnership", "4").table_bounds == (2, 2)
    assert _field("swiss", "2").table_bounds == (2, 2)
    assert _field("swiss", "3-4").table_bounds == (2, 4)


def test_fewer_than_two_entrants_cannot_be_split_into_tables() -> None:
    with pytest.raises(PairingError) as raised:
        group_split(count=1, table_size="3-4", allow_byes=True)
    assert raised.value.code == "too_few"
