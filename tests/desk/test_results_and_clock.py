"""The desk's results without hands and its round clock: each board button calls its
service (a walkover for the side present, named by its players; a double walkover; an
agreed score), the board marks such a result, a table with hands is replaced only after
an explicit confirmation, the clock starts and time is called for the round and at one
table, and every refusal is shown as the service words it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from desk.selectors import round_board
from desk.services import round_next
from league.models import ResultKind, Round, Table, TableResult, Tournament
from league.services.rounds import round_publish
from matches.models import Match
from tests.desk.conftest import OPENING_HAND, club_tournament, organiser_of, play
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def _url(name: str, tournament: Tournament) -> str:
    return reverse(f"desk:{name}", args=[tournament.slug])


def _post(client: Client, action: str, tournament: Tournament, **data: Any) -> list[str]:
    """Press a desk button; the admin messages the desk then shows."""
    response = client.post(_url(action, tournament), data, follow=True)
    assert response.redirect_chain[-1][1] == 302
    shown = [str(m) for m in response.context["messages"]]
    page = response.content.decode()
    assert all(escape(message) in page for message in shown)
    return shown


def _published(tournament: Tournament, capture: Any) -> Round:
    with capture(execute=True):
        round = round_next(tournament=tournament)
    round_publish(round=round)
    return round


def _names(table: Table, seat: int) -> str:
    return str(table.seats.get(number=seat).player)


# --- Results without hands ----------------------------------------------------------------


def test_the_board_offers_a_walkover_for_each_side_by_its_players_names(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = _published(tournament, django_capture_on_commit_callbacks)
    table = round.tables.get(number=1)
    page = desk.get(_url("desk", tournament)).content.decode()
    for seat in (0, 1):
        assert f"Catat WO: {escape(_names(table, seat))} hadir" in page
    assert "WO ganda" in page and "Skor disepakati" in page


def test_a_walkover_from_the_board_records_it_and_marks_the_board(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = _published(tournament, django_capture_on_commit_callbacks)
    table = round.tables.get(number=1)
    present = _names(table, 1)
    said = _post(desk, "result", tournament, round=1, table=1, kind="forfeit", side=1)
    assert said == [f"Meja 1: WO dicatat, {present} menang."]
    result = TableResult.objects.get(table=table)
    assert result.kind == ResultKind.FORFEIT
    assert {s.side: s.is_winner for s in result.sides.all()} == {0: False, 1: True}
    line = round_board(round=round).tables[0]
    assert (line.status, line.result_kind) == ("finished", "forfeit")
    page = desk.get(_url("desk", tournament)).content.decode()
    row = page[page.index('data-testid="desk-table-1"') : page.index('data-testid="desk-table-2"')]
    assert "menang WO" in row and "kalah WO" in row


def test_a_double_walkover_from_the_board_loses_for_every_side(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = _published(tournament, django_capture_on_commit_callbacks)
    said = _post(desk, "result", tournament, round=1, table=2, kind="double_forfeit")
    assert said == ["Meja 2: WO ganda dicatat, semua pihak kalah."]
    result = TableResult.objects.get(table__round=round, table__number=2)
    assert result.kind == ResultKind.DOUBLE_FORFEIT
    assert not any(s.is_winner for s in result.sides.all())
    assert round_board(round=round).tables[1].result_kind_label == "WO ganda"


def test_an_agreed_score_is_entered_on_the_tables_page_by_the_players_names(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = _published(tournament, django_capture_on_commit_callbacks)
    table = round.tables.get(number=1)
    form = desk.get(reverse("desk:table", args=[tournament.slug, 1])).content.decode()
    assert f"Total disepakati: {escape(_names(table, 0))}" in form
    said = _post(
        desk, "result", tournament, round=1, table=1, kind="agreed", total_0="45", total_1="30"
    )
    assert said == [
        f"Meja 1: skor disepakati dicatat ({_names(table, 0)} 45, {_names(table, 1)} 30)."
    ]
    result = TableResult.objects.get(table=table)
    assert result.kind == ResultKind.AGREED
    assert {s.side: s.points_x2 for s in result.sides.all()} == {0: 90, 1: 60}
    assert [side.total for side in round_board(round=round).tables[0].sides] == ["45", "30"]


def test_an_agreed_score_without_a_total_is_refused_naming_the_side(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = _published(tournament, django_capture_on_commit_callbacks)
    table = round.tables.get(number=1)
    response = desk.post(
        _url("result", tournament),
        {"round": 1, "table": 1, "kind": "agreed", "total_0": "45", "total_1": "tiga"},
        follow=True,
    )
    assert response.redirect_chain == [(reverse("desk:table", args=[tournament.slug, 1]), 302)]
    said = [str(m) for m in response.context["messages"]]
    assert said == [
        f"{_names(table, 1)}: isi total yang disepakati sebagai bilangan bulat mulai 0."
    ]
    assert not TableResult.objects.filter(table=table).exists()


def test_a_table_with_hands_asks_before_replacing_them_and_never_silently(
    desk: Client,
    tournament: Tournament,
    organiser: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    round = _published(tournament, django_capture_on_commit_callbacks)
    table = round.tables.get(number=1)
    play(table, organiser, [OPENING_HAND])
    # When the organiser records a walkover over the recorded hand
    asked = desk.post(
        _url("result", tournament), {"round": 1, "table": 1, "kind": "forfeit", "side": 0}
    )
    # Then nothing is recorded: the service's refusal is shown, with the choice to replace
    assert asked.status_code == 200
    page = asked.content.decode()
    assert "Meja 1 sudah punya ronde yang dicatat" in page
    assert 'name="replace_hands" value="1"' in page and 'data-testid="replace-cancel"' in page
    assert not TableResult.objects.filter(table=table).exists()
    assert Match.objects.get(table=table).hands_count == 1
    # And once they confirm, the hand is set aside and the walkover recorded
    said = _post(
        desk, "result", tournament, round=1, table=1, kind="forfeit", side=0, replace_hands="1"
    )
    assert said == [f"Meja 1: WO dicatat, {_names(table, 0)} menang."]
    assert TableResult.objects.get(table=table).kind == ResultKind.FORFEIT
    assert not Match.objects.filter(table=table).exists()


def test_a_result_without_hands_on_a_draft_round_is_refused_as_the_service_says(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        round_next(tournament=tournament)
    said = _post(desk, "result", tournament, round=1, table=1, kind="double_forfeit")
    assert len(said) == 1 and said[0].startswith("Putaran 1 masih draf")
    assert not TableResult.objects.exists()


def test_a_walkover_without_the_side_present_is_refused(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    _published(tournament, django_capture_on_commit_callbacks)
    said = _post(desk, "result", tournament, round=1, table=1, kind="forfeit")
    assert said == ["Pilih pihak yang hadir."]
    assert not TableResult.objects.exists()


def test_another_clubs_organiser_records_no_result_and_runs_no_clock(
    club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = club_tournament(club, time_limit=30)
    round = _published(tournament, django_capture_on_commit_callbacks)
    stranger = organiser_of(ClubFactory(name="Spinner Malang", city="Malang"), "malang")
    client = Client()
    client.force_login(stranger)
    data = {"round": 1, "table": 1, "kind": "double_forfeit"}
    assert client.post(_url("result", tournament), data).status_code == 403
    assert client.post(_url("clock_start", tournament), {"round": 1}).status_code == 403
    assert client.post(_url("time_call", tournament), {"round": 1}).status_code == 403
    assert client.get(reverse("desk:table", args=[tournament.slug, 1])).status_code == 403
    round.refresh_from_db()
    assert not TableResult.objects.exists()
    assert round.clock_started_at is None and round.time_called_at is None


def test_a_result_without_the_csrf_token_is_refused(
    organiser: Any, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    _published(tournament, django_capture_on_commit_callbacks)
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    data = {"round": 1, "table": 1, "kind": "double_forfeit"}
    assert client.post(_url("result", tournament), data).status_code == 403
    assert not TableResult.objects.exists()


# --- The round clock ----------------------------------------------------------------------


@pytest.fixture
def timed(club: Any) -> Tournament:
    return club_tournament(club, time_limit=30)


def test_without_a_time_limit_the_desk_shows_no_clock(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    _published(tournament, django_capture_on_commit_callbacks)
    page = desk.get(_url("desk", tournament)).content.decode()
    assert 'data-testid="clock"' not in page and "Panggil waktu" not in page
    said = _post(desk, "clock_start", tournament, round=1)
    assert said == ["Aturan main turnamen ini tidak punya batas waktu per putaran."]


def test_start_the_clock_calls_the_service_and_the_desk_counts_down(
    desk: Client, timed: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = _published(timed, django_capture_on_commit_callbacks)
    before = desk.get(_url("desk", timed)).content.decode()
    assert "Jam putaran: 30 menit" in before and 'data-testid="clock-start"' in before
    said = _post(desk, "clock_start", timed, round=1)
    assert said == ["Jam putaran 1 berjalan: 30 menit."]
    round.refresh_from_db()
    assert round.clock_started_at is not None
    page = desk.get(_url("desk", timed)).content.decode()
    assert 'data-clock-seconds="' in page and "clock.js" in page
    assert 'data-testid="clock-start"' not in page
    again = _post(desk, "clock_start", timed, round=1)
    assert again == ["Jam putaran 1 sudah berjalan."]


def test_call_time_for_the_round_calls_it_at_every_unfinished_table(
    desk: Client, timed: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    round = _published(timed, django_capture_on_commit_callbacks)
    play(round.tables.get(number=1), organiser, [OPENING_HAND])
    _post(desk, "clock_start", timed, round=1)
    said = _post(desk, "time_call", timed, round=1)
    assert said == [
        "Waktu dipanggil untuk putaran 1: meja 1, 2 menyelesaikan ronde yang sedang dimainkan."
    ]
    round.refresh_from_db()
    assert round.time_called_at is not None
    assert {
        m.table.number: m.time_called_after for m in Match.objects.filter(table__round=round)
    } == {1: 2, 2: 1}
    page = desk.get(_url("desk", timed)).content.decode()
    assert "Waktu sudah dipanggil" in page
    assert "Waktu dipanggil: ronde 2 yang terakhir" in page


def test_call_time_at_one_table_calls_it_there_only(
    desk: Client, timed: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = _published(timed, django_capture_on_commit_callbacks)
    said = _post(desk, "time_call", timed, round=1, table=2)
    assert said == ["Waktu dipanggil di meja 2: ronde yang sedang dimainkan adalah yang terakhir."]
    called = {m.table.number: m.time_called_after for m in Match.objects.filter(table__round=round)}
    assert called == {2: 1}
    round.refresh_from_db()
    assert round.time_called_at is None


def test_call_time_at_a_finished_table_is_refused(
    desk: Client, timed: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    _published(timed, django_capture_on_commit_callbacks)
    _post(desk, "result", timed, round=1, table=1, kind="double_forfeit")
    said = _post(desk, "time_call", timed, round=1, table=1)
    assert said == ["Meja 1 sudah punya hasil."]


def test_the_clock_cannot_start_on_a_draft_round(
    desk: Client, timed: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        round_next(tournament=timed)
    said = _post(desk, "clock_start", timed, round=1)
    assert len(said) == 1 and said[0].startswith("Jam putaran 1 bisa dimulai")


def test_the_projector_and_its_data_show_the_time_left(
    desk: Client, timed: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    _published(timed, django_capture_on_commit_callbacks)
    waiting = Client().get(_url("projector_live", timed)).content.decode()
    assert "Jam putaran: 30 menit, belum dimulai" in waiting
    _post(desk, "clock_start", timed, round=1)
    page = Client().get(_url("projector", timed)).content.decode()
    assert "Sisa waktu" in page and 'data-clock-seconds="' in page and "clock.js" in page
    live = Client().get(_url("projector_live", timed)).content.decode()
    assert 'data-clock-seconds="' in live
    _post(desk, "time_call", timed, round=1)
    called = Client().get(_url("projector_live", timed)).content.decode()
    assert "Waktu dipanggil: selesaikan ronde yang sedang dimainkan" in called
