"""The round clock on the database (docs/rules.md R24): starting it, calling time for a
round, the hand in play finishing the match, a later hand refused, and the scoresheet
export and import carrying ``time_called_after``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from allfives import AllFivesError
from league.models import ResultKind, Round, Table, TableResult, Tournament
from league.services.clock import round_clock_remaining, round_clock_start
from matches.models import Match
from matches.selectors import match_document, match_state
from matches.services.clock import round_time_call, table_time_call
from matches.services.hands import hand_record
from matches.services.lifecycle import match_for_table, match_import
from tests.factories import (
    EntryFactory,
    RoundFactory,
    RuleSetFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tests.matches.sheets import tally

pytestmark = pytest.mark.django_db

#: Two-player hands to 250: seat 0 makes 20, then 5; seat 1 makes 20 in the third.
HAND_1 = tally(0, [[0, 10]], {"domino": 0}, {"1": 8})
HAND_2 = tally(0, [[0, 0]], {"domino": 0}, {"1": 4})
EVEN = tally(0, [[1, 20]], {"domino": 0}, {"1": 1})


@pytest.fixture
def organiser() -> Any:
    return UserFactory(username="panitia")


def _round(organiser: Any, *, limit: int | None = 30, tables: int = 2) -> Round:
    tournament = TournamentFactory(
        status=Tournament.Status.RUNNING, rule_set=RuleSetFactory(time_limit=limit)
    )
    tournament.organisers.add(organiser)
    round_ = RoundFactory(tournament=tournament, number=1)
    for _ in range(tables):
        table = TableFactory(round=round_, player_count=2, target=250)
        for seat in range(2):
            SeatFactory(table=table, number=seat, entry=EntryFactory(tournament=tournament))
    return round_


def _record(match: Match, hand: dict[str, Any], user: Any) -> Match:
    match.refresh_from_db()
    return hand_record(
        match=match, number=match.hands_count + 1, hand=hand, version=match.version, user=user
    )


def test_r24_the_round_clock_starts_once_and_counts_down(organiser: Any) -> None:
    round_ = _round(organiser)
    started = round_clock_start(round_id=round_.pk, user=organiser)
    assert started.clock_started_at is not None
    ten = started.clock_started_at + timedelta(minutes=10)
    left = round_clock_remaining(round=started, now=ten)
    assert left == timedelta(minutes=20)
    late = started.clock_started_at + timedelta(minutes=45)
    assert round_clock_remaining(round=started, now=late) == timedelta(0)
    with pytest.raises(ValidationError) as caught:
        round_clock_start(round_id=round_.pk, user=organiser)
    assert caught.value.code == "clock_started"


def test_r24_a_round_without_a_time_limit_has_no_clock(organiser: Any) -> None:
    round_ = _round(organiser, limit=None)
    with pytest.raises(ValidationError) as caught:
        round_clock_start(round_id=round_.pk, user=organiser)
    assert caught.value.code == "no_time_limit"
    assert round_clock_remaining(round=round_) is None


def test_r24_only_an_organiser_runs_the_clock(organiser: Any) -> None:
    round_ = _round(organiser)
    with pytest.raises(PermissionDenied):
        round_clock_start(round_id=round_.pk, user=UserFactory())
    with pytest.raises(PermissionDenied):
        round_time_call(round_id=round_.pk, user=UserFactory())
    assert Round.objects.get(pk=round_.pk).clock_started_at is None


def test_r24_time_called_the_hand_in_play_finishes_and_the_higher_total_wins(
    organiser: Any,
) -> None:
    round_ = _round(organiser)
    first, second = list(round_.tables.order_by("number"))
    match = match_for_table(table=first)
    _record(match, HAND_1, organiser)
    called = round_time_call(round_id=round_.pk, user=organiser)
    assert called == [first.number, second.number]
    match.refresh_from_db()
    assert match.time_called_after == 2 and match.status == Match.Status.PLAYING
    assert match_state(match=match)["time_called_after"] == 2  # what the API answers
    round_.refresh_from_db()
    assert round_.time_called_at is not None
    assert round_clock_remaining(round=round_) == timedelta(0)
    finished = _record(match, HAND_2, organiser)  # the hand in play
    assert finished.status == Match.Status.FINISHED and finished.winners == [0]
    result = TableResult.objects.get(table=first)
    assert result.kind == ResultKind.PLAYED and not result.is_tie
    assert Table.objects.get(pk=first.pk).status == Table.Status.FINISHED


def test_r24_equal_totals_when_time_is_called_tie(organiser: Any) -> None:
    round_ = _round(organiser, tables=1)
    table = round_.tables.get()
    match = match_for_table(table=table)
    _record(match, HAND_1, organiser)
    table_time_call(table_id=table.pk, user=organiser)
    finished = _record(match, EVEN, organiser)
    assert finished.is_tie and finished.winners == [0, 1]
    result = TableResult.objects.get(table=table)
    assert result.is_tie and all(s.placing == 1 for s in result.sides.all())


def test_r24_a_hand_after_the_hand_in_play_is_refused(organiser: Any) -> None:
    round_ = _round(organiser, tables=1)
    table = round_.tables.get()
    match = match_for_table(table=table)
    table_time_call(table_id=table.pk, user=organiser)  # before any hand: one hand is played
    match.refresh_from_db()
    assert match.time_called_after == 1
    _record(match, HAND_1, organiser)
    match.refresh_from_db()
    assert match.is_finished
    match.status = Match.Status.PLAYING  # as if reopened: the engine still refuses
    match.save()
    with pytest.raises(AllFivesError) as caught:
        _record(match, HAND_2, organiser)
    assert (caught.value.code, caught.value.rule, caught.value.hand) == ("time_called", "R24", 1)


def test_r24_calling_time_without_a_time_limit_is_refused(organiser: Any) -> None:
    round_ = _round(organiser, limit=None, tables=1)
    with pytest.raises(ValidationError) as caught:
        round_time_call(round_id=round_.pk, user=organiser)
    assert caught.value.code == "no_time_limit"
    assert not Match.objects.filter(time_called_after__isnull=False).exists()


def test_r24_the_scoresheet_export_and_import_carry_time_called(organiser: Any) -> None:
    round_ = _round(organiser)
    first, second = list(round_.tables.order_by("number"))
    match = match_for_table(table=first)
    _record(match, HAND_1, organiser)
    table_time_call(table_id=first.pk, user=organiser)
    finished = _record(match, HAND_2, organiser)
    document = match_document(match=finished)
    assert document["time_called_after"] == 2 and document["rules"]["time_limit"] == 30
    copy = match_import(document=document, user=organiser, table=second)
    assert copy.time_called_after == 2 and copy.is_finished and copy.winners == [0]
    assert match_document(match=copy) == document


def test_r24_time_called_at_a_finished_table_changes_nothing(organiser: Any) -> None:
    round_ = _round(organiser, tables=1)
    table = round_.tables.get()
    TableResult.objects.create(table=table, finished_at=timezone.now())
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert table_time_call(table_id=table.pk, user=organiser) is None
    assert round_time_call(round_id=round_.pk, user=organiser) == []
