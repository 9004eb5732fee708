"""A club's organiser (not a superuser) uses the admin's forms in Indonesian at a desk
(1280 px), by links and buttons only: arranges the tournament's tiebreak order with the
list widget and sets the three-player placing points, imports partnerships from a CSV
file (preview, then confirm), opens a table's seats (counted from 1) and the tournament's
history (what changed, from what to what). Every page visited shows no raw JSON and no
English from the stop-list. Screenshots go to ``artifacts/admin/``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from league.models import Membership, Partnership, Tournament
from league.services.clubs import membership_add
from league.services.registration import entry_create
from league.services.rounds import round_create, seats_for_entries, table_create
from tests.browser.test_club_setup import ENGLISH as CLUB_SETUP_ENGLISH
from tests.conftest import ARTIFACTS
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 900}
SHOTS = ARTIFACTS / "admin"
#: English an Indonesian admin page must not show: the admin's and its libraries' words.
ENGLISH = (
    *CLUB_SETUP_ENGLISH,
    "Select an option",
    "Note:",
    "Import",
    "Export",
    "Confirm import",
    "Choose",
    "Remove",
    "Filter",
    "History",
    "Changes",
    "Changed by",
    "Errors",
    "Submit",
    "Preview",
    "This importer",
    "File to import",
    "Move up",
    "Add a tiebreak",
    "First",
    "Second",
    "Third",
    "Today",
    "Now",
    "Delete",
    "None",
)
#: Raw JSON a form must never show to people.
RAW_JSON = re.compile(r"\[\]|\{\"|\[\"")


def _check(page: Any) -> None:
    text = page.inner_text("body") + " ".join(page.locator("option").all_inner_texts())
    english = [w for w in ENGLISH if re.search(rf"\b{re.escape(w)}\b", text)]
    assert not english, (page.url, english)
    assert not RAW_JSON.search(text), (page.url, RAW_JSON.search(text))


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_organiser_uses_the_admins_forms_in_indonesian(
    browser: Any, live_server: Any, tmp_path: Any
) -> None:
    # Given an organiser of a club with players, running a tournament with a drafted table
    club = ClubFactory(name="Klub Merdeka", city="Surabaya")
    user = UserFactory(username="ketua", is_staff=True)
    user.set_password("rahasia-ketua-123")
    user.save()
    membership_add(club=club, user=user, role=Membership.Role.ORGANISER)
    names = ["Ani Wijaya", "Budi Santoso", "Citra Lestari", "Dewi Anggraini"]
    players = [PlayerFactory(name=n, home_club=club) for n in names]
    tournament = TournamentFactory(
        name="Piala Merdeka",
        season=SeasonFactory(club=club),
        tiebreaks=["match_points", "lot"],
        table_size="3-4",
    )
    tournament.organisers.add(user)
    entries = [entry_create(tournament=tournament, player=p) for p in players[:2]]
    round_ = round_create(tournament=tournament)
    table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))
    context = browser.new_context(viewport=DESK, locale="id-ID", timezone_id="Europe/London")
    page = context.new_page()

    # When they sign in
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "ketua")
    page.fill("#id_password", "rahasia-ketua-123")
    page.click("input[type=submit]")
    page.wait_for_selector("#content-main")
    _check(page)

    # And open their tournament and arrange its tiebreak order with the list
    page.click('#content-main a[href$="/admin/league/tournament/"]')
    _check(page)
    page.click("#result_list a:text('Piala Merdeka')")
    page.wait_for_selector(".tiebreak-order")
    _shot(page, "01-turnamen-urutan-awal")
    _check(page)
    widget = page.locator(".tiebreak-order")
    widget.locator(".tiebreak-order-choices").select_option("buchholz")
    widget.locator(".tiebreak-add").click()
    widget.locator(".tiebreak-order-choices").select_option("wins")
    widget.locator(".tiebreak-add").click()
    # "Buchholz" moves up above "Undian", "Menang" is taken out again
    items = widget.locator(".tiebreak-order-item")
    items.filter(has_text="Buchholz").locator(".tiebreak-up").click()
    items.filter(has_text="Menang").locator(".tiebreak-remove").click()
    assert widget.locator(".tiebreak-order-label").all_inner_texts() == [
        "Poin pertandingan",
        "Buchholz",
        "Undian",
    ]
    # And sets the placing points of three-player tables
    page.fill("#id_placing_points_3_0", "4")
    page.fill("#id_placing_points_3_1", "2")
    page.fill("#id_placing_points_3_2", "0")
    page.locator(".field-placing_points_3").scroll_into_view_if_needed()
    _shot(page, "02-turnamen-urutan-diatur")
    _check(page)
    page.click('input[name="_continue"]')
    page.wait_for_selector(".messagelist, .errornote")
    _shot(page, "03-turnamen-tersimpan")
    assert not page.locator(".errornote").count(), page.inner_text("#content-main")[:2000]
    _check(page)
    tournament.refresh_from_db()
    assert tournament.tiebreaks == ["match_points", "buchholz", "lot"]
    assert tournament.placing_points_3 == [4.0, 2.0, 0.0]
    assert page.locator(".tiebreak-order-label").all_inner_texts() == [
        "Poin pertandingan",
        "Buchholz",
        "Undian",
    ]

    # And reads the tournament's history: what changed, from what to what
    page.click("a.historylink")
    page.wait_for_selector("#change-history")
    _shot(page, "04-riwayat-turnamen")
    _check(page)
    history = page.inner_text("#change-history")
    assert "Poin pertandingan, Undian" in history
    assert "Poin pertandingan, Buchholz, Undian" in history
    assert "4, 2, 0" in history

    # And imports two partnerships from a CSV file: a preview, then the import
    page.click('a[href$="/admin/"]:text("Beranda")')
    page.click('#content-main a[href$="/admin/league/partnership/"]')
    _check(page)
    page.click("a.import_link")
    page.wait_for_selector("#id_import_file")
    _shot(page, "05-impor-pasangan")
    _check(page)
    csv = tmp_path / "pasangan.csv"
    csv.write_text(
        "player_a,player_b,name\n"
        "Ani Wijaya,Budi Santoso,Duo Merdeka\n"
        "Citra Lestari,Dewi Anggraini,\n",
        encoding="utf-8",
    )
    page.set_input_files("#id_import_file", str(csv))
    page.click('input[type="submit"]')
    page.wait_for_selector('input[name="confirm"]')
    _shot(page, "06-impor-pratinjau")
    _check(page)
    assert not Partnership.objects.exists()
    page.click('input[name="confirm"]')
    page.wait_for_selector(".messagelist")
    _shot(page, "07-impor-selesai")
    _check(page)
    made = sorted(Partnership.objects.values_list("name", flat=True))
    assert made == ["Citra Lestari & Dewi Anggraini", "Duo Merdeka"]

    # And opens the drafted table: its seats count from 1
    page.click('a[href$="/admin/"]:text("Beranda")')
    page.click('#content-main a[href$="/admin/league/table/"]')
    _check(page)
    page.click("#result_list tbody a >> nth=0")
    page.wait_for_selector("#seats-group")
    _shot(page, "08-meja-kursi")
    _check(page)
    seats = page.locator('#seats-group input[name$="-number"]:not([name*="__prefix__"])')
    assert [seats.nth(i).input_value() for i in range(seats.count())] == ["1", "2"]

    # Then the round's page shows its byes picker and no raw quality report
    page.click('a[href$="/admin/"]:text("Beranda")')
    page.click('#content-main a[href$="/admin/league/round/"]')
    page.click("#result_list tbody a >> nth=0")
    page.wait_for_selector("#content-main form")
    _shot(page, "09-putaran")
    _check(page)
    assert Tournament.objects.get(pk=tournament.pk).tiebreaks[1] == "buchholz"
    context.close()
