"""A club's organiser runs the knockout from the desk, in Indonesian at 1280 px: after a
closed Swiss round they start a top four, see that its draft round offers no pairing
again (its tables are the bracket's), take it back while its round is a draft, start it
again with a third-place match, publish the semi-finals, record at a tied table who won
the extra hand, advance the winners with 'next round', look the bracket up in the admin
(read-only), open it from the desk's link, and back at the desk play the final and the
third-place match and record their winners, after which the desk names the champion. By
links and buttons only; every desk page is checked for English; screenshots go to
``artifacts/knockout-desk/``.
"""

from __future__ import annotations

from typing import Any

import pytest

from desk.services import round_next
from league.models import Tournament
from league.services.results import table_agreed_record
from league.services.rounds import round_close, round_publish
from tests.browser.test_desk import _indonesian, _organiser, _press, _sign_in
from tests.conftest import ARTIFACTS, page_settled
from tests.desk.conftest import WINNING_HAND, club_tournament, play
from tests.factories import ClubFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "knockout-desk"


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_an_organiser_runs_the_knockout_from_the_desk(
    browser: Any, live_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Given a club's tournament of six whose Swiss round is played and closed
    club = ClubFactory(name="Klub Merdeka", city="Surabaya")
    tournament = club_tournament(
        club, players=6, rounds_count=4, name="Piala Gugur", slug="piala-gugur"
    )
    organiser = _organiser(club)
    with django_capture_on_commit_callbacks(execute=True):
        swiss = round_next(tournament=tournament)
    assert swiss is not None
    round_publish(round=swiss)
    for table in swiss.tables.all():
        play(table, organiser, [WINNING_HAND])
    round_close(round=swiss)

    # When the organiser opens the desk and starts a top four with a third-place match
    page = _sign_in(browser, live_server)
    page.click(f'[data-testid="desk-{tournament.slug}"]')
    page.wait_for_selector(".desk-main")
    form = page.locator('[data-testid="knockout-start"]')
    assert "Babak gugur" in form.inner_text()
    _indonesian(page)
    # (first without the third-place match, which they take back before publishing)
    form.locator("#id_cut").select_option("4")
    form.get_by_role("button").click()
    page.wait_for_selector('[data-testid="knockout-undo"]')
    assert tournament.rounds.get(number=2).is_knockout
    # Then its draft round can be published or taken back, never paired again: the desk
    # says why where the pair button would be
    assert not page.locator('[data-testid="pair"]').count()
    assert page.is_visible('[data-testid="publish"]')
    refused = page.inner_text('[data-testid="pair-refused"]')
    assert "putaran babak gugur" in refused and "bukan dari pemasangan" in refused
    _shot(page, "01a-bisa-ditarik-kembali")
    _indonesian(page)
    page.locator('[data-testid="knockout-undo"]').get_by_role("button").click()
    page.wait_for_selector('[data-testid="knockout-start"]')
    assert "ditarik kembali" in page.inner_text(".messagelist")
    assert not tournament.rounds.filter(number=2).exists()
    _indonesian(page)
    form = page.locator('[data-testid="knockout-start"]')
    form.locator("#id_cut").select_option("4")
    form.locator("#id_third_place").check()
    _shot(page, "01-mulai-babak-gugur")
    form.get_by_role("button").click()
    page.wait_for_selector(".messagelist")
    # Then the semi-finals are drawn as round 2, from the standings
    assert "putaran 2 sudah diundi" in page.inner_text(".messagelist")
    semis = tournament.rounds.get(number=2)
    assert semis.is_knockout and semis.tables.count() == 2
    assert not page.locator('[data-testid="pair"]').count()
    _indonesian(page)

    # When they publish it and the tables finish, table 1 tied
    _press(page, "publish")
    assert not page.is_visible('[data-testid="knockout-undo"]')  # started: no taking back
    table_agreed_record(table_id=semis.tables.get(number=1).pk, totals={0: 45, 1: 45}, user=None)
    table_agreed_record(table_id=semis.tables.get(number=2).pk, totals={0: 50, 1: 20}, user=None)
    _press(page, "close")
    # Then the desk asks who won the tied table's extra hand
    ties = page.locator('[data-testid="knockout-ties"]')
    assert "satu ronde lagi" in ties.inner_text()
    _shot(page, "02-meja-seri")
    _indonesian(page)
    second_seat = semis.tables.get(number=1).seats.get(number=1).entry
    ties.locator(f'[data-testid="extra-hand-{second_seat.pk}"]').click()
    page.wait_for_selector(".messagelist")
    assert "memenangi ronde tambahan dan lolos" in page.inner_text(".messagelist")

    # When they advance the winners with the next-round button
    assert "Loloskan pemenang ke putaran 3" in page.inner_text('[data-testid="next"]')
    _press(page, "next")
    # Then the final and the third-place match are drawn as round 3
    assert "Putaran 3 sudah diundi dari bagan" in page.inner_text(".messagelist")
    final = tournament.rounds.get(number=3)
    assert final.is_knockout and final.tables.count() == 2
    finalists = {s.entry_id for s in final.tables.get(number=1).seats.all()}
    assert second_seat.pk in finalists
    # And the final's draft offers publishing only: no pairing, no taking back
    assert not page.locator('[data-testid="pair"]').count()
    assert not page.locator('[data-testid="knockout-undo"]').count()
    assert page.is_visible('[data-testid="pair-refused"]')
    _shot(page, "03-final-diundi")
    _indonesian(page)

    # And the admin shows the bracket, read-only, from its index: seeds and matches
    page.click(".breadcrumbs a >> nth=0")
    page.wait_for_selector("#content-main")
    page.click('#content-main a[href$="/knockout/bracket/"]')
    page.wait_for_selector("#result_list")
    _indonesian(page)
    page.click("#result_list tbody tr >> nth=0 >> a")
    page.wait_for_selector(".inline-group")
    shown = page.inner_text("#content-main")
    assert second_seat.display_name in shown and "Tempat ketiga" in shown
    assert not page.locator('input[type="submit"][name="_save"]').count()  # nothing to save
    _shot(page, "03a-bagan-di-admin")
    _indonesian(page)
    page.click("#content-main a >> text=Meja turnamen")
    page.wait_for_selector(".desk-main")

    # And the desk's link opens the bracket, with the final's players in it
    page.click('[data-testid="desk-bracket-link"]')
    page.wait_for_url("**/knockout/")
    page_settled(page)
    assert second_seat.display_name in page.inner_text('[data-testid="bracket-main"]')
    _shot(page, "04-bagan")

    # When they go back to the desk by the site's "Meja saya", where the board names the
    # final and the third-place match, publish round 3 and close it once both tables end
    page.click("nav >> text=Meja saya")
    page.click(f'[data-testid="desk-{tournament.slug}"]')
    page.wait_for_selector(".desk-main")
    assert page.inner_text('[data-testid="stage-1"]') == "Final"
    assert page.inner_text('[data-testid="stage-2"]') == "Tempat ketiga"
    _press(page, "publish")
    for table in final.tables.all():
        table_agreed_record(table_id=table.pk, totals={0: 50, 1: 30}, user=None)
    _press(page, "close")
    # Then the desk offers to record the winners, not a round 4 that never comes
    assert "Catat pemenang putaran 3: babak gugur selesai" in page.inner_text(
        '[data-testid="next"]'
    )
    _indonesian(page)
    _press(page, "next")
    # And once recorded it names the champion and offers no next round
    champion = final.tables.get(number=1).seats.get(number=0).entry
    over = page.inner_text('[data-testid="knockout-over"]')
    assert over == f"Babak gugur selesai: {champion.display_name} juaranya."
    assert not page.locator('[data-testid="next"]').count()
    _shot(page, "05-babak-gugur-selesai")
    _indonesian(page)
    # When they finish the tournament from the desk
    _press(page, "finish")
    # Then the desk says its standings are final, and the public page shows it finished
    assert "klasemennya final" in page.inner_text('[data-testid="tournament-finished"]')
    assert not page.locator('[data-testid="finish"]').count()
    _shot(page, "06-turnamen-selesai")
    _indonesian(page)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    page.context.close()
