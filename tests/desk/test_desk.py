"""The organiser's desk: who opens it, the round's actions (each through its service,
each refusal shown as the service words it), the board's statuses, late arrivals,
check-in and withdrawals."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from desk.selectors import round_board
from desk.services import round_next
from entrants.models import Application, Notification, SignUp
from entrants.services.applications import application_submit
from league.models import Entry, Player, Round, Table, Tournament
from league.services.registration import entry_check_in, entry_withdraw
from league.services.rounds import round_close, round_create, round_publish
from matches.services.hands import hand_dispute
from matches.services.lifecycle import match_for_table
from matches.services.offline import device_queue_report
from tests.desk.conftest import (
    FINISHING_HAND,
    OPENING_HAND,
    WINNING_HAND,
    club_tournament,
    organiser_of,
    play,
)
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def _url(name: str, tournament: Tournament) -> str:
    return reverse(f"desk:{name}", args=[tournament.slug])


def _post(client: Client, action: str, tournament: Tournament, **data: Any) -> list[str]:
    """Press a desk button; the admin messages the desk then shows."""
    response = client.post(_url(action, tournament), data, follow=True)
    assert response.redirect_chain == [(_url("desk", tournament), 302)]
    shown = [str(m) for m in response.context["messages"]]
    page = response.content.decode()
    assert all(escape(message) in page for message in shown)
    return shown


def _paired(tournament: Tournament, capture: Any) -> Round:
    with capture(execute=True):
        return round_next(tournament=tournament)


# --- Who opens the desk -------------------------------------------------------------------


def test_the_clubs_organiser_opens_the_desk_in_indonesian(
    desk: Client, tournament: Tournament
) -> None:
    response = desk.get(_url("desk", tournament))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Meja turnamen" in page
    assert "Mulai putaran 1 dan pasangkan" in page
    assert "Budi Santoso" in page  # the entries, by name
    assert 'id="site-name"' in page  # the admin's own header


def test_the_desk_links_to_the_tournaments_sign_up_applications(
    desk: Client, tournament: Tournament
) -> None:
    # Given the desk of a tournament
    page = desk.get(_url("desk", tournament)).content.decode()
    # Then it links to that tournament's applications, which the organiser may open
    link = re.search(r'href="([^"]+)" data-testid="applications-link">([^<]+)<', page)
    assert link is not None
    assert link.group(2) == "Pendaftaran: setujui atau tolak"
    response = desk.get(link.group(1).replace("&amp;", "&"))
    assert response.status_code == 200


def test_the_desk_follows_the_admins_language_switch_to_english(
    desk: Client, tournament: Tournament
) -> None:
    from django.utils import translation

    with translation.override("en"):
        url = _url("desk", tournament)
    assert url.startswith("/en/admin/")
    page = desk.get(url).content.decode()
    assert "Tournament desk: " in page and "Start round 1 and pair it" in page
    assert "Meja turnamen" not in page


def test_another_clubs_organiser_is_refused_with_a_page(tournament: Tournament) -> None:
    stranger = organiser_of(ClubFactory(name="Spinner Malang", city="Malang"), "malang")
    client = Client()
    client.force_login(stranger)
    response = client.get(_url("desk", tournament))
    assert response.status_code == 403
    assert "Hanya penyelenggara" in response.content.decode()
    # and none of its actions work either
    refused = client.post(_url("next", tournament))
    assert refused.status_code == 403
    assert not tournament.rounds.exists()


def test_a_signed_in_player_without_the_admin_is_sent_to_the_admin_sign_in(
    tournament: Tournament,
) -> None:
    client = Client()
    client.force_login(UserFactory(username="pemain"))
    response = client.get(_url("desk", tournament))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_an_unknown_tournament_is_not_found(desk: Client) -> None:
    assert desk.get(reverse("desk:desk", args=["tidak-ada"])).status_code == 404


def test_the_admin_index_and_the_tournament_page_link_to_the_desk(
    desk: Client, tournament: Tournament
) -> None:
    index = desk.get(reverse("admin:index")).content.decode()
    assert _url("desk", tournament) in index
    change = desk.get(reverse("admin:league_tournament_change", args=[tournament.pk]))
    assert change.status_code == 200
    assert _url("desk", tournament) in change.content.decode()


def test_the_index_lists_no_desk_of_another_club(tournament: Tournament) -> None:
    stranger = organiser_of(ClubFactory(name="Spinner Malang", city="Malang"), "malang")
    client = Client()
    client.force_login(stranger)
    assert _url("desk", tournament) not in client.get(reverse("admin:index")).content.decode()


# --- The round's actions ------------------------------------------------------------------


def test_next_round_creates_round_one_and_pairs_it(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        said = _post(desk, "next", tournament)
    round = tournament.rounds.get()
    assert round.number == 1 and round.status == Round.Status.DRAFT
    assert round.tables.count() == 2  # four players, two-player tables
    assert said == ["Putaran 1 sudah dibuat dan pemasangannya dimulai."]
    page = desk.get(_url("desk", tournament)).content.decode()
    body = page[page.index("<body") :]
    assert "Laporan kualitas" in body  # the quality report, as a table
    assert '{"' not in body and "table_count" not in body


def test_next_round_is_refused_while_the_round_is_not_closed(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    _paired(tournament, django_capture_on_commit_callbacks)
    said = _post(desk, "next", tournament)
    assert said == ["Putaran 1 belum ditutup: tutup dulu sebelum memulai putaran berikutnya."]
    assert tournament.rounds.count() == 1


def test_next_round_is_refused_once_every_round_is_played(
    desk: Client, club: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = club_tournament(club, rounds_count=1)
    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    for table in round.tables.all():
        play(table, organiser, [WINNING_HAND])
    round_close(round=round)
    said = _post(desk, "next", tournament)
    assert said == ["Turnamen ini sudah punya semua 1 putarannya: tidak ada putaran berikutnya."]
    assert tournament.rounds.count() == 1


def test_next_round_after_a_closed_round_pairs_round_two(
    desk: Client,
    tournament: Tournament,
    organiser: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    for table in round.tables.all():
        play(table, organiser, [WINNING_HAND])
    assert _post(desk, "close", tournament, round=1) == ["Putaran 1 sudah ditutup."]
    with django_capture_on_commit_callbacks(execute=True):
        _post(desk, "next", tournament)
    second = tournament.rounds.get(number=2)
    assert second.tables.count() == 2


def test_pair_calls_the_pairing_and_shows_its_refusal(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = round_create(tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        assert _post(desk, "pair", tournament, round=1) == ["Putaran 1: pemasangan dimulai."]
    assert round.tables.count() == 2
    round_publish(round=round)
    said = _post(desk, "pair", tournament, round=1)
    assert len(said) == 1 and said[0].startswith("Hanya putaran draf yang bisa dipasangkan")


def test_publish_calls_the_service_and_shows_its_refusal(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = round_create(tournament=tournament)
    assert _post(desk, "publish", tournament, round=1) == ["Putaran ini belum punya meja."]
    with django_capture_on_commit_callbacks(execute=True):
        _post(desk, "pair", tournament, round=1)
    said = _post(desk, "publish", tournament, round=1)
    assert said == ["Putaran 1 sudah diterbitkan: mejanya boleh mulai bermain."]
    round.refresh_from_db()
    assert round.status == Round.Status.PUBLISHED


def test_close_is_refused_naming_the_unfinished_tables_and_their_players(
    desk: Client,
    tournament: Tournament,
    organiser: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    first, second = round.tables.order_by("number")
    play(first, organiser, [WINNING_HAND])
    names = ", ".join(str(s.player) for s in second.seats.order_by("number"))
    said = _post(desk, "close", tournament, round=1)
    assert said == [f"1 meja belum menyelesaikan pertandingannya: meja 2: {names}."]
    round.refresh_from_db()
    assert round.status == Round.Status.PUBLISHED


def test_round_close_names_every_unfinished_table_in_english_too(
    tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    from django.utils import translation

    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        round_close(round=round)
    assert refused.value.code == "tables_unfinished"
    message = refused.value.messages[0]
    assert message.startswith("2 tables have not finished their match: table 1: ")
    assert "; table 2: " in message


def test_an_action_on_a_round_of_another_tournament_is_not_found(
    desk: Client, tournament: Tournament
) -> None:
    other = club_tournament(ClubFactory(name="Spinner Malang", city="Malang"))
    round_create(tournament=other)
    assert desk.post(_url("publish", tournament), {"round": 1}).status_code == 404


def test_actions_take_posts_only(desk: Client, tournament: Tournament) -> None:
    assert desk.get(_url("next", tournament)).status_code == 405
    assert not tournament.rounds.exists()


def test_an_action_without_the_csrf_token_is_refused(
    organiser: Any, tournament: Tournament
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    assert client.post(_url("next", tournament)).status_code == 403
    assert not tournament.rounds.exists()


# --- The board ----------------------------------------------------------------------------


def test_the_board_follows_each_table_from_not_started_to_finished(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    first, second = round.tables.order_by("number")
    board = round_board(round=round)
    assert [t.status for t in board.tables] == ["scheduled", "scheduled"]
    assert [s.number for side in board.tables[0].sides for s in side.seats] == [1, 2]
    assert board.is_live
    play(first, organiser, [OPENING_HAND])
    board = round_board(round=round)
    playing = board.tables[0]
    assert (playing.status, playing.hands_count, playing.minutes_since_hand) == ("playing", 1, 0)
    assert [side.total for side in playing.sides] == ["15", "5"]
    assert playing.scoresheet_url is not None
    play(first, organiser, [FINISHING_HAND])
    play(second, organiser, [WINNING_HAND])
    board = round_board(round=round)
    assert [t.status for t in board.tables] == ["finished", "finished"]
    assert [side.is_winner for side in board.tables[0].sides] == [True, False]
    assert not board.is_live


def test_the_board_shows_a_disputed_table_and_one_waiting_for_confirmation(
    club: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = club_tournament(club, requires_confirmation=True)
    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    first, second = round.tables.order_by("number")
    play(first, organiser, [OPENING_HAND])
    match = play(second, organiser, [OPENING_HAND])
    other_side = UserFactory(username="pencatat")
    tournament.scorekeepers.add(other_side)
    hand_dispute(match=match, number=1, version=match.version, user=other_side)
    statuses = {t.number: t.status for t in round_board(round=round).tables}
    assert statuses == {1: "confirming", 2: "disputed"}


def test_the_board_shows_a_table_whose_phone_is_offline_since_its_oldest_waiting_hand(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    # Given a published round whose table 2's phone reported, on reconnecting a moment,
    # two hands kept since 14.02 (Jakarta) that it could not send yet
    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    second = round.tables.get(number=2)
    device_queue_report(
        match=match_for_table(table=second),
        device="telepon-meja-2",
        queued_count=2,
        offline_since=datetime(2026, 12, 1, 7, 2, tzinfo=UTC),
    )
    # When the organiser looks at the board
    fragment = desk.get(_url("board", tournament)).content.decode()
    # Then table 2, and only table 2, reads as offline since 14.02 with two hands waiting
    note = re.search(r'data-testid="offline-(\d+)">([^<]+)<', fragment)
    assert note is not None
    assert int(note.group(1)) == second.pk
    assert note.group(2) == "Offline sejak 14.02 · 2 ronde menunggu di ponsel meja"
    assert fragment.count('data-testid="offline-') == 1
    # And once the phone has sent them, the note goes
    device_queue_report(
        match=match_for_table(table=second),
        device="telepon-meja-2",
        queued_count=0,
        offline_since=None,
    )
    assert 'data-testid="offline-' not in desk.get(_url("board", tournament)).content.decode()


def test_the_board_fragment_polls_while_tables_play_and_reads_in_indonesian(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round = _paired(tournament, django_capture_on_commit_callbacks)
    draft = desk.get(_url("board", tournament)).content.decode()
    assert "hx-trigger" not in draft  # a draft is not played: nothing to refresh
    round_publish(round=round)
    fragment = desk.get(_url("board", tournament)).content.decode()
    assert 'hx-trigger="every 10s"' in fragment
    assert "Belum dimulai" in fragment
    assert "kursi 1" in fragment
    assert "Tautan meja" in fragment


def test_the_progress_fragment_polls_while_queued_and_asks_for_a_reload_when_done(
    desk: Client, tournament: Tournament
) -> None:
    from pairing.services.progress import round_pair_progress_record

    round = round_create(tournament=tournament)
    url = reverse("desk:progress", args=[tournament.slug, round.number])
    round_pair_progress_record(round_id=round.pk, state="running", done=1, total=4)
    polling = desk.get(url, headers={"HX-Request": "true"})
    assert 'hx-trigger="load delay:1s"' in polling.content.decode()
    assert "HX-Refresh" not in polling
    round_pair_progress_record(round_id=round.pk, state="done", done=4, total=4)
    done = desk.get(url, headers={"HX-Request": "true"})
    assert done["HX-Refresh"] == "true"


# --- Late arrivals, check-in, withdrawals -------------------------------------------------


def test_a_late_arrival_is_entered_by_a_new_name(desk: Client, tournament: Tournament) -> None:
    said = _post(desk, "entry_add", tournament, name="Gita Permata")
    assert said == ["Gita Permata sudah terdaftar."]
    entry = Entry.objects.get(tournament=tournament, player__name="Gita Permata")
    assert entry.player is not None and entry.player.home_club == tournament.club
    assert entry.members.count() == 1


def test_a_late_arrival_may_be_a_registered_player_of_the_club(
    desk: Client, tournament: Tournament, club: Any
) -> None:
    from league.services.registration import player_create

    player = player_create(name="Hadi Wijaya", home_club=club)
    assert "Hadi Wijaya" in desk.get(_url("desk", tournament)).content.decode()
    _post(desk, "entry_add", tournament, player=player.pk)
    assert Entry.objects.filter(tournament=tournament, player=player).exists()


def test_a_late_arrival_refused_creates_no_player(desk: Client, tournament: Tournament) -> None:
    before = Player.objects.count()
    said = _post(desk, "entry_add", tournament)
    assert said == ["Pilih pemain terdaftar atau ketik nama pemain baru."]
    tournament.status = Tournament.Status.FINISHED
    tournament.save()
    said = _post(desk, "entry_add", tournament, name="Indra Kusuma")
    assert said == ["Turnamen sudah selesai."]
    assert Player.objects.count() == before


def test_a_late_partnership_is_made_and_entered(desk: Client, club: Any) -> None:
    tournament = club_tournament(
        club, players=0, format=Tournament.Format.FIXED_PARTNERSHIP, table_size="4"
    )
    _post(desk, "entry_add", tournament, name="Joko", partner_name="Kartini")
    entry = Entry.objects.get(tournament=tournament)
    assert entry.partnership is not None
    assert sorted(p.name for p in entry.partnership.players) == ["Joko", "Kartini"]
    assert entry.members.count() == 2


def test_check_in_toggles_and_the_desk_lists_who_is_not_checked_in(
    desk: Client, tournament: Tournament
) -> None:
    entry = Entry.objects.get(tournament=tournament, player__name="Budi Santoso")
    said = _post(desk, "check_in", tournament, entry=entry.pk, checked_in="0")
    assert said == ["Budi Santoso ditandai tidak hadir."]
    entry.refresh_from_db()
    assert not entry.is_checked_in
    page = desk.get(_url("desk", tournament)).content.decode()
    assert "Belum hadir:</strong> Budi Santoso" in page
    _post(desk, "check_in", tournament, entry=entry.pk, checked_in="1")
    entry.refresh_from_db()
    assert entry.is_checked_in


def test_withdraw_calls_the_service_and_shows_its_refusal(
    desk: Client, tournament: Tournament
) -> None:
    entry = Entry.objects.get(tournament=tournament, player__name="Siti Rahma")
    said = _post(desk, "withdraw", tournament, entry=entry.pk)
    assert said == ["Siti Rahma sudah mundur: tidak akan dipasangkan lagi."]
    entry.refresh_from_db()
    assert entry.is_withdrawn and entry.withdrawn_round == 1
    again = _post(desk, "withdraw", tournament, entry=entry.pk)
    assert again == ["Siti Rahma sudah mundur."]


def test_an_entry_of_another_tournament_is_not_found(desk: Client, tournament: Tournament) -> None:
    other = club_tournament(ClubFactory(name="Spinner Malang", city="Malang"))
    foreign = Entry.objects.filter(tournament=other).first()
    assert foreign is not None
    response = desk.post(_url("withdraw", tournament), {"entry": foreign.pk})
    assert response.status_code == 404
    foreign.refresh_from_db()
    assert not foreign.is_withdrawn


def test_entry_check_in_service_refuses_a_withdrawn_entry(tournament: Tournament) -> None:
    entry = Entry.objects.filter(tournament=tournament).first()
    assert entry is not None
    entry_check_in(entry=entry, checked_in=False)
    entry_withdraw(entry=entry)
    with pytest.raises(ValidationError) as refused:
        entry_check_in(entry=entry, checked_in=True)
    assert refused.value.code == "withdrawn"
    entry.refresh_from_db()
    assert not entry.is_checked_in


def test_a_checked_out_entry_is_not_paired_on_a_league_night(
    desk: Client, club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = club_tournament(club, players=6, format=Tournament.Format.LEAGUE_NIGHT)
    absent = Entry.objects.filter(tournament=tournament).order_by("pk")[:2]
    for entry in absent:
        _post(desk, "check_in", tournament, entry=entry.pk, checked_in="0")
    with django_capture_on_commit_callbacks(execute=True):
        _post(desk, "next", tournament)
    seated = set(
        Table.objects.filter(round__tournament=tournament).values_list("seats__entry", flat=True)
    )
    assert seated and not seated & {e.pk for e in absent}


def test_a_tables_links_open_in_the_admin_filtered_to_that_table(
    desk: Client, tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from matches.services.links import round_links_issue

    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    round_links_issue(round=round, user=organiser)
    table = round_board(round=round).tables[0]
    response = desk.get(table.links_url)
    assert response.status_code == 200  # not the admin's "?e=1" for a refused filter
    assert response.context["cl"].result_count == 2  # the two sides of that one table


def test_my_tables_links_an_organiser_to_the_desks(desk: Client, tournament: Tournament) -> None:
    page = desk.get(reverse("matches:my_tables")).content.decode()
    assert _url("desk", tournament) in page
    scorer = UserFactory(username="pencatat")
    tournament.scorekeepers.add(scorer)
    client = Client()
    client.force_login(scorer)
    assert _url("desk", tournament) not in client.get(reverse("matches:my_tables")).content.decode()


# --- Sign-up applications -------------------------------------------------------------------


def test_the_organiser_approves_and_declines_sign_ups_on_the_desk(
    desk: Client, tournament: Tournament
) -> None:
    # Given two sign-ups waiting, and one for another tournament
    SignUp.objects.create(tournament=tournament, is_open=True)
    budi, _key = application_submit(tournament=tournament, name="Budi Prakoso")
    siti, _key = application_submit(tournament=tournament, name="Siti Aminah")
    other = club_tournament(tournament.club, name="Piala Lain", slug="piala-lain")
    SignUp.objects.create(tournament=other, is_open=True)
    elsewhere, _key = application_submit(tournament=other, name="Wulan Anggraini")
    # When the organiser opens the desk
    page = desk.get(_url("desk", tournament)).content.decode()
    # Then both wait there, with their buttons, in Indonesian; the other tournament's not
    assert "2 pendaftaran menunggu keputusan Anda" in page
    assert "Budi Prakoso" in page and "Siti Aminah" in page and "Wulan Anggraini" not in page
    assert "Setujui" in page and "Tolak" in page
    # When they approve one and decline the other
    approved = _post(
        desk, "application_decide", tournament, application=budi.pk, decision="approve"
    )
    declined = _post(
        desk, "application_decide", tournament, application=siti.pk, decision="decline"
    )
    # Then the desk says so, the approved one has an entry, and neither waits any more
    assert approved == [
        "Budi Prakoso disetujui: pesertanya menunggu daftar ulang di hari pertandingan."
    ]
    assert declined == ["Siti Aminah ditolak."]
    budi.refresh_from_db()
    siti.refresh_from_db()
    assert budi.status == Application.Status.APPROVED and budi.entry is not None
    assert siti.status == Application.Status.DECLINED and siti.entry is None
    assert 'data-testid="applications"' not in desk.get(_url("desk", tournament)).content.decode()
    # And another tournament's application cannot be decided from this desk
    response = desk.post(
        _url("application_decide", tournament),
        {"application": elsewhere.pk, "decision": "approve"},
    )
    assert response.status_code == 404
    elsewhere.refresh_from_db()
    assert elsewhere.status == Application.Status.PENDING


def test_an_approval_past_the_cap_is_refused_on_the_desk_in_the_services_words(
    desk: Client, tournament: Tournament
) -> None:
    # Given a sign-up capped at the entries the tournament already has
    SignUp.objects.create(
        tournament=tournament, is_open=True, cap=tournament.entries.count(), has_waiting_list=False
    )
    late = Application.objects.create(tournament=tournament, name="Rudi Hartono")
    # When the organiser approves it on the desk
    shown = _post(desk, "application_decide", tournament, application=late.pk, decision="approve")
    # Then the refusal names why, and nothing is entered
    assert len(shown) == 1 and "Rudi Hartono" in shown[0] and "tempat" in shown[0]
    late.refresh_from_db()
    assert late.status == Application.Status.PENDING and late.entry is None


def test_mail_that_failed_after_its_retries_shows_on_the_desk_and_goes_again(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    # Given round 1's mail to a player that failed after its retries
    round = _paired(tournament, django_capture_on_commit_callbacks)
    applicant = Application.objects.create(
        tournament=tournament, name="Rudi Hartono", email="rudi@example.com"
    )
    failed = Notification.objects.create(
        round=round,
        application=applicant,
        email="rudi@example.com",
        status=Notification.Status.FAILED,
        attempts_count=5,
        last_error="SMTP 451: coba lagi nanti",
    )
    # When the organiser opens the desk
    page = desk.get(_url("desk", tournament)).content.decode()
    # Then the failure is there, by name, round and the server's answer
    assert "1 email ke pemain gagal terkirim:" in page
    assert "Rudi Hartono (rudi@example.com), putaran 1" in page
    assert "SMTP 451: coba lagi nanti" in page
    # When they send it again
    shown = _post(desk, "mail_retry", tournament)
    # Then it is queued again and no longer listed as failed
    assert shown == ["1 email ke pemain diantrekan lagi."]
    failed.refresh_from_db()
    assert failed.status in (Notification.Status.QUEUED, Notification.Status.SENT)
    assert 'data-testid="mail-failed"' not in desk.get(_url("desk", tournament)).content.decode()
