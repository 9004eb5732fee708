"""A scorekeeper enters a complete four-player match to its target on a phone, in a real
browser (Debian's Chromium through Playwright, against the live test server), once in
each entry mode, and sees the winner. The hands come from ``allfives.simulate_match``
with a fixed seed, so the test knows a legal sequence and the engine's final totals.
A table's link, opened in Indonesian, shows a refusal and a saved hand's notice in view
below the board, and the deciding hand's save shows the finished match at once.
Screenshots go to ``artifacts/scorekeeper/``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from allfives import Rules, Tile, check, simulate_match
from league.models import Table, Tournament
from matches.models import Match
from matches.services.lifecycle import match_for_table, match_import
from matches.services.links import table_links_issue
from tests.conftest import ARTIFACTS, page_settled
from tests.factories import (
    EntryFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHOTS = ARTIFACTS / "scorekeeper"
TARGET = 200  # the default four-player target (R4)


def _table(entry_mode: str) -> tuple[Table, Any]:
    scorekeeper = UserFactory(username=f"pencatat-{entry_mode}")
    tournament = TournamentFactory(
        table_size=Tournament.TableSize.FOUR, entry_mode=entry_mode, name="Piala Kelipatan"
    )
    tournament.scorekeepers.add(scorekeeper)
    table = TableFactory(round=RoundFactory(tournament=tournament), player_count=4, target=TARGET)
    for number, name in enumerate(["Ani", "Budi", "Citra", "Dewi"]):
        entry = EntryFactory(tournament=tournament, player__name=name)
        SeatFactory(table=table, number=number, entry=entry)
    return table, scorekeeper


def _phone(browser: Any, live_server: Any, user: Any) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context.new_page()


def _simulated(seed: int) -> dict[str, Any]:
    return dict(
        simulate_match(
            players=4,
            rules=Rules(targets={4: TARGET}),
            rng=random.Random(seed),
            strategies=["greedy"],
        )
    )


def _left_pips(hand: dict[str, Any]) -> list[int]:
    """What each seat still holds at the end of a simulated hand, in pips."""
    held = [{Tile.parse(t) for t in seat} for seat in hand["deal"]]
    for move in hand["moves"]:
        if "play" in move:
            held[move["seat"]].discard(Tile.parse(move["play"]))
        elif move.get("draw"):
            held[move["seat"]].add(Tile.parse(move["draw"]))
    return [sum(tile.pips for tile in seat) for seat in held]


def _act(page: Any, selector: str) -> None:
    """Press a button and wait until htmx has swapped the new panel in and settled it
    (typing into the old panel before that would be lost with it)."""
    page.evaluate(
        "delete document.body.dataset.settled; document.addEventListener('htmx:afterSettle',"
        " () => { document.body.dataset.settled = '1'; }, {once: true})"
    )
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click(selector)
    page.wait_for_selector("body[data-settled]", state="attached")
    page_settled(page)


def _save(page: Any, number: int) -> None:
    _act(page, '[data-testid="save"]')
    page.wait_for_selector(f'[data-testid="hand-{number}"]')


def _fill_left(page: Any, pips: list[int]) -> None:
    for seat, value in enumerate(pips):
        page.fill(f'input[name="left_{seat}"]', str(value))


def _winner(page: Any) -> str:
    page.wait_for_selector('[data-testid="winner"]')
    return str(page.inner_text('[data-testid="winner"]'))


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")  # the totals stick to the top of the screen
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _totals(page: Any) -> dict[str, str]:
    return {side: page.inner_text(f'[data-testid="total-{side}"]') for side in ("0", "1")}


@pytest.mark.django_db(transaction=True)
def test_a_scorekeeper_enters_a_whole_match_in_tally_mode_on_a_phone(
    browser: Any, live_server: Any
) -> None:
    # given a four-player table to 200 and the hands of a simulated match, as tallies
    table, scorekeeper = _table("tally")
    match = match_for_table(table=table)
    document = _simulated(seed=3)
    expected = check(document)
    page = _phone(browser, live_server, scorekeeper)
    page.goto(f"{live_server.url}/en/matches/{match.pk}/score/")
    assert page.inner_text('[data-testid="target"]') == str(TARGET)
    _shot(page, "tally-1-start")
    refused = False

    for number, (hand, verdict) in enumerate(
        zip(document["hands"], expected["hands"], strict=True), start=1
    ):
        # when the scorekeeper taps the leader, each scoring play as it happens, the end
        page.check(f'input[name="leader"][value="{hand["leader"]}"]')
        for play in verdict["plays"]:
            if play["points"]:
                _act(page, f'[data-testid="add-{play["seat"]}-{play["points"]}"]')
        if verdict["end"] == "target":
            page.check('input[name="end"][value="target"]')
        elif verdict["end"] == "blocked":
            page.check('input[name="end"][value="blocked"]')
            _fill_left(page, _left_pips(hand))
        else:
            went_out = [m for m in hand["moves"] if "play" in m][-1]["seat"]
            page.check(f'input[name="end"][value="domino:{went_out}"]')
            pips = _left_pips(hand)
            if not refused:
                refused = True
                # a slip of the pen: the player who went out cannot hold anything
                _fill_left(
                    page, [p + (7 if seat == went_out else 0) for seat, p in enumerate(pips)]
                )
                _act(page, '[data-testid="save"]')
                error = page.inner_text(f'[data-testid="error-left_{went_out}"]')
                assert error, "the engine's reason is shown at the seat's field"
                assert page.input_value(f'input[name="left_{went_out}"]') == "7"
                _shot(page, "tally-2-refused")
            _fill_left(page, pips)
        _save(page, number)
        if number == 2:
            _shot(page, "tally-3-running")

    # then the winner is shown with the engine's totals (and one refusal was seen)
    assert refused
    winner = _winner(page)
    _shot(page, "tally-4-winner")
    names = {0: "Ani & Citra", 1: "Budi & Dewi"}
    assert names[expected["winner"]] in winner
    assert _totals(page) == {side: str(points) for side, points in expected["totals"].items()}
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


@pytest.mark.django_db(transaction=True)
def test_a_scorekeeper_enters_a_whole_match_tile_by_tile_on_a_phone(
    browser: Any, live_server: Any
) -> None:
    # given a four-player table to 200 and a simulated match's moves
    table, scorekeeper = _table("tiles")
    match = match_for_table(table=table)
    document = _simulated(seed=7)
    expected = check(document)
    page = _phone(browser, live_server, scorekeeper)
    page.goto(f"{live_server.url}/en/matches/{match.pk}/score/")

    for number, (hand, verdict) in enumerate(
        zip(document["hands"], expected["hands"], strict=True), start=1
    ):
        # when every tile laid, drawn and every pass is entered with the buttons
        page.check(f'input[name="leader"][value="{hand["leader"]}"]')
        for index, move in enumerate(hand["moves"]):
            if "play" in move:
                page.fill('input[name="tile"]', move["play"])
                _act(
                    page,
                    f'[data-testid="play-{move["end"]}"]'
                    if "end" in move
                    else '[data-testid="play"]',
                )
            elif "draw" in move:
                page.fill('input[name="tile"]', move["draw"] or "")
                _act(page, '[data-testid="draw"]')
            else:
                _act(page, '[data-testid="pass"]')
            if number == 1 and index == 6:
                _shot(page, "tiles-1-layout")
        turn = page.inner_text('[data-testid="turn"]')
        if verdict["end"] == "blocked":
            # the simulator leaves out the closing passes; without a deal they are entered
            while "Blocked" not in turn:
                _act(page, '[data-testid="pass"]')
                turn = page.inner_text('[data-testid="turn"]')
        if verdict["end"] != "target":
            _fill_left(page, _left_pips(hand))
        else:
            assert "Target reached" in turn
        _save(page, number)
        if number == 1:
            _shot(page, "tiles-2-after-hand-1")

    # then the winner is shown with the engine's totals
    winner = _winner(page)
    _shot(page, "tiles-3-winner")
    names = {0: "Ani & Citra", 1: "Budi & Dewi"}
    assert names[expected["winner"]] in winner
    assert _totals(page) == {side: str(points) for side, points in expected["totals"].items()}
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def _in_view(page: Any, selector: str) -> dict[str, Any]:
    """Where the element is on the screen, against the board stuck to the top, and
    whether it holds the focus."""
    return dict(
        page.evaluate(
            """(selector) => {
              const element = document.querySelector(selector);
              const box = element.getBoundingClientRect();
              const board = document.querySelector('.sk-board').getBoundingClientRect();
              const below = element.compareDocumentPosition(document.querySelector('.sk-board'))
                & Node.DOCUMENT_POSITION_PRECEDING;
              return {top: box.top, bottom: box.bottom, clear: below ? board.bottom : 0,
                      height: window.innerHeight, focused: document.activeElement === element};
            }""",
            selector,
        )
    )


def _assert_in_view(page: Any, selector: str) -> None:
    where = _in_view(page, selector)
    assert where["clear"] <= where["top"] < where["bottom"] <= where["height"], where
    assert where["focused"], where


@pytest.mark.django_db(transaction=True)
def test_a_tables_link_shows_each_result_in_view_and_the_finished_match_at_once(
    browser: Any, live_server: Any
) -> None:
    # given a table of four to 50 and its side-1 link, opened on a phone in Indonesian
    tournament = TournamentFactory(
        name="Piala Meja", table_size=Tournament.TableSize.FOUR, requires_confirmation=False
    )
    table = TableFactory(round=RoundFactory(tournament=tournament), player_count=4, target=50)
    for number, name in enumerate(["Ani", "Budi", "Citra", "Dewi"]):
        SeatFactory(
            table=table, number=number, entry=EntryFactory(tournament=tournament, player__name=name)
        )
    link = table_links_issue(table=table, user=None)[0]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _phone_on_link(browser, live_server, link, '[data-testid="save"]')

    # when hand 1's plays are tapped and it is saved with no leader chosen
    _act(page, '[data-testid="add-0-10"]')
    _act(page, '[data-testid="add-1-5"]')
    page.check('input[name="end"][value="domino:2"]')
    _fill_left(page, [7, 8, 0, 6])
    _act(page, '[data-testid="save"]')
    # then the refusal, at the top of the form, is in view below the board with the
    # choice it is about, and focused
    _assert_in_view(page, '[data-testid="error-leader"]')
    where = _in_view(page, ".sk-leader")
    assert where["clear"] <= where["top"], where
    page.screenshot(path=str(SHOTS / "link-1-refused.png"))

    # when the leader is chosen and the hand saved
    page.check('input[name="leader"][value="0"]')
    _save(page, 1)
    # then "Ronde 1 disimpan." is in view and focused
    assert page.inner_text(".sk-messages") == "Ronde 1 disimpan."
    _assert_in_view(page, ".sk-messages")
    page.screenshot(path=str(SHOTS / "link-2-saved.png"))

    # when hand 2 is entered, and hand 3 up to the play that reaches the target
    _act(page, '[data-testid="add-2-20"]')
    _act(page, '[data-testid="add-3-5"]')
    page.check('input[name="end"][value="domino:1"]')
    _fill_left(page, [3, 0, 4, 10])
    _save(page, 2)
    page.check('input[name="leader"][value="1"]')
    _act(page, '[data-testid="add-1-5"]')
    _act(page, '[data-testid="add-2-5"]')
    page.check('input[name="end"][value="target"]')
    url = page.url
    page.click('[data-testid="save"]')

    # then the finished match is shown at once: the winner, the totals, its links
    page.wait_for_selector('[data-testid="finished"]')
    page_settled(page)
    assert page.url == url  # the scoring page's address, now the finished match
    assert page.get_by_test_id("winner").is_visible()
    assert "Pemenang: Ani & Citra" in page.inner_text('[data-testid="winner"]')
    assert page.inner_text(".sk-messages") == "Ronde 3 tercatat. Pertandingan selesai."
    assert _totals(page) == {"0": "50", "1": "20"}
    assert page.get_by_test_id("scoresheet-link").is_visible()
    assert not page.locator("#scorekeeper").count()
    _shot(page, "link-3-finished")
    assert Match.objects.get(table=table).status == Match.Status.FINISHED


#: What sticks out past the screen's right edge, for a failure's message.
STICKING_OUT = """() => [...document.querySelectorAll('main *')]
  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .filter((e) => !e.closest('.sk-table-wrap'))
  .slice(0, 5).map((e) => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40))"""

#: Where the hands table's last column is: each cell's right edge, and the scrolling
#: wrapper's (if any) right edge and whether it scrolls.
LAST_COLUMN = """() => {
  const cells = [...document.querySelectorAll('.sk-hands tr > :last-child')];
  const wrap = document.querySelector('.sk-table-wrap');
  const box = wrap.getBoundingClientRect();
  return {
    rights: cells.map((c) => c.getBoundingClientRect().right),
    wrap_right: box.right,
    scrolls: wrap.scrollWidth > wrap.clientWidth
      && getComputedStyle(wrap).overflowX === 'auto',
    width: document.documentElement.clientWidth,
  };
}"""


def _hands_table_page(browser: Any, live_server: Any, players: int, names: list[str]) -> Any:
    """A table of `players` with three hands recorded, its scoring page opened through
    the table's link on a phone in Indonesian."""
    size = {2: Tournament.TableSize.TWO, 3: Tournament.TableSize.THREE}.get(
        players, Tournament.TableSize.FOUR
    )
    tournament = TournamentFactory(name="Piala Lebar", table_size=size, requires_confirmation=False)
    table = TableFactory(
        round=RoundFactory(tournament=tournament), player_count=players, target=300
    )
    for number, name in enumerate(names):
        SeatFactory(
            table=table, number=number, entry=EntryFactory(tournament=tournament, player__name=name)
        )
    left = {str(seat): 6 + seat for seat in range(1, players)} | {"0": 0}
    hand = {"leader": 0, "scores": [[0, 10], [1, 15]], "end": {"domino": 0}, "left": left}
    match_import(
        match=match_for_table(table=table),
        document={"format": "allfives/1", "players": players, "hands": [hand] * 3},
        user=None,
    )
    link = table_links_issue(table=table, user=None)[0]
    return _phone_on_link(browser, live_server, link, '[data-testid="hand-3"]')


