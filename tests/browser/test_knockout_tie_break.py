"""A tied knockout match played off on the scorekeeper's phone (Debian's Chromium,
390x844, Indonesian): the semi-finals of a four-entry knockout "to 250 or 30 minutes",
under "one more hand, repeated while tied". The scorekeeper signs in and opens table 1
from "Meja saya"; the organiser calls time while hand 2 is in play; hand 2 levels the
totals, so the page says the tie is played off and takes another hand; a hand that scores
nothing leaves it level; the next decides it. The organiser closes the round and the
desk's next round drafts the final; a visitor, from the tournament's page by its link,
finds the winner of the play-off in the final on the bracket page. No page is wider than
the phone, and the Indonesian pages show none of the English they replace. Screenshots go
to ``artifacts/tie-break/``."""

from __future__ import annotations

from typing import Any

import pytest

from knockout.services import bracket_advance
from league.models import Round, Tournament
from league.services.results import table_agreed_record
from league.services.rounds import round_close, round_publish
from matches.models import Match
from matches.services.clock import round_time_call
from tests.conftest import ARTIFACTS, page_settled
from tests.factories import UserFactory
from tests.knockout.conftest import timed_semi_finals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SHOTS = ARTIFACTS / "tie-break"
PASSWORD = "pw-kelipatan-123"  # UserFactory's
#: The English the scoring page's play-off notice replaces.
ENGLISH = ("Tied: one more hand", "Play the whole hand", "another hand follows", "Time was")


def _semi_finals() -> tuple[Tournament, Round, Any]:
    organiser = UserFactory(username="panitia")
    tournament, semis = timed_semi_finals(
        organiser,
        name="Piala Seri",
        slug="piala-seri",
        entry_mode=Tournament.EntryMode.TALLY,
        requires_confirmation=False,
    )
    tournament.scorekeepers.add(UserFactory(username="pencatat"))
    return tournament, semis, organiser


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _checked(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"
    text = page.inner_text("body")
    for english in ENGLISH:
        assert english not in text, english


def _hand(page: Any, scores: str, left: str) -> None:
    """Seat 1 leads, the plays ``scores`` are typed, and seat 1 goes out against seat 2's
    ``left`` pips."""
    page.check('input[name="leader"][value="0"]')
    page.fill('input[name="scores"]', scores)
    page.check('input[name="end"][value="domino:0"]')
    page.fill('input[name="left_1"]', left)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click('[data-testid="save"]')
    page_settled(page)


def test_a_tie_at_time_is_played_off_at_the_table_and_its_winner_reaches_the_final(
    browser: Any, live_server: Any
) -> None:
    tournament, semis, organiser = _semi_finals()
    table = semis.tables.get(number=1)
    first, second = (s.entry.display_name for s in table.seats.order_by("number"))
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="id-ID"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/")
    page.click('[data-testid="sign-in"]')
    page.fill('input[name="username"]', "pencatat")
    page.fill('input[name="password"]', PASSWORD)
    page.click('form.account-form button[type="submit"]')
    page.click('[data-testid="my-tables"]')
    page.click("a.score-button >> text=Catat skor")
    page.wait_for_selector('[data-testid="clock"]')

    # Hand 1: seat 1 scores 10 and goes out against 8 pips (20 to 0). Then time is called.
    _hand(page, "1:10", "8")
    page.wait_for_selector('[data-testid="hand-1"]')
    assert sorted(round_time_call(round_id=semis.pk, user=organiser)) == sorted(
        semis.tables.values_list("number", flat=True)
    )
    page.reload()
    page_settled(page)
    last = page.inner_text('[data-testid="clock"]')
    assert "Selesaikan ronde 2: lalu total tertinggi menang" in last
    assert "seri diselesaikan dengan ronde tambahan" in last

    # Hand 2: seat 2 scores 20, seat 1 goes out against 1 pip: 20 each when time is up.
    _hand(page, "2:20", "1")
    page.wait_for_selector('[data-testid="play-off"]')
    notice = page.inner_text('[data-testid="play-off"]')
    assert "Seri: satu ronde lagi menentukan." in notice
    assert "ronde berikutnya menyusul" in notice
    assert "Waktu habis setelah ronde 2." in page.inner_text('[data-testid="clock"]')
    assert page.inner_text('[data-testid="total-0"]') == page.inner_text('[data-testid="total-1"]')
    assert not page.is_visible('[data-testid="winner"]')
    # No play ends a play-off hand, so "target reached" is not offered as its end.
    assert page.locator('input[name="end"][value="target"]').count() == 0
    assert page.locator('[data-testid="left-target-hint"]').count() == 0
    _checked(page)
    _shot(page, "01-level-at-time-one-more-hand")

    # Hand 3 scores nothing (out against 1 pip): still level, so hand 4 is taken too.
    _hand(page, "1:0", "1")
    page.wait_for_selector('[data-testid="hand-3"]')
    assert page.is_visible('[data-testid="play-off"]')
    assert page.is_visible('[data-testid="save"]')
    _checked(page)
    _shot(page, "02-still-level-another-hand")

    # Hand 4: seat 1 goes out against 4 pips, 5 points: seat 1 wins the match.
    _hand(page, "1:0", "4")
    page.wait_for_selector('[data-testid="winner"]')
    assert first in page.inner_text('[data-testid="winner"]')
    assert not page.is_visible('[data-testid="play-off"]')
    assert not page.is_visible('[data-testid="save"]')
    ended = page.inner_text('[data-testid="clock"]')
    assert "diselesaikan dengan ronde tambahan, dan ronde 4 menentukannya" in ended
    _checked(page)
    _shot(page, "03-decided-by-the-extra-hand")
    match = Match.objects.get(table=table)
    assert match.is_finished and match.winners == [0] and match.hands_count == 4

    # The other semi-final is agreed at the desk; the round closes and the final is drawn.
    other = semis.tables.get(number=2)
    sides = [s.number for s in other.seats.order_by("number")]
    table_agreed_record(table_id=other.pk, totals={sides[0]: 50, sides[1]: 10}, user=None)
    round_close(round=semis)
    final = bracket_advance(tournament=tournament)
    assert final is not None
    round_publish(round=final)

    visitor = browser.new_context(viewport=PHONE, is_mobile=True, locale="id-ID")
    public = visitor.new_page()
    public.goto(f"{live_server.url}/tournaments/{tournament.slug}/")
    public.get_by_test_id("bracket-link").click()
    page_settled(public)
    bracket = public.inner_text("body")
    assert first in bracket and second in bracket
    finalists = [s.entry.display_name for s in final.tables.get().seats.order_by("number")]
    assert first in finalists and second not in finalists
    _shot(public, "04-bracket-with-the-final")
    visitor.close()
    context.close()
