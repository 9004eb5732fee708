"""A scorekeeper lays tiles with the tile pad on a phone (390x844, Indonesian): an
illegal tile is refused naming the player, with the moves kept; a reload in the middle
of the hand keeps it. Screenshots go to ``artifacts/tableday/``. (Part of the table-day
journey; the whole round from the cards is not walked here yet.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from league.models import Tournament
from matches.models import Match
from matches.services.lifecycle import match_for_table
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
SHOTS = ARTIFACTS / "tableday"


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")  # the totals stick to the top of the screen
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


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


def _tap_tile(page: Any, low: int, high: int) -> None:
    page.click(f'[data-testid="pip-{low}"]')
    page.click(f'[data-testid="pip-{high}"]')


@pytest.mark.django_db(transaction=True)
def test_tiles_are_laid_with_the_pad_an_illegal_one_is_refused_and_a_reload_keeps_the_hand(
    browser: Any, live_server: Any
) -> None:
    # given a four-player table scored tile by tile
    scorer = UserFactory(username="pencatat-ubin")
    tournament = TournamentFactory(
        table_size=Tournament.TableSize.FOUR, entry_mode="tiles", name="Piala Ubin"
    )
    tournament.scorekeepers.add(scorer)
    table = TableFactory(round=RoundFactory(tournament=tournament), player_count=4, target=200)
    for number, name in enumerate(["Budi", "Siti", "Ani", "Dewi"]):
        SeatFactory(
            table=table, number=number, entry=EntryFactory(tournament=tournament, player__name=name)
        )
    match = match_for_table(table=table)
    assert match.entry_mode == Match.EntryMode.TILES
    client = Client()
    client.force_login(scorer)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/matches/{match.pk}/score/")
    page.check('input[name="leader"][value="0"]')
    # when Budi leads [3|6] with the pad
    _tap_tile(page, 3, 6)
    assert page.inner_text('[data-testid="tile-shown"]') == "[3|6]"
    _shot(page, "pad-1-tile-chosen")
    _act(page, '[data-testid="play"]')
    assert page.input_value('textarea[name="moves"]') == "1 3-6"
    # and Siti's [6|6] is laid on the west end (3): refused, naming her and the fitting end
    _tap_tile(page, 6, 6)
    _act(page, '[data-testid="play-W"]')
    error = page.inner_text('[data-testid="error-tile"]')
    _shot(page, "pad-2-illegal-tile")
    assert "Siti" in error and "ujung barat" in error and "cocok di ujung timur" in error
    assert page.input_value('textarea[name="moves"]') == "1 3-6"
    # then laid on the east end it goes in
    _act(page, '[data-testid="play-E"]')
    assert page.input_value('textarea[name="moves"]') == "1 3-6\n2 6-6 E"
    # when the phone reloads the page in the middle of the hand
    page.reload()
    page_settled(page)
    page.wait_for_function("document.querySelector('textarea[name=moves]').value.includes('6-6')")
    _shot(page, "pad-3-after-reload")
    # then the hand is still there, with a note, and nothing was saved
    assert page.input_value('textarea[name="moves"]') == "1 3-6\n2 6-6 E"
    assert "disimpan di ponsel ini" in page.inner_text(".sk-messages")
    assert not match.hands.exists()
    context.close()
