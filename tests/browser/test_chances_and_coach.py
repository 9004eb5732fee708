"""A visitor follows a match being played: from the tournament's page to its round, where
each side's chance of winning shows beside the live score, and on by the table's
scoresheet link to the scoresheet, which shows the chances now, after each hand and
after each play of the latest hand, and the coach's marks of plays that left points on
the table. In Indonesian and English, at a phone's width and a desktop's; screenshots
under ``artifacts/chances/``.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from allfives import Rules, simulate_match
from tests.conftest import ARTIFACTS
from tests.factories import EntryFactory, PlayerFactory
from tests.league.site.conftest import ScoredDay, build_scored_day, seat_table

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
SHOTS = ARTIFACTS / "chances"

from playwright import sync_api  # noqa: E402


@pytest.fixture
def scored(transactional_db: None) -> tuple[ScoredDay, Any]:
    """The tournament day, and at round 2's second table a match of random players
    (who miss points a greedy player would take), three hands in."""
    from matches.services.lifecycle import match_import

    scored = build_scored_day()
    day = scored.day
    entries = [
        EntryFactory(tournament=day.tournament, player=PlayerFactory(name=name))
        for name in ("Dewi", "Eko")
    ]
    number = day.playing_table.round.tables.count() + 1
    table = seat_table(day.playing_table.round, number, entries, status="playing")
    document = simulate_match(
        players=2, rules=Rules(), rng=random.Random(21), strategies=["random"]
    )
    hands = list(document["hands"])  # type: ignore[call-overload]
    match = match_import(document={**document, "hands": hands[:3]}, user=None, table=table)
    return scored, match


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["id", "en"])
def test_a_visitor_reaches_the_chances_and_the_coach_from_the_tournament_page(
    browser: Any, live_server: Any, scored: tuple[ScoredDay, Any], language: str, viewport: str
) -> None:
    _day, match = scored
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport=VIEWPORTS[viewport])
    prefix = "" if language == "id" else "/en"
    # Given the tournament's page
    page.goto(f"{live_server.url}{prefix}/tournaments/piala-kelipatan/")
    # When the visitor opens round 2 by its link
    page.get_by_role("link", name=re.compile(r"^(Putaran|Round) 2$")).first.click()
    # Then the table being played shows each side's chance of winning
    row = page.locator(f"#table-{match.table_id}")
    chance = row.locator(".live-chance")
    sync_api.expect(chance).to_have_count(2)
    sync_api.expect(chance.first).to_contain_text(
        "peluang menang" if language == "id" else "chance of winning"
    )
    sync_api.expect(chance.first).to_contain_text("%")
    page.screenshot(path=str(SHOTS / f"round-{language}-{viewport}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
    # When the visitor follows the table's scoresheet link
    row.get_by_role("link", name=re.compile("Lembar skor|Scoresheet")).click()
    # Then the scoresheet shows the chances now, and the coach's marks
    live = page.locator(".chances-live")
    sync_api.expect(live).to_contain_text(
        "Peluang menang sekarang" if language == "id" else "Chance of winning now"
    )
    sync_api.expect(live).to_contain_text("Dewi")
    marks = page.locator("[data-coach=play]")
    assert marks.count() >= 1
    words = ("memberi", "ke ") if language == "id" else ("gives", "to the ")
    text = " ".join(marks.all_inner_texts())
    assert all(word in text for word in words), text
    sync_api.expect(page.locator(".coach-summary")).to_contain_text(
        "Poin yang terlewat" if language == "id" else "Points left on the table"
    )
    if language == "id":
        body = page.locator("main").inner_text()
        assert "gives" not in body and "Chance of" not in body
    page.screenshot(path=str(SHOTS / f"scoresheet-{language}-{viewport}.png"), full_page=True)
    # And nothing sticks out past a phone's screen
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORTS[viewport]["width"] + 1
