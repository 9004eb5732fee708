"""A tied knockout match played off at the table: under "one more hand" its match is
played under the engine's ``tie_break``, the extra hands are scored like any other, and
the bracket advances the winner without the organiser's extra-hand button."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from knockout.models import BracketMatch
from knockout.selectors import bracket_matches_tied
from knockout.services import bracket_advance, bracket_create
from league.models import Round, Tournament
from league.services.results import table_agreed_record
from league.services.rounds import round_close
from matches.models import Match
from matches.selectors import match_playing_off, table_rules, tiles_draft
from matches.services.clock import table_time_call
from matches.services.hands import hand_record
from matches.services.lifecycle import match_finish, match_for_table
from tests.factories import UserFactory
from tests.knockout.conftest import bracket_round, seeded_tournament, timed_semi_finals
from tests.matches.sheets import client_for, match_url, tally

pytestmark = pytest.mark.django_db

#: Two-player tally hands: seat 0 makes 20; seat 1 makes 20 (20 each); nobody scores;
#: seat 0 goes out against 4 pips (5 to seat 0).
HAND_1 = tally(0, [[0, 10]], {"domino": 0}, {"1": 8})
EVEN = tally(0, [[1, 20]], {"domino": 0}, {"1": 1})
NOTHING = tally(0, [[0, 0]], {"domino": 0}, {"1": 1})
FIVE = tally(0, [[0, 0]], {"domino": 0}, {"1": 4})


def _knockout(knockout_tie: str = "extra_hand") -> tuple[Tournament, Round, Any]:
    organiser = UserFactory(username="panitia")
    tournament, first = timed_semi_finals(organiser, knockout_tie=knockout_tie)
    return tournament, first, organiser


def _record(match: Match, hand: dict[str, Any], user: Any) -> Match:
    match.refresh_from_db()
    return hand_record(
        match=match, number=match.hands_count + 1, hand=hand, version=match.version, user=user
    )


def test_a_knockout_tables_match_plays_a_tie_off_and_a_paired_rounds_does_not() -> None:
    _tournament, first, _organiser = _knockout()
    table = first.tables.get(number=1)
    assert table_rules(table=table)["tie_break"] == "extra_hand"
    higher_seed = seeded_tournament(4, knockout_tie="higher_seed")
    bracket_create(tournament=higher_seed, source="ratings")
    other = higher_seed.rounds.get(number=1).tables.get(number=1)
    assert "tie_break" not in table_rules(table=other)
    first.stage = Round.Stage.PAIRED
    assert "tie_break" not in table_rules(table=table)


def test_a_tie_at_time_is_played_off_hand_by_hand_and_the_winner_advances() -> None:
    tournament, first, organiser = _knockout()
    table = first.tables.get(number=1)
    match = match_for_table(table=table)
    _record(match, HAND_1, organiser)
    table_time_call(table_id=table.pk, user=organiser)
    match = _record(match, EVEN, organiser)
    with pytest.raises(ValidationError) as unfinished:
        match_finish(match=match, version=match.version, user=organiser)
    assert unfinished.value.code == "match_not_over"
    assert "ronde tambahan" in str(unfinished.value.messages[0])
    # Level when time is called: the match goes on, and no play of the next hand ends it.
    assert match.status != Match.Status.FINISHED and match.winners == []
    assert match_playing_off(match=match)
    answer = client_for(organiser).get(match_url(match.pk)).json()
    assert answer["playing_off"] is True and answer["finished"] is False
    assert answer["rules"]["tie_break"] == "extra_hand"
    match = _record(match, NOTHING, organiser)
    assert match.winners == [] and match_playing_off(match=match)
    match = _record(match, FIVE, organiser)
    assert match.status == Match.Status.FINISHED and match.winners == [0]
    assert not match_playing_off(match=match)
    assert client_for(organiser).get(match_url(match.pk)).json()["playing_off"] is False
    # The public scoresheet says the extra hands decided it, not the clock.
    sheet = Client().get(reverse("matches:public_scoresheet", args=[match.pk]))
    text = sheet.content.decode()
    assert "seri itu diselesaikan dengan ronde tambahan, dan ronde 4 menentukannya" in text
    assert "pertandingan berakhir setelah ronde 2" not in text
    table.refresh_from_db()
    assert not table.result.is_tie
    seat_zero = table.seats.get(number=0).entry
    second = first.tables.get(number=2)
    entries = [s.entry_id for s in second.seats.order_by("number")]
    sides = {s.entry_id: s.number for s in second.seats.all()}
    table_agreed_record(
        table_id=second.pk, totals={sides[entries[0]]: 50, sides[entries[1]]: 10}, user=None
    )
    round_close(round=first)
    assert bracket_matches_tied(tournament=tournament) == []
    bracket_advance(tournament=tournament)
    decided = BracketMatch.objects.get(table=table)
    assert decided.winner_id == seat_zero.pk
    assert seat_zero.seed in bracket_round(tournament, "main", 2)[0]


def test_in_the_play_off_a_play_past_the_target_does_not_end_the_hand_being_entered() -> None:
    _tournament, first, organiser = _knockout()
    table = first.tables.get(number=1)
    table.target = 20
    table.save()
    match = match_for_table(table=table)
    assert match.target == 20 and match.rules["targets"]["2"] == 20
    # 10 each, then time; both go past 20 in the extra hand, which still goes on.
    _record(match, tally(0, [[0, 10]], {"domino": 0}, {"1": 1}), organiser)
    table_time_call(table_id=table.pk, user=organiser)
    match = _record(match, tally(0, [[1, 10]], {"domino": 0}, {"1": 1}), organiser)
    assert match_playing_off(match=match)
    draft = tiles_draft(match=match, leader=0, moves=[{"seat": 0, "play": "5-5"}])
    assert draft.error is None and not draft.target_reached and draft.turn == 1
