"""The public pages on a phone (390 x 844), in Indonesian and then in English, reached by
links from the home page of the demo: the running three-player tournament, its
standings, a round, a three-player scoresheet, a player, a partnership, the clubs, the
ratings board, and two- and four-player scoresheets. On every page nothing is wider
than the screen (``scrollWidth`` ≤ 390) and no word — a name above all — is broken
across lines. On the standings "Kenapa di sini?" opens its details right under its row,
inside the screen. Screenshots land in ``artifacts/phone/``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from standings.services.refresh import standings_sweep
from tests.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "phone"
PHONE = {"width": 390, "height": 844}

#: Words of the page's text drawn on more than one line (a name broken letter by
#: letter, or any word split inside itself); hyphens and slashes may break.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/[^\\s\\-\\u2013\\u2014\\/]+/g)) {
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      if (new Set(rects.map((r) => Math.round(r.top))).size > 1) broken.push(match[0]);
    }
  }
  return broken.slice(0, 10);
}"""
#: What sticks out past the screen's right edge, for the failure message.
WIDEST = """() => [...document.querySelectorAll('main *')]
  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .slice(0, 5).map((e) => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40))"""

TEXTS = {
    "id": {
        "tournaments": "Turnamen",
        "standings": "Klasemen",
        "scoresheet": "Lembar skor",
        "ratings": "Rating",
        "why": "Kenapa di sini?",
        "provisional": "Sementara:",
        "round": "Putaran 1",
    },
    "en": {
        "tournaments": "Tournaments",
        "standings": "Standings",
        "scoresheet": "Scoresheet",
        "ratings": "Ratings",
        "why": "Why here?",
        "provisional": "Provisional:",
        "round": "Round 1",
    },
}


class Phone:
    """One visitor's phone: checks and photographs every page it reaches."""

    def __init__(self, page: Any, language: str) -> None:
        self.page = page
        self.language = language
        self.failures: dict[str, Any] = {}
        SHOTS.mkdir(parents=True, exist_ok=True)

    def check(self, name: str) -> None:
        page = self.page
        page.wait_for_load_state()
        assert page.evaluate("document.documentElement.lang") == self.language, name
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            self.failures[f"{name}: {width}px wide"] = page.evaluate(WIDEST)
        broken = page.evaluate(BROKEN_WORDS)
        if broken:
            self.failures[f"{name}: words broken across lines"] = broken
        page.screenshot(path=str(self.shot(name)), full_page=True)

    def shot(self, name: str) -> Path:
        return SHOTS / f"{self.language}-{name}.png"

    def follow(self, link: Any) -> None:
        link.first.click()
        self.page.wait_for_load_state()


def nav(page: Any, label: str) -> Any:
    return page.locator("header nav").get_by_role("link", name=label, exact=True)


def walk_the_public_site(phone: Phone) -> None:
    page, words = phone.page, TEXTS[phone.language]
    main = page.locator("main")
    phone.check("01-home")
    # The running three-player tournament, from the home page
    phone.follow(main.get_by_role("link", name="Turnamen Malam Jumat", exact=True))
    assert page.get_by_role("heading", level=1).inner_text() == "Turnamen Malam Jumat"
    phone.check("02-tournament")
    # Its standings: provisional while round 2 is at the tables
    phone.follow(main.locator("a[href$='/standings/']"))
    state = page.locator(".standings-state")
    assert state.inner_text().startswith(words["provisional"]), state.inner_text()
    phone.check("03-standings")
    check_why_here_opens_under_its_row(phone, words["why"])
    # Round 1 and one of its three-player scoresheets
    page.go_back()
    phone.follow(main.get_by_role("link", name=words["round"], exact=True))
    phone.check("04-round")
    phone.follow(main.get_by_role("link", name=words["scoresheet"]))
    assert page.locator("table.match-summary tbody tr").count() == 3
    phone.check("05-scoresheet-three-players")
    # A player of that table
    phone.follow(page.locator("table.match-summary tbody th a"))
    phone.check("06-player")
    # A two-player and a four-player (partnership) tournament's scoresheets
    phone.follow(nav(page, words["tournaments"]))
    phone.check("07-tournaments")
    phone.follow(main.get_by_role("link", name="Piala Kemerdekaan", exact=True))
    phone.follow(main.get_by_role("link", name=words["round"], exact=True))
    phone.follow(main.get_by_role("link", name=words["scoresheet"]))
    assert page.locator("table.match-summary tbody tr").count() == 2
    phone.check("08-scoresheet-two-players")
    phone.follow(nav(page, words["tournaments"]))
    phone.follow(main.get_by_role("link", name="Liga Pasangan", exact=True))
    phone.check("09-partnership-tournament")
    phone.follow(main.locator("a[href$='/standings/']"))
    phone.check("10-partnership-standings")
    page.go_back()
    phone.follow(main.get_by_role("link", name=words["round"], exact=True))
    phone.follow(main.get_by_role("link", name=words["scoresheet"]))
    phone.check("11-scoresheet-four-players")
    phone.follow(nav(page, words["tournaments"]))
    phone.follow(main.get_by_role("link", name="Liga Pasangan", exact=True))
    phone.follow(main.locator("a[href*='/partnerships/']"))
    phone.check("12-partnership")
    # The clubs and the ratings board
    phone.follow(page.locator("header a.brand"))
    phone.follow(main.get_by_role("link", name="Klub Domino Sejahtera", exact=True))
    phone.check("13-club")
    phone.follow(nav(page, words["ratings"]))
    phone.check("14-ratings")


def check_why_here_opens_under_its_row(phone: Phone, label: str) -> None:
    page = phone.page
    row = page.locator("tr.row-main").nth(2)
    toggle = row.get_by_role("button", name=label)
    details = page.locator("#" + str(toggle.get_attribute("aria-controls")))
    assert details.is_hidden()
    toggle.click()
    # The sentence shows in the row right under the entrant's, inside the screen
    assert toggle.get_attribute("aria-expanded") == "true"
    assert details.is_visible()
    box, under = row.bounding_box(), details.bounding_box()
    assert box is not None and under is not None
    assert abs(under["y"] - (box["y"] + box["height"])) <= 1
    assert under["x"] >= 0 and under["x"] + under["width"] <= PHONE["width"]
    text = details.locator(".why")
    assert text.is_visible() and text.inner_text()
    text_box = text.bounding_box()
    assert text_box is not None and text_box["x"] + text_box["width"] <= PHONE["width"]
    # Only rank, name, match points and the first tiebreak stay as columns
    headers = page.locator("table.standings thead th")
    shown = [
        headers.nth(i).inner_text() for i in range(headers.count()) if headers.nth(i).is_visible()
    ]
    assert len(shown) == 4, shown
    phone.check("03-standings-why-here")
    toggle.click()
    assert details.is_hidden()


@pytest.mark.parametrize("language", ["id", "en"])
def test_the_public_pages_fit_a_phone_without_breaking_names(
    browser: Any, live_server: Any, transactional_db: None, language: str
) -> None:
    # Given the demo clubs, with a three-player tournament half-way through round 2
    call_command("demo", seed=7)
    standings_sweep(grace=timedelta(0))  # the refreshes the demo queued, done now
    context = browser.new_context(viewport=PHONE, locale="id-ID" if language == "id" else "en")
    page = context.new_page()
    phone = Phone(page, language)
    try:
        # When a visitor walks the public site by its links from the home page
        page.goto(live_server.url + ("/" if language == "id" else "/en/"))
        walk_the_public_site(phone)
    finally:
        context.close()
    # Then every page fitted the screen, with every word on one line
    assert phone.failures == {}, phone.failures
