"""A club's organiser (not the superuser) runs a tournament day from its desk, in
Indonesian at 1280 px: from the admin's login page, by links and buttons only, they open
the desk of a tournament with entries, enter a late arrival, start and pair round 1,
publish it, start the round clock, open its cards, watch the board change while the
tables' results come in (recorded through the score-entry services meanwhile), are
refused closing the round while a table has not played, call time for the round, record
a walkover at the table whose opponents did not come, close the round, start round 2,
start its clock and call time at one table, and open the projector view, which shows the
time left and turns from the pairings to the standings by itself. Every page is checked
for raw JSON and English; screenshots go to ``artifacts/desk/``.

A second test watches the progress bar poll while a pairing waits for a real worker.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Round, Tournament
from pairing.services.progress import round_pair_progress_record
from pairing.tasks import round_pair_task
from tests.browser.test_club_setup import ENGLISH
from tests.conftest import ARTIFACTS
from tests.desk.conftest import (
    FINISHING_HAND,
    OPENING_HAND,
    club_tournament,
    organiser_of,
    play,
)
from tests.factories import ClubFactory
from tests.matches.test_messages_indonesian import STOP_WORDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1280, "height": 900}
SHOTS = ARTIFACTS / "desk"
PASSWORD = "rahasia-ketua-123"
#: The admin's and the desk's English that an Indonesian page must not show.
DESK_ENGLISH = (
    *ENGLISH,
    "Tournament desk",
    "Not started",
    "Playing",
    "Finished",
    "Waiting for confirmation",
    "Quality report",
    "Projector",
    "Standings",
    "Round ",
    "Table ",
)


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _indonesian(page: Any) -> None:
    """No raw JSON, no English phrase of the stop-list, no English stop word."""
    text = page.inner_text("body") + " " + " ".join(page.locator("option").all_inner_texts())
    assert "[]" not in text and '{"' not in text, "raw JSON on the page"
    phrases = [w for w in DESK_ENGLISH if w in text]
    assert not phrases, phrases
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", text)} & STOP_WORDS
    assert not words, words


def _sign_in(browser: Any, live_server: Any) -> Any:
    context = browser.new_context(viewport=DESK, locale="id-ID")
    page = context.new_page()
    page.goto(f"{live_server.url}/admin/login/")
    _shot(page, "01-masuk")
    page.fill("#id_username", "ketua")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_selector("#content-main")
    return page


def _press(page: Any, testid: str) -> None:
    page.click(f'[data-testid="{testid}"]')
    page.wait_for_selector(".messagelist")


def _organiser(club: Any) -> Any:
    user = organiser_of(club)
    user.set_password(PASSWORD)
    user.save()
    return user


def _status(page: Any, number: int) -> str:
    return str(page.get_attribute(f'[data-testid="desk-table-{number}"]', "data-status"))


def test_an_organiser_runs_a_round_from_the_desk(browser: Any, live_server: Any) -> None:
    # Given a club's tournament with four entries and its organiser, not the superuser
    club = ClubFactory(name="Klub Merdeka", city="Surabaya")
    tournament = club_tournament(club, name="Piala Merdeka", slug="piala-merdeka", time_limit=30)
    organiser = _organiser(club)
    assert not organiser.is_superuser

    # When they sign in at the admin and follow its link to the tournament's desk
    page = _sign_in(browser, live_server)
    _shot(page, "02-beranda-admin")
    _indonesian(page)
    page.click(f'[data-testid="desk-{tournament.slug}"]')
    page.wait_for_selector(".desk-main")
    assert "Meja turnamen" in page.inner_text("#content")
    _shot(page, "03-meja")
    _indonesian(page)

    # And enter a late arrival by name
    page.fill("#id_name", "Gita Permata")
    _press(page, "entry-add")
    assert "Gita Permata sudah terdaftar." in page.inner_text(".messagelist")
    assert tournament.entries.count() == 5

    # And start round 1, which is paired at once (tasks run in-process here)
    _press(page, "next")
    page.wait_for_selector('#desk-progress[data-state="done"]')
    round = tournament.rounds.get(number=1)
    assert round.tables.count() == 2 and round.byes.count() == 1
    assert page.locator(".desk-quality tbody tr").count() >= 5  # the report, as a table
    assert page.locator('[data-testid^="desk-table-"]').count() == 2
    _shot(page, "04-dipasangkan")
    _indonesian(page)

    # And publish it
    _press(page, "publish")
    round.refresh_from_db()
    assert round.status == Round.Status.PUBLISHED
    assert page.get_attribute("#desk-board", "data-live") == "true"
    _shot(page, "05-diterbitkan")
    _indonesian(page)

    # And start its 30-minute clock, whose time left counts down in the browser
    assert "Jam belum dimulai." in page.inner_text('[data-testid="clock"]')
    _press(page, "clock-start")
    assert "Jam putaran 1 berjalan: 30 menit." in page.inner_text(".messagelist")
    left = page.inner_text('[data-testid="clock-left"]')
    assert re.fullmatch(r"(30|29):\d\d", left), left
    page.wait_for_function(
        "t => document.querySelector('[data-testid=clock-left]').textContent !== t", arg=left
    )
    round.refresh_from_db()
    assert round.clock_started_at is not None
    _shot(page, "05b-jam-berjalan")
    _indonesian(page)

    # And open the round's cards (Chromium shows a PDF: fetch the link's target with
    # the organiser's own session, as the browser would)
    href = page.get_attribute('[data-testid="cards"]', "href")
    assert href is not None
    cards = page.context.request.get(f"{live_server.url}{href}")
    assert cards.ok and cards.headers["content-type"] == "application/pdf"
    pdf = SHOTS / "06-kartu.pdf"
    pdf.write_bytes(cards.body())
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm is not None, "pdftoppm (poppler-utils) is needed to look at the cards"
    first_page = ["-r", "60", "-png", "-f", "1", "-l", "1", "-singlefile"]
    subprocess.run([pdftoppm, *first_page, str(pdf), str(SHOTS / "06-kartu")], check=True)
    pdf.unlink()

    # Then the board changes by itself as the tables' hands come in
    first, second = round.tables.order_by("number")
    play(first, organiser, [OPENING_HAND])
    page.wait_for_selector('[data-testid="desk-table-1"][data-status="playing"]', timeout=25_000)
    assert "1 ronde dimainkan" in page.inner_text('[data-testid="desk-table-1"]')
    _shot(page, "07-papan-bermain")
    _indonesian(page)

    # On a phone the board's tables stack as cards, each cell under its column's name, and
    # nothing is wider than the screen
    desktop = page.viewport_size
    assert desktop is not None
    page.set_viewport_size({"width": 390, "height": 844})
    wide = page.evaluate(
        """() => [...document.querySelectorAll('#content *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 5).map((e) => e.tagName + '.' + e.className)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide
    headings = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="desk-table-1"] td')]
        .map((td) => getComputedStyle(td, '::before').content)"""
    )
    assert headings[:4] == ['"Pemain dan kursi"', '"Status"', '"Total"', '"Tautan"'], headings
    _shot(page, "07b-papan-di-ponsel")
    page.set_viewport_size(desktop)
    play(first, organiser, [FINISHING_HAND])
    page.wait_for_selector('[data-testid="desk-table-1"][data-status="finished"]', timeout=25_000)
    assert _status(page, 2) == "scheduled"
    _shot(page, "08-papan-meja-1-selesai")
    _indonesian(page)

    # When they close the round while table 2 has not played, they are told which
    _press(page, "close")
    refusal = page.inner_text(".messagelist")
    names = ", ".join(str(s.player) for s in second.seats.order_by("number"))
    assert f"meja 2: {names}" in refusal
    _shot(page, "09-tutup-ditolak")
    _indonesian(page)

    # And when they call time for the round, table 2 is told to finish its hand in play
    _press(page, "time-call")
    assert "Waktu dipanggil untuk putaran 1: meja 2" in page.inner_text(".messagelist")
    assert "Waktu sudah dipanggil" in page.inner_text('[data-testid="clock"]')
    _shot(page, "09b-waktu-dipanggil")
    _indonesian(page)

    # And since table 2's second player never came, they record a walkover for the first
    present = str(second.seats.get(number=0).player)
    absent = str(second.seats.get(number=1).player)
    button = page.locator('[data-testid="forfeit-2-1"]')
    assert button.inner_text() == f"Catat WO: {present} hadir"
    _press(page, "forfeit-2-1")
    assert f"Meja 2: WO dicatat, {present} menang." in page.inner_text(".messagelist")
    assert _status(page, 2) == "finished"
    assert page.inner_text('[data-testid="mark-2-1"]') == "menang WO"
    assert page.inner_text('[data-testid="mark-2-2"]') == "kalah WO"
    assert absent in page.inner_text('[data-testid="desk-table-2"]')
    _shot(page, "09c-wo-meja-2")
    _indonesian(page)

    # And the round closes
    _press(page, "close")
    assert "Putaran 1 sudah ditutup." in page.inner_text(".messagelist")
    _shot(page, "10-ditutup")
    _indonesian(page)

    # And the next round is created and paired in one step
    _press(page, "next")
    page.wait_for_selector('#desk-progress[data-state="done"]')
    assert tournament.rounds.get(number=2).tables.count() == 2
    assert "Putaran 2 dari 3" in page.inner_text("#round-h")
    _shot(page, "11-putaran-2")
    _indonesian(page)
    _press(page, "publish")

    # And they start round 2's clock and call time at table 1 only
    _press(page, "clock-start")
    _press(page, "time-call-1")
    assert "Waktu dipanggil di meja 1" in page.inner_text(".messagelist")
    assert "Waktu dipanggil: ronde 1 yang terakhir" in page.inner_text(
        '[data-testid="desk-table-1"]'
    )
    assert page.locator('[data-testid="time-call-2"]').count() == 1
    _shot(page, "11b-waktu-meja-1")
    _indonesian(page)

    # And the projector view shows round 2's tables in large type, then the standings
    page.clock.install()
    page.click('[data-testid="projector-link"]')
    page.wait_for_selector('[data-panel="pairings-1"]')
    page.wait_for_load_state("load")  # its stylesheet too, before its type is measured
    assert page.is_visible('[data-panel="pairings-1"]')
    assert not page.is_visible('[data-panel="standings-1"]')
    size = page.eval_on_selector(".pairing .sides", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 24, size  # legible across a hall
    assert "Putaran 2" in page.inner_text("h1")
    clock = page.locator('[data-panel="pairings-1"] [data-testid="projector-clock"]')
    assert re.fullmatch(r"Sisa waktu (30|29):\d\d", clock.inner_text()), clock.inner_text()
    _shot(page, "12-proyektor-pasangan")
    _indonesian(page)
    page.clock.run_for(16_000)
    page.wait_for_selector('[data-panel="standings-1"]', state="visible")
    assert not page.is_visible('[data-panel="pairings-1"]')
    assert "Klasemen" in page.inner_text('[data-panel="standings-1"]')
    _shot(page, "13-proyektor-klasemen")
    _indonesian(page)
    page.context.close()


def test_the_desks_progress_bar_polls_until_a_worker_has_paired_the_round(
    browser: Any, live_server: Any
) -> None:
    # Given a desk whose round 1 waits for a worker to pair it
    club = ClubFactory(name="Klub Merdeka", city="Surabaya")
    tournament = club_tournament(club, name="Piala Antre", slug="piala-antre")
    organiser = _organiser(club)
    round = Round.objects.create(tournament=tournament, number=1)
    round_pair_progress_record(round_id=round.pk, state="queued")
    client = Client()
    client.force_login(organiser)
    context = browser.new_context(viewport=DESK, locale="id-ID")
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security" in m.text else None)
    # When they open the desk
    page.goto(live_server.url + reverse("desk:desk", args=[tournament.slug]))
    # Then the bar is shown and polls the progress
    page.wait_for_selector('#desk-progress[data-state="queued"] progress')
    with page.expect_request(lambda r: "/progress/" in r.url):
        pass
    _shot(page, "20-antre")
    _indonesian(page)
    # And when the worker has paired the round, the page reloads with its tables
    round_pair_task.delay(round.pk, None)
    page.wait_for_selector('[data-testid="desk-table-1"]', timeout=15_000)
    assert page.locator(".desk-quality").count() == 1
    assert blocked == []
    _shot(page, "21-antre-selesai")
    _indonesian(page)
    context.close()
    assert Tournament.objects.get(pk=tournament.pk).rounds.get().tables.count() == 2
