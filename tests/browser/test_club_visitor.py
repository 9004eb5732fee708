"""A visitor follows the clubs on a phone, in Indonesian, by links alone: from the home
page to a club's page (its seasons, tournaments and rated players), to that club's
tournaments in the filtered list, to an inter-club tournament and back to its host club.
Each step is checked for content and for nothing wider than the screen, and saved as a
screenshot under ``artifacts/clubs/``."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from tests.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "clubs"
PHONE = {"width": 390, "height": 844}
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def _step(page: Any, name: str) -> None:
    assert page.evaluate(OVERFLOW) <= 0, f"{name}: wider than the phone's screen"
    assert page.evaluate("document.documentElement.lang") == "id"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"visitor-{name}.png"), full_page=True)


def test_a_visitor_finds_a_club_its_tournaments_and_an_inter_club_event_on_a_phone(
    browser: Any, live_server: Any, transactional_db: None
) -> None:
    # Given the demo: two clubs and an inter-club tournament with visiting players
    call_command("demo", seed=7)
    context = browser.new_context(viewport=PHONE, locale="id-ID")
    page = context.new_page()
    try:
        # When a visitor opens the home page and follows the second club's link
        page.goto(live_server.url + "/")
        clubs = page.locator("section[aria-labelledby=clubs-h]")
        assert "Klub Domino Sejahtera" in clubs.inner_text()
        _step(page, "1-home")
        clubs.get_by_role("link", name="Spinner Malang").click()
        # Then the club's page lists its seasons, its tournaments and its rated players
        page.wait_for_url("**/clubs/spinner-malang/")
        assert page.get_by_role("heading", level=1).inner_text() == "Spinner Malang"
        players = page.locator("section[aria-labelledby=players-h] tbody tr")
        assert players.count() > 0
        _step(page, "2-club")
        # When they ask for all of the club's tournaments
        page.get_by_role("link", name="Semua turnamen Spinner Malang").click()
        # Then the list shows the club's tournaments only, with a way back to every club
        page.wait_for_url("**/tournaments/?club=spinner-malang")
        rows = page.locator("table tbody tr th")
        assert rows.count() > 0
        assert all("Spinner Malang" in rows.nth(i).inner_text() for i in range(rows.count()))
        _step(page, "3-club-tournaments")
        page.get_by_role("link", name="Semua klub").click()
        page.wait_for_url("**/tournaments/")
        # When they open the inter-club tournament of the other club
        page.get_by_role("link", name="Turnamen Malam Jumat").click()
        # Then its page names the host club and says it is open to other clubs' players
        facts = page.locator("dl").first.inner_text()
        assert "Klub Domino Sejahtera" in facts
        _step(page, "4-inter-club-tournament")
        # And the host club's link leads to the host club's page
        page.locator("dl").first.get_by_role("link", name="Klub Domino Sejahtera").click()
        page.wait_for_url("**/clubs/klub-domino-sejahtera/")
        assert page.get_by_role("heading", level=1).inner_text() == "Klub Domino Sejahtera"
        _step(page, "5-host-club")
    finally:
        context.close()
