"""The knockout at the organiser's desk: starting it after a closed round (seeded from
the standings, a top cut, third place, plate), 'next round' advancing the winners
instead of pairing, a tied table's extra hand recorded by a button, and the end."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from desk.services import round_next
from knockout.models import Bracket, BracketMatch
from league.models import Entry, Round, Tournament
from league.services.results import table_agreed_record
from league.services.rounds import round_close, round_publish
from tests.desk.conftest import WINNING_HAND, club_tournament, play

pytestmark = pytest.mark.django_db


def _url(name: str, tournament: Tournament) -> str:
    return reverse(f"desk:{name}", args=[tournament.slug])


def _post(client: Client, action: str, tournament: Tournament, **data: Any) -> list[str]:
    response = client.post(_url(action, tournament), data, follow=True)
    assert response.redirect_chain == [(_url("desk", tournament), 302)]
    shown = [str(m) for m in response.context["messages"]]
    page = response.content.decode()
    assert all(escape(message) in page for message in shown)
    return shown


def _swiss_round_played(tournament: Tournament, organiser: Any, capture: Any) -> None:
    with capture(execute=True):
        round = round_next(tournament=tournament)
    assert round is not None
    round_publish(round=round)
    for table in round.tables.all():
        play(table, organiser, [WINNING_HAND])
    round_close(round=round)


def _close_with(round: Round, totals: dict[int, dict[int, int]]) -> None:
    round_publish(round=round)
    for table in round.tables.all():
        table_agreed_record(table_id=table.pk, totals=totals[table.number], user=None)
    round_close(round=round)


def test_the_desk_offers_the_knockout_after_a_closed_round_and_starts_it(
    desk: Client, club: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = club_tournament(club, players=6, rounds_count=4)
    _swiss_round_played(tournament, organiser, django_capture_on_commit_callbacks)
    page = desk.get(_url("desk", tournament)).content.decode()
    assert 'data-testid="knockout-start"' in page and "Mulai babak gugur" in page
    said = _post(desk, "knockout_start", tournament, source="standings", cut="4", third_place="on")
    assert said == [
        "Unggulan babak gugur sudah ditentukan: putaran 2 sudah diundi, umumkan bila sudah siap."
    ]
    bracket = Bracket.objects.get(tournament=tournament)
    assert bracket.field_count == 4 and bracket.has_third_place and not bracket.has_plate
    second = tournament.rounds.get(number=2)
    assert second.is_knockout and second.tables.count() == 2
    page = desk.get(_url("desk", tournament)).content.decode()
    assert 'data-testid="knockout-start"' not in page
    assert 'data-testid="desk-bracket-link"' in page


def test_a_refused_start_is_shown_as_the_service_words_it(
    desk: Client, club: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = club_tournament(club, players=4, rounds_count=2)
    _swiss_round_played(tournament, organiser, django_capture_on_commit_callbacks)
    said = _post(desk, "knockout_start", tournament, source="standings", cut="8")
    assert said == ["8 peserta teratas memerlukan 8 peserta; yang bermain 4."]
    assert not Bracket.objects.filter(tournament=tournament).exists()


def test_next_round_advances_the_winners_and_a_tie_waits_for_the_extra_hand(
    desk: Client, club: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = club_tournament(club, players=4, rounds_count=3)
    _swiss_round_played(tournament, organiser, django_capture_on_commit_callbacks)
    _post(desk, "knockout_start", tournament, source="ratings")
    semis = tournament.rounds.get(number=2)
    # Table 1 is tied, table 2 won by its first seat.
    _close_with(semis, {1: {0: 40, 1: 40}, 2: {0: 50, 1: 30}})
    page = desk.get(_url("desk", tournament)).content.decode()
    assert "Loloskan pemenang ke putaran 3" in page
    assert 'data-testid="knockout-ties"' in page
    # (the extra hand's buttons are the next step, not "next round", which is refused)
    assert 'class="button" data-testid="next"' in page
    said = _post(desk, "next", tournament)
    assert said == ["Meja 1 seri: catat dulu siapa yang memenangi ronde tambahan."]
    assert tournament.rounds.count() == 2
    tied = BracketMatch.objects.get(table__round=semis, table__number=1)
    second_seat = semis.tables.get(number=1).seats.get(number=1).entry
    said = _post(desk, "knockout_decide", tournament, match=tied.pk, entry=second_seat.pk)
    assert said == [f"{second_seat.display_name} memenangi ronde tambahan dan lolos."]
    page = desk.get(_url("desk", tournament)).content.decode()
    assert 'class="button default" data-testid="next"' in page
    said = _post(desk, "next", tournament)
    assert said == ["Putaran 3 sudah diundi dari bagan: umumkan bila sudah siap."]
    final = tournament.rounds.get(number=3)
    assert final.is_knockout
    finalists = {s.entry_id for s in final.tables.get().seats.all()}
    winner_2 = semis.tables.get(number=2).seats.get(number=0).entry_id
    assert finalists == {second_seat.pk, winner_2}
    _close_with(final, {1: {0: 50, 1: 10}})
    said = _post(desk, "next", tournament)
    assert said == ["Babak gugur selesai: semua pertandingan sudah ditentukan."]
    champion = BracketMatch.objects.get(table__round=final).winner
    assert champion is not None and champion.pk == final.tables.get().seats.get(number=0).entry_id


def test_an_extra_hand_for_another_tournaments_match_is_not_found(
    desk: Client, club: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = club_tournament(club, players=4, rounds_count=3)
    other = club_tournament(club, players=2, rounds_count=1)
    _post(desk, "knockout_start", other, source="ratings")
    match = BracketMatch.objects.get(bracket__tournament=other)
    entry = Entry.objects.filter(tournament=tournament).first()
    assert entry is not None
    response = desk.post(
        _url("knockout_decide", tournament), {"match": match.pk, "entry": entry.pk}
    )
    assert response.status_code == 404


def test_a_knockout_draft_round_offers_publishing_and_taking_back_but_no_pairing(
    desk: Client, club: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Given a knockout of four whose semi-finals are drafted as round 2
    tournament = club_tournament(club, players=4, rounds_count=3)
    _swiss_round_played(tournament, organiser, django_capture_on_commit_callbacks)
    _post(desk, "knockout_start", tournament, source="ratings")
    # When the organiser opens the desk
    page = desk.get(_url("desk", tournament)).content.decode()
    # Then it offers publishing the round and taking the knockout back, not pairing it,
    # and says why in the pairing service's words
    assert 'data-testid="pair"' not in page and "Pasangkan ulang putaran 2" not in page
    assert 'data-testid="publish"' in page and 'data-testid="knockout-undo"' in page
    assert 'data-testid="pair-refused"' in page
    assert escape("Ini putaran babak gugur: mejanya berasal dari bagan") in page
    # And once the semi-finals are played and the final drafted, still no pairing, and
    # no taking back either (a round of the knockout was published): publishing only
    semis = tournament.rounds.get(number=2)
    _close_with(semis, {1: {0: 50, 1: 30}, 2: {0: 50, 1: 30}})
    _post(desk, "next", tournament)
    assert tournament.rounds.get(number=3).status == Round.Status.DRAFT
    page = desk.get(_url("desk", tournament)).content.decode()
    assert 'data-testid="pair"' not in page and 'data-testid="knockout-undo"' not in page
    assert 'data-testid="publish"' in page and 'data-testid="pair-refused"' in page


def test_a_paired_draft_round_still_offers_pairing_again(
    desk: Client, club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Given a Swiss round paired as a draft
    tournament = club_tournament(club, players=4, rounds_count=3)
    with django_capture_on_commit_callbacks(execute=True):
        round_next(tournament=tournament)
    # When the organiser opens the desk, then it offers pairing it again, with no refusal
    page = desk.get(_url("desk", tournament)).content.decode()
    assert 'data-testid="pair"' in page and "Pasangkan ulang putaran 1" in page
    assert 'data-testid="pair-refused"' not in page


def test_the_knockout_form_follows_the_desks_language(
    desk: Client, club: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Given a tournament whose Swiss round is closed, so the desk offers the knockout
    tournament = club_tournament(club, players=4, rounds_count=3)
    _swiss_round_played(tournament, organiser, django_capture_on_commit_callbacks)
    # When the organiser opens the desk in English, and in Indonesian
    with translation.override("en"):
        english = desk.get(_url("desk", tournament)).content.decode()
    indonesian = desk.get(_url("desk", tournament)).content.decode()
    # Then the knockout form's labels and choices are in that language
    for text in ("Seed from", "the standings so far", "every entry", "the top 8"):
        assert text in english, text
    assert "Unggulan menurut" in indonesian and "8 teratas" in indonesian
    assert "Seed from" not in indonesian and "the top 8" not in indonesian


@pytest.mark.parametrize("rounds_count", [3, 4])
def test_after_the_final_the_desk_records_the_winners_once_and_names_the_champion(
    desk: Client,
    club: Any,
    organiser: Any,
    django_capture_on_commit_callbacks: Any,
    rounds_count: int,
) -> None:
    # Given a top four after one Swiss round, in a tournament of exactly the rounds it
    # needs (3) or of one more (4), whose final and third-place match are closed
    tournament = club_tournament(club, players=6, rounds_count=rounds_count)
    _swiss_round_played(tournament, organiser, django_capture_on_commit_callbacks)
    _post(desk, "knockout_start", tournament, source="standings", cut="4", third_place="on")
    _close_with(tournament.rounds.get(number=2), {1: {0: 50, 1: 30}, 2: {0: 50, 1: 30}})
    page = desk.get(_url("desk", tournament)).content.decode()
    assert "Loloskan pemenang ke putaran 3" in page
    _post(desk, "next", tournament)
    final = tournament.rounds.get(number=3)
    _close_with(final, {1: {0: 50, 1: 10}, 2: {0: 50, 1: 20}})
    # When the organiser opens the desk
    page = desk.get(_url("desk", tournament)).content.decode()
    # Then it offers to record the last round's winners, not a round 4 nor "every round
    # is played" while the final is undecided
    assert "Catat pemenang putaran 3: babak gugur selesai" in page
    assert "putaran 4" not in page and "Semua putaran sudah dimainkan" not in page
    # And pressing it decides the final and the third-place match
    said = _post(desk, "next", tournament)
    assert said == ["Babak gugur selesai: semua pertandingan sudah ditentukan."]
    assert not BracketMatch.objects.filter(
        bracket__tournament=tournament, winner__isnull=True
    ).exists()
    assert tournament.rounds.count() == 3
    # And the desk then names the champion and offers no button that leads nowhere
    champion = final.tables.get(number=1).seats.get(number=0).entry
    page = desk.get(_url("desk", tournament)).content.decode()
    assert 'data-testid="next"' not in page
    assert f"Babak gugur selesai: {escape(champion.display_name)} juaranya." in page


def test_the_desks_board_names_each_knockout_tables_stage(
    desk: Client, club: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Given a Swiss round played, then a top four with a third-place match
    tournament = club_tournament(club, players=6, rounds_count=3)
    _swiss_round_played(tournament, organiser, django_capture_on_commit_callbacks)
    swiss = desk.get(_url("desk", tournament)).content.decode()
    assert 'data-testid="desk-table-1"' in swiss and 'data-testid="stage-' not in swiss
    _post(desk, "knockout_start", tournament, source="standings", cut="4", third_place="on")
    page = desk.get(_url("desk", tournament)).content.decode()
    assert re.findall(r'data-testid="stage-(\d+)">([^<]*)<', page) == [
        ("1", "Semifinal"),
        ("2", "Semifinal"),
    ]
    _close_with(tournament.rounds.get(number=2), {1: {0: 50, 1: 30}, 2: {0: 50, 1: 30}})
    # When the final and the third-place match are drawn as round 3
    _post(desk, "next", tournament)
    page = desk.get(_url("desk", tournament)).content.decode()
    # Then the board tells the organiser which table is the final, in Indonesian
    stages = dict(re.findall(r'data-testid="stage-(\d+)">([^<]*)<', page))
    assert stages == {"1": "Final", "2": "Tempat ketiga"}
