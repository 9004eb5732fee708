"""The round clock on a scorekeeper's phone (Debian's Chromium, 390x844, Indonesian): the
scorekeeper signs in and opens the table from "Meja saya"; the page shows what is left of
the round's 30 minutes; the organiser calls time while hand 2 is in play; the page then
says time was called and hand 2 is the last; the hand is entered and the match ends on
the totals, the higher winning. No page is wider than the phone. Screenshots go to
``artifacts/clock/``."""

from __future__ import annotations

from typing import Any

import pytest

from league.models import Round, TableResult, Tournament
from league.services.clock import round_clock_start
from league.services.rounds import round_create, round_publish, seats_for_entries, table_create
from matches.models import Match
from matches.services.clock import round_time_call
from tests.conftest import ARTIFACTS, page_settled
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RuleSetFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHOTS = ARTIFACTS / "clock"
PASSWORD = "pw-kelipatan-123"  # UserFactory's


def _round() -> tuple[Round, Any]:
    """Round 1, published, of a two-player tournament "to 250 or 30 minutes": Ani against
    Budi at table 1, scored by the scorekeeper "pencatat"."""
    organiser = UserFactory(username="panitia")
    scorekeeper = UserFactory(username="pencatat")
    tournament = TournamentFactory(
        name="Piala Jam",
        slug="piala-jam",
        table_size=Tournament.TableSize.TWO,
        rule_set=RuleSetFactory(name="Tiga puluh menit", time_limit=30),
        entry_mode=Tournament.EntryMode.TALLY,
        requires_confirmation=False,
    )
    tournament.organisers.add(organiser)
    tournament.scorekeepers.add(scorekeeper)
    entries = [
        EntryFactory(tournament=tournament, player=PlayerFactory(name=name, slug=name.lower()))
        for name in ("Ani", "Budi")
    ]
    round = round_create(tournament=tournament)
    table_create(round=round, number=1, seats=seats_for_entries(entries, player_count=2))
    return round_publish(round=round), organiser


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"


def _save(page: Any) -> None:
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click('[data-testid="save"]')
    page_settled(page)


@pytest.mark.django_db(transaction=True)
def test_r24_a_scorekeeper_sees_the_clock_then_time_called_and_the_match_ends_on_the_totals(
    browser: Any, live_server: Any
) -> None:
    # given a published round "to 250 or 30 minutes" whose clock the organiser started
    round, organiser = _round()
    round_clock_start(round_id=round.pk, user=organiser)
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="id-ID"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    # when the scorekeeper signs in and opens table 1 from "Meja saya"
    page.goto(f"{live_server.url}/")
    page.click('[data-testid="sign-in"]')
    page.fill('input[name="username"]', "pencatat")
    page.fill('input[name="password"]', PASSWORD)
    page.click('form.account-form button[type="submit"]')
    page.click('[data-testid="my-tables"]')
    page.click("a.score-button >> text=Catat skor")
    page.wait_for_selector('[data-testid="clock"]')
    # then the page shows what is left of the round's clock
    clock = page.inner_text('[data-testid="clock"]')
    assert "Jam putaran" in clock and "30 menit per putaran" in clock
    left = page.inner_text('[data-testid="clock-left"]')
    assert left.startswith(("29:", "30:")), left
    _fits(page)
    _shot(page, "01-clock-running")

    # when hand 1 is entered: Ani scores 10 and goes out against Budi's 8 pips
    page.check('input[name="leader"][value="0"]')
    page.fill('input[name="scores"]', "1:10")
    page.check('input[name="end"][value="domino:0"]')
    page.fill('input[name="left_1"]', "8")
    _save(page)
    page.wait_for_selector('[data-testid="hand-1"]')
    assert page.inner_text('[data-testid="total-0"]') == "20"

    # and the organiser calls time for the round while hand 2 is in play
    assert round_time_call(round_id=round.pk, user=organiser) == [1]
    page.reload()
    page_settled(page)
    # then the scorekeeper is told time was called and hand 2 is the last
    called = page.inner_text('[data-testid="clock"]')
    assert "Waktu habis." in called and "Selesaikan ronde 2: ini ronde terakhir." in called
    assert "total tertinggi menang" in called
    _fits(page)
    _shot(page, "02-time-called-hand-in-play")

    # when hand 2 is finished: Ani scores 5 and goes out against Budi's 4 pips
    page.check('input[name="leader"][value="0"]')
    page.fill('input[name="scores"]', "1:5")
    page.check('input[name="end"][value="domino:0"]')
    page.fill('input[name="left_1"]', "4")
    _save(page)
    page.wait_for_selector('[data-testid="winner"]')
    # then the match ended on the totals: Ani's 30 against 0, after hand 2
    assert "Ani" in page.inner_text('[data-testid="winner"]')
    ended = page.inner_text('[data-testid="clock"]')
    assert "Waktu habis: pertandingan berakhir setelah ronde 2" in ended
    assert not page.is_visible('[data-testid="save"]')  # no third hand can be entered
    _fits(page)
    _shot(page, "03-match-ended-on-time")
    match = Match.objects.get(table__round=round)
    assert match.is_finished and match.winners == [0] and match.time_called_after == 2
    assert TableResult.objects.get(table__round=round).kind == "played"
    context.close()
