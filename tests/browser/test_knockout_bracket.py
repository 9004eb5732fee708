"""A visitor follows a tournament's knockout in a real browser: from the tournament's
public page, by its link only, they open the bracket page in Indonesian and in English,
at a phone's width (390 px) and a desktop's (1280 px). The bracket is a Swiss round's top
eight with a third-place match and a plate, its semi-finals in play: the SVG draws every
match (scrolling sideways inside its frame on a phone, the page itself never wider than
the screen), the round-by-round list reads in the page's language with no English on the
Indonesian page, axe-core finds nothing serious, and a result recorded meanwhile appears
without a reload (htmx polling under the site's Content-Security-Policy). Screenshots,
and the printed bracket, go to ``artifacts/knockout/``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from knockout.models import BracketMatch
from knockout.services import bracket_advance, bracket_create
from league.models import Player, Round, Tournament
from league.services.results import table_agreed_record
from league.services.rounds import round_create, round_publish
from pairing.services.pairing import round_pair
from tests.browser.test_public_site import VIEWPORTS, axe_violations
from tests.conftest import ARTIFACTS, page_settled
from tests.knockout.conftest import play_round, seed_of, seeded_tournament
from tests.matches.test_messages_indonesian import STOP_WORDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "knockout"
#: The English of the bracket page that its Indonesian version must not show.
ENGLISH = (
    "Knockout",
    "Main bracket",
    "Semi-finals",
    "Third place",
    "Seeded from",
    "to be decided",
    "waiting for",
    "playing at",
    "Won at the table",
    "Print the bracket",
)


def knockout_in_play() -> tuple[Tournament, Round]:
    """Ten entries, one Swiss round, then a top cut of eight with a third-place match and
    a plate; the quarter-finals played, the semi-finals published with one table done."""
    tournament = seeded_tournament(10, rounds_count=5, name="Piala Gugur", slug="piala-gugur")
    swiss = round_create(tournament=tournament)
    round_pair(round=swiss)
    play_round(swiss)
    bracket_create(tournament=tournament, cut=8, third_place=True, plate=True)
    play_round(tournament.rounds.get(number=2))
    semis = bracket_advance(tournament=tournament)
    assert semis is not None
    round_publish(round=semis)
    first = semis.tables.get(number=1)
    table_agreed_record(table_id=first.pk, totals={0: 50, 1: 35}, user=None)
    return tournament, semis


def _no_english(page: Any) -> None:
    text = page.inner_text("main")
    assert "[]" not in text and '{"' not in text, "raw JSON on the page"
    phrases = [w for w in ENGLISH if w in text]
    assert not phrases, phrases
    names = {w.lower() for w in re.findall(r"Pemain \d+[AB]?", text)}
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", text)} & STOP_WORDS
    assert not words - names, words


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("language", ["id", "en"])
def test_the_bracket_page_is_reached_from_the_tournament_and_reads_at_every_width(
    browser: Any, live_server: Any, language: str, viewport: str
) -> None:
    # Given a knockout whose semi-finals are being played
    tournament, _semis = knockout_in_play()
    context = browser.new_context(
        viewport=VIEWPORTS[viewport], bypass_csp=True, locale="id-ID" if language == "id" else "en"
    )
    page = context.new_page()
    prefix = "" if language == "id" else "/en"
    # When a visitor opens the tournament's page and follows its link to the bracket
    page.goto(f"{live_server.url}{prefix}/tournaments/{tournament.slug}/")
    page.get_by_test_id("bracket-link").click()
    page.wait_for_url(re.compile(r"/knockout/$"))
    page_settled(page)
    # Then the main bracket and the plate are drawn, the semi-finals named in the language
    main = page.get_by_test_id("bracket-main")
    assert main.locator("svg .match").count() == 4 + 2 + 1 + 1  # with third place
    assert page.get_by_test_id("bracket-plate").locator("svg .match").count() == 2 + 1
    text = page.inner_text("main")
    if language == "id":
        for words in ("Babak gugur", "Bagan utama", "Semifinal", "Perempat final", "Final"):
            assert words in text, words
        assert "Tempat ketiga" in text and "bermain di meja 2" in text
        _no_english(page)
    else:
        for words in ("Main bracket", "Semi-finals", "Quarter-finals", "Third place"):
            assert words in text, words
        assert "playing at table 2" in text
    assert "Pemain 01" in text
    # and the page is never wider than the screen: the drawing scrolls in its frame
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, overflow
    frame = main.locator(".bracket-scroll")
    scrolls = frame.evaluate("e => e.scrollWidth > e.clientWidth")
    assert scrolls == (viewport == "phone")
    assert axe_violations(page) == [], json.dumps(axe_violations(page))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"bracket-{language}-{viewport}.png"), full_page=True)
    context.close()


def test_a_result_recorded_meanwhile_appears_and_the_bracket_prints(
    browser: Any, live_server: Any, settings: Any
) -> None:
    # Given the bracket page open on a phone, polling every second
    settings.LIVE_REFRESH_SECONDS = 1
    tournament, semis = knockout_in_play()
    context = browser.new_context(viewport=VIEWPORTS["phone"])
    refused: list[str] = []
    page = context.new_page()
    page.on(
        "console",
        lambda msg: refused.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/")
    page.get_by_test_id("bracket-link").click()
    page_settled(page)
    from playwright import sync_api

    second = page.locator(".bracket-list").first.locator("li[data-state]").nth(5)
    sync_api.expect(second).to_contain_text("bermain di meja 2")
    # When the second semi-final's result is recorded at the desk
    table = semis.tables.get(number=2)
    match = BracketMatch.objects.get(table=table)
    worse = max((s.entry_id for s in match.slots.all()), key=seed_of)
    side = next(s.number for s in table.seats.all() if s.entry_id == worse)
    table_agreed_record(table_id=table.pk, totals={side: 50, 1 - side: 20}, user=None)
    # Then the page shows it without a reload, the winner in bold and the points beside
    sync_api.expect(second).to_contain_text("selesai di meja 2", timeout=10_000)
    sync_api.expect(second.locator(".won")).to_contain_text("(50)")
    page.screenshot(path=str(SHOTS / "bracket-after-result-id-phone.png"), full_page=True)
    # and printed, the drawing is whole and the lists and buttons are left out
    page.emulate_media(media="print")
    assert page.locator(".bracket-list").first.is_hidden()
    assert page.locator("svg.bracket-svg").first.is_visible()
    page.screenshot(path=str(SHOTS / "bracket-printed.png"), full_page=True)
    context.close()
    assert refused == []


#: Names as long as a club's players have, the bracket's widest in bold as winners.
LONG_NAMES = {
    "Pemain 01": "Bambang Suryadi",
    "Pemain 02": "Kadek Santoso (Kadek)",
    "Pemain 03": "Wahyu Hidayat",
    "Pemain 04": "Siti Rahmawati",
    "Pemain 05": "Muhammad Ramadhan",
    "Pemain 06": "Teguh Santoso",
    "Pemain 07": "Putri Maharani",
    "Pemain 08": "Yoga Pratama",
}
#: Each box's name against the points beside it: the gap between them, in pixels.
NAME_TO_POINTS = """() => [...document.querySelectorAll("svg .match g")]
  .filter(g => g.querySelector(".points"))
  .map(g => [g.querySelector(".name").textContent,
             g.querySelector(".points").getBoundingClientRect().left
             - g.querySelector(".name").getBoundingClientRect().right])"""


def test_long_names_stay_clear_of_the_points_and_the_printed_bracket_fits_the_page(
    browser: Any, live_server: Any
) -> None:
    # Given a knockout whose players have full names, the longest of them winners
    tournament, _semis = knockout_in_play()
    for player in Player.objects.filter(name__in=LONG_NAMES):
        player.name = LONG_NAMES[player.name]
        player.save()
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="id-ID")
    page = context.new_page()
    # When a visitor opens the bracket on a phone
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/")
    page.get_by_test_id("bracket-link").click()
    page_settled(page)
    # Then every name in the drawing ends short of its points, bold winners included
    gaps = page.evaluate(NAME_TO_POINTS)
    assert any(name == "Bambang Suryadi" for name, _gap in gaps), gaps
    assert all(gap >= 4 for _name, gap in gaps), gaps
    page.screenshot(path=str(SHOTS / "bracket-long-names-id-phone.png"), full_page=True)
    # and printed, the drawing shrinks to the page's width instead of running off it
    page.emulate_media(media="print")
    right = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('svg.bracket-svg')]"
        ".map(s => s.getBoundingClientRect().right))"
    )
    assert right <= page.evaluate("document.documentElement.clientWidth"), right
    context.close()
