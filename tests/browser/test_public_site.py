"""The public site in a real browser: Debian's Chromium driven by Playwright against the
live test server. Every page in Indonesian and English, at a phone's width (390 px)
and a desktop's, with its content checked, axe-core run inside the page (no serious
or critical violation), and a screenshot saved under ``artifacts/``. Then the live
refresh of a running match (htmx polling, under the site's real Content-Security-
Policy) and the language switch kept across pages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ARTIFACTS
from tests.league.site.conftest import EVIL_NAME, ScoredDay, build_scored_day

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
SHOTS = ARTIFACTS / "public-site"


from playwright import sync_api  # noqa: E402


@pytest.fixture
def scored(transactional_db: None) -> ScoredDay:
    return build_scored_day()


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"][:3]]}
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


#: The elements that stick out past the right edge of the screen, for the failure message.
WIDEST = """() => [...document.querySelectorAll('main *')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40))"""


def pages(scored: ScoredDay) -> list[tuple[str, str, list[str]]]:
    """(name, path without language prefix, texts the page must show)."""
    day = scored.day
    ani = day.players[0]
    return [
        ("home", "/", ["Piala Kelipatan", "Musim Hujan 2026"]),
        ("tournaments", "/tournaments/", ["Piala Kelipatan", "Pasangan Tetap"]),
        ("tournament", "/tournaments/piala-kelipatan/", ["Ani", "Citra", "250", "200"]),
        ("round-1", "/tournaments/piala-kelipatan/rounds/1/", ["Citra", "Dedi", "Eka"]),
        ("round-2-live", "/tournaments/piala-kelipatan/rounds/2/", ["Ani", EVIL_NAME]),
        ("player", f"/players/{ani.slug}/", ["Ani", "Piala Kelipatan", "Duo Ani Budi"]),
        ("partnership", f"/partnerships/{day.partnership.slug}/", ["Duo Citra Dedi"]),
        ("season", "/seasons/musim-hujan-2026/", ["Piala Kelipatan", "Malam Liga"]),
        ("scoresheet-tiles", f"/matches/{scored.finished_tiles.pk}/", ["Ani", "Budi"]),
        ("scoresheet-live", f"/matches/{scored.live.pk}/", ["Ani", EVIL_NAME]),
        ("scoresheet-tally", f"/matches/{scored.tally.pk}/", ["Ani", "Citra", "50"]),
    ]


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("language", ["id", "en"])
def test_every_public_page_renders_readably_and_accessibly(
    browser: Any, live_server: Any, scored: ScoredDay, language: str, viewport: str
) -> None:
    # Given the public site with a tournament day, its matches and a league night
    context = browser.new_context(
        viewport=VIEWPORTS[viewport], bypass_csp=True, locale="id-ID" if language == "id" else "en"
    )
    page = context.new_page()
    prefix = "" if language == "id" else "/en"
    SHOTS.mkdir(parents=True, exist_ok=True)
    failures: dict[str, Any] = {}
    for name, path, texts in pages(scored):
        # When a visitor opens the page
        response = page.goto(f"{live_server.url}{prefix}{path}")
        # Then it answers, in the visitor's language, showing what it is about
        assert response is not None and response.status == 200, (name, response)
        assert page.locator("html").get_attribute("lang") == language, name
        body = page.locator("main").inner_text()
        missing = [t for t in texts if t not in body]
        assert not missing, (name, missing)
        # and nothing spills sideways on a phone
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        if overflow > 1:
            failures[f"{name}: wider than the screen by {overflow}px"] = page.evaluate(WIDEST)
        page.screenshot(path=str(SHOTS / f"{name}-{language}-{viewport}.png"), full_page=True)
        violations = axe_violations(page)
        if violations:
            failures[f"{name}: axe"] = violations
    context.close()
    assert failures == {}, json.dumps(failures, indent=1, ensure_ascii=False)


def test_half_points_read_as_on_the_scoring_page_in_the_browser(
    browser: Any, live_server: Any, scored: ScoredDay
) -> None:
    # Given a three-player table whose two runners-up split 175 half-points (R20)
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    # When it is read in Indonesian, then in English
    page.goto(f"{live_server.url}/tournaments/piala-kelipatan/rounds/1/")
    indonesian = page.locator("main").inner_text()
    page.goto(f"{live_server.url}/en/tournaments/piala-kelipatan/rounds/1/")
    english = page.locator("main").inner_text()
    context.close()
    # Then the half point is written ½ in either language, as the scoring page does
    assert "87½" in indonesian and "87,5" not in indonesian
    assert "87½" in english and "87.5" not in english


def test_a_running_match_refreshes_itself_on_the_round_and_scoresheet_pages(
    browser: Any, live_server: Any, scored: ScoredDay, settings: Any
) -> None:
    # Given pages that poll every second, under the site's real Content-Security-Policy
    settings.LIVE_REFRESH_SECONDS = 1
    from matches.services.lifecycle import match_import

    context = browser.new_context(viewport=VIEWPORTS["phone"])
    refused: list[str] = []
    round_page = context.new_page()
    sheet_page = context.new_page()
    for page in (round_page, sheet_page):
        page.on(
            "console",
            lambda msg: refused.append(msg.text) if "Content Security Policy" in msg.text else None,
        )
    round_page.goto(f"{live_server.url}/en/tournaments/piala-kelipatan/rounds/2/")
    sheet_page.goto(f"{live_server.url}/en/matches/{scored.live.pk}/")
    table_row = round_page.locator(f"#table-{scored.day.playing_table.pk}")
    sync_api.expect(table_row).to_contain_text("after 2 hands")
    sync_api.expect(sheet_page.locator("#hand-3")).to_have_count(0)
    # When the scorekeeper's third hand is stored
    live = scored.live
    live.refresh_from_db()
    document = scored.live_document
    updated = match_import(
        document={**document, "hands": document["hands"][:3]},
        user=None,
        match=live,
        version=live.version,
    )
    totals = {int(side): x2 for side, x2 in updated.totals_x2.items()}
    # Then both pages show it without being reloaded
    # (polled every second; a scoresheet's live part computes the chances, which takes
    # seconds on a machine busy with other tests)
    sync_api.expect(table_row).to_contain_text("after 3 hands", timeout=30_000)
    sync_api.expect(table_row).to_contain_text(_points(totals[0]))
    sync_api.expect(sheet_page.locator("#hand-3")).to_have_count(1, timeout=30_000)
    sync_api.expect(sheet_page.locator(".match-summary")).to_contain_text(_points(totals[1]))
    round_page.screenshot(path=str(SHOTS / "live-round-after-refresh.png"), full_page=True)
    sheet_page.screenshot(path=str(SHOTS / "live-scoresheet-after-refresh.png"), full_page=True)
    context.close()
    # and the site's scripts ran with nothing refused by the policy
    assert refused == []


def _points(points_x2: int) -> str:
    return str(points_x2 // 2) if points_x2 % 2 == 0 else f"{points_x2 // 2}½"


def test_the_language_switch_changes_language_and_keeps_it_across_pages(
    browser: Any, live_server: Any, scored: ScoredDay
) -> None:
    # Given a visitor reading a tournament in Indonesian (the default) on a phone
    context = browser.new_context(viewport=VIEWPORTS["phone"])
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/piala-kelipatan/")
    assert page.locator("html").get_attribute("lang") == "id"
    # When they choose English with the keyboard and switch
    page.locator("#lang-select").focus()
    page.locator("#lang-select").select_option("en")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    # Then the same page comes back in English
    page.wait_for_url(re.compile(r"/en/tournaments/piala-kelipatan/$"))
    assert page.locator("html").get_attribute("lang") == "en"
    # and following a link keeps English
    page.get_by_role("link", name="Ani").first.click()
    page.wait_for_url(re.compile(r"/en/players/"))
    assert page.locator("html").get_attribute("lang") == "en"
    page.screenshot(path=str(SHOTS / "language-switched-player-en.png"), full_page=True)
    # and switching back returns to Indonesian on that page
    page.locator("#lang-select").select_option("id")
    page.get_by_role("button", name=re.compile("Switch|Ganti|Beralih")).click()
    page.wait_for_url(re.compile(r"^http://[^/]+/players/"))
    assert page.locator("html").get_attribute("lang") == "id"
    context.close()


def test_keyboard_focus_is_visible_and_the_skip_link_leads_to_the_content(
    browser: Any, live_server: Any, scored: ScoredDay
) -> None:
    # Given the tournament page on a desktop
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    page.goto(f"{live_server.url}/en/tournaments/piala-kelipatan/")
    # When the visitor presses Tab once
    page.keyboard.press("Tab")
    focused = page.evaluate(
        "() => { const e = document.activeElement; const s = getComputedStyle(e);"
        " return {cls: e.className, outline: s.outlineStyle, width: s.outlineWidth,"
        " left: e.getBoundingClientRect().left}; }"
    )
    # Then the skip link is focused, visible on screen, with a visible outline
    assert focused["cls"] == "skip-link"
    assert focused["outline"] != "none" and focused["width"] != "0px"
    assert focused["left"] >= 0
    # And following it moves to the main content
    page.keyboard.press("Enter")
    assert page.evaluate("() => location.hash") == "#main"
    context.close()


def test_printed_pairings_and_standings_leave_out_the_site_chrome(
    browser: Any, live_server: Any, scored: ScoredDay
) -> None:
    # Given a round's pairings and the tournament's standings, printed from the browser
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    for name, path in (
        ("pairings", "/en/tournaments/piala-kelipatan/rounds/1/"),
        ("standings", "/en/tournaments/piala-kelipatan/standings/"),
    ):
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 200, name
        # When printed
        page.emulate_media(media="print")
        # Then the header, language switch, footer and screen-only links are left out
        assert not page.locator(".site-header").is_visible(), name
        assert not page.locator(".site-footer").is_visible(), name
        assert all(not link.is_visible() for link in page.locator(".no-print").all()), name
        # and the table itself is printed
        assert page.locator("main table").first.is_visible(), name
        page.pdf(path=str(SHOTS / f"print-{name}.pdf"), format="A4")
        page.emulate_media(media="screen")
    context.close()
