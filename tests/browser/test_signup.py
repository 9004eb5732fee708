"""A player takes part themselves, in a real browser (Debian's Chromium), in Indonesian
and in English: on a phone (390x844) the player goes from the home page to the
tournament and signs up, keeping the private player link; the organiser approves the
sign-up in the admin at a desk; the player checks in from the player link; round 1 is
paired (checked-in entries only) and published; the player's mail names the table and
seat, and "Turnamen saya" shows the table and a scoring link that opens the table's
scoring page. A visitor finds a tournament not yet running under the home page's
"Menerima pendaftaran" and signs up from there. Screenshots of every step go to
``artifacts/signup/<language>-*.png``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail

from entrants.models import Application, SignUp
from entrants.selectors import round_is_checked_in_only
from league.models import Membership, Seat, Tournament
from league.services.clubs import membership_add
from league.services.rounds import round_create, round_publish
from pairing.services.pairing import round_pair
from tests.conftest import ARTIFACTS, page_settled
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
SHOTS = ARTIFACTS / "signup"
PASSWORD = "rahasia-panitia-123"

#: What each language's pages say at each step (and English an Indonesian page must not).
WORDS: dict[str, dict[str, Any]] = {
    "id": {
        "prefix": "",
        "locale": "id-ID",
        "sign_up": "Daftar",
        "pending": "menunggu persetujuan penyelenggara",
        "approve_done": "disetujui",
        "checked_in": "Anda sudah daftar ulang.",
        "next": "Putaran 1: meja {table}, kursi {seat}",
        "mail": "meja {table}, kursi {seat}",
        "english": (
            "Sign up",
            "Full name",
            "Check in",
            "My tournament",
            "Round 1",
            "Opponents",
            "Approve",
            "Decline",
            "wait for you",
        ),
    },
    "en": {
        "prefix": "/en",
        "locale": "en-GB",
        "sign_up": "Sign up",
        "pending": "waiting for the organiser's approval",
        "approve_done": "approved",
        "checked_in": "You are checked in.",
        "next": "Round 1: table {table}, seat {seat}",
        "mail": "table {table}, seat {seat}",
        "english": (),
    },
}


def _shot(page: Any, language: str, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{language}-{name}.png"), full_page=True)


def _no_english(page: Any, words: dict[str, Any]) -> None:
    text = page.inner_text("main")
    found = [w for w in words["english"] if w in text]
    assert not found, found


def _setting(language: str) -> Tournament:
    """A running club tournament at tables of two with open sign-up and three entries
    the organiser registered, and its organiser at the desk."""
    club = ClubFactory(name="Klub Merdeka", slug="klub-merdeka", city="Surabaya")
    organiser = UserFactory(username="panitia", is_staff=True)
    organiser.set_password(PASSWORD)
    organiser.save()
    membership_add(club=club, user=organiser, role=Membership.Role.ORGANISER)
    tournament = TournamentFactory(
        name="Piala Merdeka",
        slug="piala-merdeka",
        club=club,
        season__club=club,
        status=Tournament.Status.RUNNING,
    )
    tournament.organisers.add(organiser)
    SignUp.objects.create(tournament=tournament, is_open=True, cap=8)
    for name in ("Ani", "Eko", "Dewi"):
        EntryFactory(
            tournament=tournament, player=PlayerFactory(name=name, home_club=club, club=club.name)
        )
    return tournament


@pytest.mark.parametrize("language", ["id", "en"])
def test_a_player_signs_up_checks_in_and_gets_the_table_on_the_phone(
    browser: Any, live_server: Any, language: str
) -> None:
    words = WORDS[language]
    tournament = _setting(language)
    phone = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, locale=words["locale"]
    ).new_page()
    phone.set_default_timeout(10_000)

    # Given the player at the home page, on a phone
    phone.goto(f"{live_server.url}{words['prefix']}/")
    phone.click(f'a[href$="/tournaments/{tournament.slug}/"]')
    phone.wait_for_selector('[data-testid="signup-link"]')
    _shot(phone, language, "01-turnamen")
    assert phone.inner_text('[data-testid="signup-link"]') == words["sign_up"]

    # When they sign up, listed by nickname only, agreeing to mail
    phone.click('[data-testid="signup-link"]')
    phone.fill("#id_name", "Budi Santoso")
    phone.fill("#id_nickname", "Si Raja")
    phone.check('input[name="listed_as"][value="nickname"]')
    phone.fill("#id_email", "budi@example.com")
    phone.fill("#id_phone", "0812 3456 7890")
    phone.check("#id_may_email")
    _shot(phone, language, "02-formulir")
    _no_english(phone, words)
    phone.click('[data-testid="signup-submit"]')
    phone.wait_for_selector('[data-testid="player-link"]')
    _shot(phone, language, "03-terkirim")
    _no_english(phone, words)
    phone.click('[data-testid="open-player-page"]')
    phone.wait_for_selector('[data-testid="application-status"]')
    assert words["pending"] in phone.inner_text('[data-testid="application-status"]')
    _shot(phone, language, "04-menunggu")

    # And the organiser approves it on the tournament's desk, reached by links
    desk = browser.new_context(viewport=DESK, locale=words["locale"]).new_page()
    desk.set_default_timeout(10_000)
    desk.goto(f"{live_server.url}{words['prefix']}/admin/login/")
    desk.fill("#id_username", "panitia")
    desk.fill("#id_password", PASSWORD)
    desk.click("input[type=submit]")
    desk.wait_for_selector("#content-main")
    desk.click(f'[data-testid="desk-{tournament.slug}"]')
    desk.wait_for_selector('[data-testid="applications"]')
    assert "Budi Santoso" in desk.inner_text('[data-testid="application-1"]')
    _shot(desk, language, "05-setujui")
    _no_english(desk, words)
    desk.click('[data-testid="approve-1"]')
    desk.wait_for_selector(".messagelist")
    assert words["approve_done"] in desk.inner_text(".messagelist")
    assert desk.locator('[data-testid="applications"]').count() == 0
    _shot(desk, language, "06-disetujui")

    # Then the player checks in from the player link
    phone.reload()
    phone.click('[data-testid="check-in"]')
    phone.wait_for_selector('[data-testid="checked-in"]')
    assert phone.inner_text('[data-testid="checked-in"]') == words["checked_in"]
    _shot(phone, language, "07-daftar-ulang")
    _no_english(phone, words)
    phone.click('[data-testid="entry-card"]')
    phone.wait_for_selector("img.qr")
    _shot(phone, language, "07b-kartu-peserta")
    phone.go_back()

    # And the organiser seats the checked-in entries only in round 1, on its day page
    round = round_create(tournament=tournament)
    desk.click('a[href$="/admin/entrants/roundday/"]')
    desk.click(f'a[href$="/admin/entrants/roundday/{round.pk}/change/"]')
    desk.check('[data-testid="checked-in-only"]')
    desk.click('[data-testid="presence-save"]')
    desk.wait_for_selector(".messagelist")
    _shot(desk, language, "08a-hari-putaran")
    assert round_is_checked_in_only(round)

    # And round 1 is paired and published
    round_pair(round=round, seed=1)
    mail.outbox.clear()
    round_publish(round=round)
    desk.reload()
    assert desk.locator('a[href^="https://wa.me/?text="]').count() == 2
    _shot(desk, language, "08b-whatsapp")
    seat = Seat.objects.get(table__round=round, player__name="Si Raja")
    where = {"table": seat.table.number, "seat": seat.number + 1}

    # The mail names the table and seat, in the player's language
    (message,) = [m for m in mail.outbox if m.to == ["budi@example.com"]]
    assert words["mail"].format(**where) in message.subject
    assert words["mail"].format(**where) in message.body

    # And "Turnamen saya" shows the table, and a scoring link that opens it
    phone.reload()
    phone.wait_for_selector('[data-testid="next-table"]')
    assert phone.inner_text('[data-testid="next-table"]') == words["next"].format(**where)
    _shot(phone, language, "09-turnamen-saya")
    _no_english(phone, words)
    phone.click('[data-testid="scoring-link"]')
    phone.wait_for_url(re.compile(r"/matches/\d+/score/$"))
    _shot(phone, language, "10-pencatatan-skor")
    assert "Si Raja" in phone.inner_text("main")


def test_a_visitor_finds_a_tournament_taking_sign_ups_on_the_home_page_and_signs_up(
    browser: Any, live_server: Any
) -> None:
    # Given a tournament taking registrations, not yet running, with its sign-up open
    club = ClubFactory(name="Spinner Malang", slug="spinner-malang", city="Malang")
    tournament = TournamentFactory(
        name="Malam Domino Malang",
        slug="malam-domino-malang",
        club=club,
        season__club=club,
        status=Tournament.Status.REGISTRATION,
    )
    SignUp.objects.create(tournament=tournament, is_open=True, cap=16)
    phone = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="id-ID"
    ).new_page()
    phone.set_default_timeout(10_000)

    # When a player opens the home page on a phone
    phone.goto(f"{live_server.url}/")
    page_settled(phone)
    section = phone.locator('section[aria-labelledby="signups-h"]')
    assert section.locator("h2").inner_text() == "Menerima pendaftaran"
    section.scroll_into_view_if_needed()
    _shot(phone, "id", "walk-01-beranda")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Then the tournament is listed under "Menerima pendaftaran" (it is not running yet)
    running = phone.locator('section[aria-labelledby="running-h"]')
    assert running.locator(f'a[href$="/tournaments/{tournament.slug}/"]').count() == 0

    # When they open it from there and press "Daftar"
    section.get_by_role("link", name="Malam Domino Malang").click()
    phone.wait_for_selector('[data-testid="signup-link"]')
    page_settled(phone)
    assert phone.inner_text("h1") == "Malam Domino Malang"
    _shot(phone, "id", "walk-02-turnamen")
    assert phone.inner_text('[data-testid="signup-link"]') == "Daftar"
    phone.click('[data-testid="signup-link"]')
    phone.wait_for_selector('[data-testid="signup-submit"]')
    page_settled(phone)
    _shot(phone, "id", "walk-03-formulir")
    _no_english(phone, WORDS["id"])

    # And fill in the form and send it
    phone.fill("#id_name", "Sari Wulandari")
    phone.fill("#id_email", "sari@example.com")
    _shot(phone, "id", "walk-04-terisi")
    phone.click('[data-testid="signup-submit"]')
    phone.wait_for_selector('[data-testid="signup-status"]')
    page_settled(phone)
    _shot(phone, "id", "walk-05-terkirim")

    # Then the page confirms it in Indonesian, with their private link, and it waits
    status = phone.inner_text('[data-testid="signup-status"]')
    assert status == "Terima kasih. Penyelenggara akan memeriksa pendaftaran Anda."
    assert "/p/" in phone.inner_text('[data-testid="player-link"]')
    _no_english(phone, WORDS["id"])
    (application,) = Application.objects.filter(tournament=tournament)
    assert application.name == "Sari Wulandari"