def _phone_on_link(browser: Any, live_server: Any, link: Any, ready: str) -> Any:
    """A phone in Indonesian on the scoring page of a table's link, once ``ready`` shows."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="id-ID"
    )
    page = context.new_page()
    page.goto(live_server.url + reverse("matches:table_link", args=[link.key]))
    page.wait_for_selector(ready)
    page_settled(page)
    return page


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "names",
    [
        ["Bambang Sutrisno", "Yohanes Kristianto"],
        ["Bambang Sutrisno", "Yohanes Kristianto", "Maria Goretti Wulandari"],
        ["Bambang Sutrisno", "Yohanes Kristianto", "Maria Goretti", "Siti Nurhaliza"],
    ],
    ids=["two", "three", "four"],
)
def test_the_hands_table_fits_a_phone_at_every_table_size(
    browser: Any, live_server: Any, names: list[str]
) -> None:
    # given a table's scoring page with three hands, on a 390 px phone in Indonesian
    page = _hands_table_page(browser, live_server, len(names), names)
    # then the page itself does not scroll sideways
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], page.evaluate(STICKING_OUT)
    # and every side's column is on the screen, without scrolling the list sideways
    where = page.evaluate(LAST_COLUMN)
    assert where["rights"], where
    assert all(right <= where["width"] for right in where["rights"]), where
    assert not where["scrolls"], where
    page.locator(".sk-history").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"hands-{len(names)}-players.png"), full_page=True)
