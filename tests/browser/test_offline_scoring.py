"""A table's phone keeps scoring with no network and sends every hand once when the
network is back (Debian's Chromium through Playwright, 390 px, in Indonesian).

The scorer opens the table's link from its card, the page is usable at once and the
rules engine (allfives in Pyodide) arrives after; then the network goes away
(``context.set_offline``). Three hands are entered — one first refused on the phone in
the server's own words —, the page is reloaded offline and still holds them, and when
the network returns they reach the server once each, in order. A second phone that
changes the match meanwhile brings up the two versions; either choice leaves a match
that replays cleanly. A knockout semi-final whose tie at time starts its play-off while
the phone is offline stops offering "target reached" as a hand's end there and then, and
says the tie is played off, its clock box too, in the online page's words; the hand that
decides it, kept offline, has the clock box say so, the form offer no next hand, the
page say who won and that the hands go when the network is back, and the board count
the hands kept on the phone and draw their totals (tally, bar, the winner's box marked)
as the server's page then does, with no switch of entry modes. In a match whose hands
wait for the other side's confirmation, the server refuses the hand a phone kept to
decide the match; corrected on the phone with no network, the hand comes back on the
form with the switch of entry modes, the match undecided again. Screenshots go to
``artifacts/offline/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from allfives import AllFivesError, check
from league.models import Tournament
from matches.messages import engine_error_message
from matches.models import DeviceSend, Hand, Match
from matches.selectors import match_document, match_playing_off
from matches.services.clock import round_time_call
from matches.services.hands import hand_record
from matches.services.lifecycle import match_for_table
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
from tests.knockout.conftest import timed_semi_finals

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHOTS = ARTIFACTS / "offline"
NAMES = ["Ani", "Budi", "Citra", "Dewi"]
ENGINE_TIMEOUT_MS = 120_000


def _table(*, target: int = 200, requires_confirmation: bool = False) -> Any:
    tournament = TournamentFactory(
        name="Piala Warung",
        table_size=Tournament.TableSize.FOUR,
        requires_confirmation=requires_confirmation,
    )
    table = TableFactory(round=RoundFactory(tournament=tournament), player_count=4, target=target)
    for number, name in enumerate(NAMES):
        SeatFactory(
            table=table, number=number, entry=EntryFactory(tournament=tournament, player__name=name)
        )
    return table


def _phone(browser: Any) -> tuple[Any, Any]:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="id-ID"
    )
    return context, context.new_page()


def _open_link(page: Any, live_server: Any, key: str) -> float:
    """Open the table's link as the card's QR code does; the page's load time in ms (a
    fresh visit: a new browser context, nothing kept)."""
    page.goto(live_server.url + reverse("matches:table_link", args=[key]))
    page.wait_for_selector('[data-testid="save"]')
    return float(
        page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return n.loadEventEnd - n.startTime; }"
        )
    )


def _wait_engine(page: Any) -> None:
    page.wait_for_function(
        "() => document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS
    )


def _tally_hand(page: Any, plays: list[tuple[int, int]], *, domino: int, left: list[str]) -> None:
    """Tap the scoring plays, choose who went out, type what the others hold, save."""
    for seat, points in plays:
        page.get_by_test_id(f"add-{seat}-{points}").click()
    page.locator(f'input[name="end"][value="domino:{domino}"]').check()
    for seat, value in enumerate(left):
        page.locator(f'input[name="left_{seat}"]').fill(value)
    page.get_by_test_id("save").click()


def _keep_hand_offline(
    page: Any, *, number: int, leader: int, scores: str, end: str, left: dict[int, str]
) -> None:
    """With no network: choose who leads, type the scoring plays, choose how the hand
    ended and type what the others hold, save, and wait for hand `number` to be kept."""
    page.check(f'input[name="leader"][value="{leader}"]')
    page.fill('input[name="scores"]', scores)
    page.check(f'input[name="end"][value="{end}"]')
    for seat, value in left.items():
        page.fill(f'input[name="left_{seat}"]', value)
    page.click('[data-testid="save"]')
    page.wait_for_selector(f'[data-testid="queued-{number}"]')


def _board(page: Any) -> list[dict[str, Any]]:
    """Each side's box on the board as drawn: marked as the winner or not, its points,
    its tally (label, size, lines, half point) and the width of its bar."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('.sk-board [data-testid^="side-"]')]
              .map((box) => {
                const svg = box.querySelector('svg.tally-strokes');
                const half = box.querySelector('.tally-half');
                return {
                  side: box.dataset.testid,
                  winner: box.classList.contains('sk-winner-side'),
                  points: box.querySelector('.sk-points').textContent,
                  label: svg.getAttribute('aria-label'),
                  title: svg.querySelector('title').textContent,
                  size: ['width', 'height'].map((name) => Number(svg.getAttribute(name))),
                  lines: [...svg.querySelectorAll('line')].map((line) =>
                    ['x1', 'y1', 'x2', 'y2', 'stroke-width']
                      .map((name) => Number(line.getAttribute(name)))),
                  half: half ? half.textContent : null,
                  bar: box.querySelector('.sk-progress span').style.width,
                };
              })"""
        )
    )


def _modes_switch_shown(page: Any) -> bool:
    """Whether the switch between entry modes ("Cara pencatatan", "Ganti") is offered."""
    actions = page.get_by_role("region", name="Pertandingan")
    shown = [
        actions.get_by_label("Cara pencatatan").is_visible(),
        actions.get_by_role("button", name="Ganti").is_visible(),
    ]
    assert shown[0] == shown[1], shown  # the choice and its button come and go together
    return shown[0]


def _server_message(match: Match, key_link: Any) -> str:
    """What the server says, in Indonesian, to hand 2 with nothing typed for the others."""
    with translation.override("id"):
        try:
            hand_record(
                match=match,
                number=1,
                hand={"leader": 0, "scores": [[1, 5]], "end": {"domino": 1}},
                version=match.version,
                user=None,
                link=key_link,
            )
        except AllFivesError as exc:
            return engine_error_message(exc, dict(enumerate(NAMES)))
    raise AssertionError("the server accepted a hand with nothing said for the others")


def test_phone_scores_three_hands_offline_and_sends_each_once_in_order(
    browser: Any, live_server: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # given a published table of four and its side-1 link, opened on a phone
    table = _table()
    links = table_links_issue(table=table, user=None)
    context, page = _phone(browser)
    load_ms = _open_link(page, live_server, links[0].key)
    print(f"\nscoring page, fresh visit: usable (load event) after {load_ms:.0f} ms")
    match = match_for_table(table=table)
    # and the engine arrives after the page is usable: its download starts after the load
    _wait_engine(page)
    started_ms, ready_ms = page.evaluate(
        "() => [window.kelipatanEngine.startedAt, performance.now()]"
    )
    print(f"engine: fetched from {started_ms:.0f} ms, ready on the phone at {ready_ms:.0f} ms")
    assert started_ms >= load_ms
    page.screenshot(path=str(SHOTS / "01-online.png"), full_page=True)

    # when the network goes away
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    # and hand 1 is entered: Ani leads, Ani 10, Budi 5, Ani goes out
    page.locator('input[name="leader"][value="0"]').check()
    _tally_hand(page, [(0, 10), (1, 5)], domino=0, left=["", "12", "8", "10"])
    page.wait_for_selector('[data-testid="queued-1"]')
    assert "menunggu dikirim" in page.get_by_test_id("queued-1").inner_text()
    # and hand 2 is saved with nothing typed for what the others hold
    page.wait_for_function("() => document.querySelector('input[name=number]').value === '2'")
    _tally_hand(page, [(1, 5)], domino=1, left=["", "", "", ""])
    # then the phone refuses it at once, in the words the server gives
    error = page.get_by_test_id("device-error")
    error.wait_for()
    server_says = _server_message(match, links[0])
    assert error.inner_text() == server_says
    assert page.locator('[data-testid="queued-2"]').count() == 0
    page.screenshot(path=str(SHOTS / "02-refused-on-phone.png"), full_page=True)
    # when the others' pips are typed, hand 2 is kept too; then hand 3
    for seat, value in enumerate(["9", "", "7", "11"]):
        page.locator(f'input[name="left_{seat}"]').fill(value)
    page.get_by_test_id("save").click()
    page.wait_for_selector('[data-testid="queued-2"]')
    page.locator('input[name="leader"][value="1"]').check()
    _tally_hand(page, [(2, 15), (3, 10)], domino=2, left=["6", "5", "", "9"])
    page.wait_for_selector('[data-testid="queued-3"]')
    assert page.get_by_test_id("net-status").inner_text().count("3") >= 1
    page.screenshot(path=str(SHOTS / "03-three-waiting.png"), full_page=True)
    assert not Hand.objects.filter(match=match).exists()

    # when the page is reloaded with no network
    page.reload()
    page.wait_for_selector('[data-testid="queued-3"]')
    # then all three are still there, waiting, and the next hand is hand 4
    for number in (1, 2, 3):
        assert "menunggu dikirim" in page.get_by_test_id(f"queued-{number}").inner_text()
    assert page.locator('input[name="number"]').input_value() == "4"
    page.screenshot(path=str(SHOTS / "04-reloaded-offline.png"), full_page=True)

    # when the network returns
    context.set_offline(False)
    page.wait_for_selector('[data-testid="hand-3"]', timeout=90_000)
    # then the server holds the three hands once each, in order, as entered
    hands = list(Hand.objects.filter(match=match).order_by("number"))
    assert [h.number for h in hands] == [1, 2, 3]
    assert [h.leader for h in hands] == [0, 0, 1]  # who went out leads next (R21)
    assert [h.entry["scores"] for h in hands] == [[[0, 10], [1, 5]], [[1, 5]], [[2, 15], [3, 10]]]
    assert DeviceSend.objects.filter(match=match).count() == 3
    assert page.locator('[data-testid^="queued-"]').count() == 0
    assert check(match_document(match=match))["ok"] is True
    page.screenshot(path=str(SHOTS / "05-sent.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("keep", ["device", "server"])
def test_a_change_from_another_phone_meanwhile_shows_both_versions_to_choose_from(
    browser: Any, live_server: Any, keep: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # given a table whose two sides each opened their link on a phone
    table = _table()
    links = table_links_issue(table=table, user=None)
    context_a, phone_a = _phone(browser)
    context_b, phone_b = _phone(browser)
    _open_link(phone_a, live_server, links[0].key)
    _open_link(phone_b, live_server, links[1].key)
    match = match_for_table(table=table)
    # when phone A loses the network and keeps a hand 1 of its own
    context_a.set_offline(True)
    phone_a.wait_for_function("() => !navigator.onLine")
    phone_a.locator('input[name="leader"][value="0"]').check()
    _tally_hand(phone_a, [(0, 10), (1, 5)], domino=0, left=["", "12", "8", "10"])
    phone_a.wait_for_selector('[data-testid="queued-1"]')
    # and meanwhile phone B records another hand 1 on the server
    phone_b.locator('input[name="leader"][value="1"]').check()
    _tally_hand(phone_b, [(1, 20)], domino=1, left=["9", "", "6", "4"])
    phone_b.wait_for_selector('[data-testid="hand-1"]', timeout=90_000)
    theirs = Hand.objects.get(match=match).entry
    # and phone A's network comes back
    context_a.set_offline(False)
    # then phone A stops and shows both versions: the server's and its own
    conflict = phone_a.get_by_test_id("conflict")
    conflict.wait_for(timeout=90_000)
    assert "Budi" in phone_a.get_by_test_id("version-server").inner_text()
    assert "1:10 2:5" in phone_a.get_by_test_id("version-device").inner_text()
    assert "Orang lain mengubah" in phone_a.get_by_test_id("conflict-why").inner_text()
    phone_a.screenshot(path=str(SHOTS / f"10-conflict-{keep}.png"), full_page=True)
    assert Hand.objects.get(match=match).entry == theirs

    # when the scorer chooses one version
    phone_a.get_by_test_id(f"keep-{keep}").click()
    phone_a.wait_for_selector('[data-testid="hand-1"]', timeout=90_000)
    phone_a.wait_for_function("() => !document.querySelector('[data-testid=queued-1]')")
    # then the match holds that version's hand 1, once, and replays cleanly
    match.refresh_from_db()
    hands = list(Hand.objects.filter(match=match))
    assert len(hands) == 1
    if keep == "device":
        assert hands[0].entry["scores"] == [[0, 10], [1, 5]]
        assert Hand.history.filter(match_id=match.pk, history_type="-").count() == 1
    else:
        assert hands[0].entry == theirs
        assert not DeviceSend.objects.filter(match=match).exists()
    assert check(match_document(match=match))["ok"] is True
    assert match.hands_count == 1
    phone_a.screenshot(path=str(SHOTS / f"11-kept-{keep}.png"), full_page=True)
    context_a.close()
    context_b.close()


#: The English the play-off notice, the clock box, the end choices, the board's count of
#: hands and the notice of a match ended on the phone replace.
PLAY_OFF_ENGLISH = (
    "Tied: one more hand",
    "Play the whole hand",
    "Time was called",
    "Time has been called",
    "Finish hand",
    "Target reached",
    "Blocked",
    "hands",
    "Winner",
    "The match is over",
    "kept on this phone",
    "Save hand",
)
#: The clock box while hand 3 plays off the tie at hand 2, on the server's page and the
#: phone's alike.
CLOCK_PLAYING_OFF = "Waktu habis setelah ronde 2."
#: What the phone says once the hand it keeps has ended the match.
OVER_ON_PHONE = (
    "Pemenang: Pemain 01\n"
    "Pertandingan selesai: ronde yang disimpan di ponsel ini dikirim begitu jaringan kembali."
)
#: The clock box once hand 3 has decided it.
CLOCK_PLAYED_OFF = (
    "Waktu habis setelah ronde 2 dengan total seri: seri itu diselesaikan dengan ronde"
    " tambahan, dan ronde 3 menentukannya."
)
#: The tally's label for 20 and for 40 points, as the board's tally says it.
TALLY_20 = "20 poin: 0 silang bernilai 50, 4 turus bernilai 5"
TALLY_40 = "40 poin: 0 silang bernilai 50, 8 turus bernilai 5"


def _shot(page: Any, name: str) -> None:
    """A screenshot from the top of the page (the sticky scoreboard in its place)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _end_choices(page: Any) -> list[str]:
    """The ends a hand may be given on the form, as the scorer sees them."""
    return [
        choice.inner_text().strip()
        for choice in page.locator("fieldset.sk-end label.sk-choice").all()
        if choice.is_visible()
    ]


def _clock_says(page: Any, words: str) -> None:
    """The clock box says `words` and nothing else, as news (not an alert)."""
    clock = page.get_by_test_id("clock")
    assert clock.inner_text().strip() == words
    assert clock.locator('[role="status"]').count() == 1
    assert clock.locator('[role="alert"]').count() == 0


def _no_english(page: Any) -> None:
    body = page.inner_text("body")
    for english in PLAY_OFF_ENGLISH:
        assert english not in body, english


def _no_next_hand(page: Any) -> None:
    """No form for another hand, nor its "Simpan ronde" button, is offered."""
    assert page.locator("form.sk-entry:visible").count() == 0
    assert page.get_by_role("button", name="Simpan ronde").count() == 0
    assert not page.get_by_test_id("save").is_visible()


def _decided_on_phone(page: Any) -> list[dict[str, Any]]:
    """The phone says hand 3 ended the match, draws the board for 40 to 20 with side 0
    marked the winner, counts the hand, and offers no hand 4 nor the switch between
    entry modes; the board as drawn."""
    _clock_says(page, CLOCK_PLAYED_OFF)
    assert not page.get_by_test_id("play-off").is_visible()
    assert page.inner_text('[data-testid="total-0"]') == "40"
    board = _board(page)
    assert [side["winner"] for side in board] == [True, False]
    assert [side["label"] for side in board] == [TALLY_40, TALLY_20]
    assert [len(side["lines"]) for side in board] == [8, 4]
    assert [side["bar"] for side in board] == ["16%", "8%"]  # of the target, 250
    assert not _modes_switch_shown(page)
    assert page.get_by_test_id("hands-count").inner_text() == "3 ronde"
    notice = page.get_by_test_id("over-on-phone")
    assert notice.is_visible()
    assert notice.inner_text().strip() == OVER_ON_PHONE
    assert notice.get_attribute("role") == "status"
    _no_next_hand(page)
    assert "Ronde 4" not in page.inner_text("body")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"
    _no_english(page)
    return board


def _play_off_shown(page: Any) -> None:
    notice = page.get_by_test_id("play-off")
    notice.wait_for()
    text = notice.inner_text()
    assert "Seri: satu ronde lagi menentukan." in text
    assert "ronde berikutnya menyusul" in text
    _clock_says(page, CLOCK_PLAYING_OFF)
    assert page.locator('input[name="end"][value="target"]:enabled:visible').count() == 0
    # The pips left are always asked for: no play ends a play-off hand.
    assert not page.get_by_test_id("left-target-hint").is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"
    _no_english(page)


def test_a_tie_played_off_while_the_phone_is_offline_takes_no_target_reached_end(
    browser: Any, live_server: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # given a knockout semi-final "to 250 or 30 minutes", one more hand while tied, whose
    # scorekeeper signs in on a phone and opens the table from "Meja saya"
    organiser = UserFactory(username="panitia")
    tournament, semis = timed_semi_finals(
        organiser,
        name="Piala Seri",
        slug="piala-seri",
        entry_mode=Tournament.EntryMode.TALLY,
        requires_confirmation=False,
    )
    tournament.scorekeepers.add(UserFactory(username="pencatat"))
    context, page = _phone(browser)
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/")
    page.click('[data-testid="sign-in"]')
    page.fill('input[name="username"]', "pencatat")
    page.fill('input[name="password"]', "pw-kelipatan-123")
    page.click('form.account-form button[type="submit"]')
    page.click('[data-testid="my-tables"]')
    page.click("a.score-button >> text=Catat skor")
    page.wait_for_selector('[data-testid="clock"]')
    match = match_for_table(table=semis.tables.get(number=1))
    # and hand 1 is scored online: seat 1 makes 10 and goes out against 8 pips (20 to 0)
    page.check('input[name="leader"][value="0"]')
    page.fill('input[name="scores"]', "1:10")
    page.check('input[name="end"][value="domino:0"]')
    page.fill('input[name="left_1"]', "8")
    page.click('[data-testid="save"]')
    page.wait_for_selector('[data-testid="hand-1"]')
    # and the organiser calls time during hand 2; the scorer's page learns it
    round_time_call(round_id=semis.pk, user=organiser)
    page.reload()
    page_settled(page)
    _wait_engine(page)
    assert "Target tercapai di tengah ronde" in " ".join(_end_choices(page))
    assert "Selesaikan ronde 2" in page.get_by_test_id("clock").inner_text()

    # when the network goes away and hand 2 levels the totals: seat 2 makes 20, seat 1
    # goes out against 1 pip, 20 each at the called time
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    _keep_hand_offline(page, number=2, leader=0, scores="2:20", end="domino:0", left={1: "1"})
    # then the phone says the tie is played off and offers only a domino or a block
    _play_off_shown(page)
    assert page.get_by_test_id("hands-count").inner_text() == "2 ronde"
    assert page.inner_text('[data-testid="total-0"]') == "20"
    assert page.inner_text('[data-testid="total-1"]') == "20"
    # and the board draws both tallies and bars for 20, neither side marked the winner
    tied = _board(page)
    assert [side["winner"] for side in tied] == [False, False]
    assert [side["label"] for side in tied] == [TALLY_20, TALLY_20]
    assert [len(side["lines"]) for side in tied] == [4, 4]
    assert [side["bar"] for side in tied] == ["8%", "8%"]
    ends = _end_choices(page)
    assert len(ends) == 3 and ends[-1] == "Buntu", ends
    assert all(end.startswith("Domino: ") for end in ends[:2]), ends
    _shot(page, "20-play-off-on-phone")

    # when the page is reloaded with no network (the copy kept from before the tie)
    page.reload()
    page.wait_for_selector('[data-testid="queued-2"]')
    # then it still knows the tie is played off
    _play_off_shown(page)
    assert len(_end_choices(page)) == 3
    _shot(page, "21-play-off-reloaded-offline")
    assert Hand.objects.filter(match=match).count() == 1

    # when the network returns, hand 2 reaches the server, which plays the tie off too
    context.set_offline(False)
    page.wait_for_selector('[data-testid="hand-2"]', timeout=90_000)
    page_settled(page)
    match.refresh_from_db()
    assert match.hands_count == 2 and match_playing_off(match=match)
    _play_off_shown(page)
    assert page.locator('input[name="end"][value="target"]').count() == 0
    assert len(_end_choices(page)) == 3
    # and the server's board is drawn as the phone drew it, its switch of modes offered
    assert _board(page) == tied
    assert _modes_switch_shown(page)
    _shot(page, "22-play-off-sent")

    # when the network goes away again, the engine back on the reloaded page, and hand 3
    # decides the tie: seat 1 makes 10 and goes out against 8 pips, 40 to 20
    _wait_engine(page)
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    _keep_hand_offline(page, number=3, leader=0, scores="1:10", end="domino:0", left={1: "8"})
    # then the clock box says the play-off is over and which hand decided it, the board
    # counts 3 hands, and the phone offers no hand 4 but says who won and that the hands
    # go when the network is back
    page.wait_for_function(
        "words => document.querySelector('[data-testid=clock]').innerText.trim() === words",
        arg=CLOCK_PLAYED_OFF,
    )
    decided = _decided_on_phone(page)
    _shot(page, "23-play-off-decided-on-phone")
    # and so it stays on a reload with no network
    page.reload()
    page.wait_for_selector('[data-testid="over-on-phone"]')
    assert _decided_on_phone(page) == decided
    assert Hand.objects.filter(match=match).count() == 2

    # when the network returns, the server ends the match and says the same: its own
    # winner line instead of the phone's notice, 3 hands, no form for another
    context.set_offline(False)
    page.wait_for_selector('[data-testid="hand-3"]', timeout=90_000)
    page_settled(page)
    match.refresh_from_db()
    assert match.winners == [0] and match.hands_count == 3
    _clock_says(page, CLOCK_PLAYED_OFF)
    assert page.get_by_test_id("winner").inner_text().strip() == "Pemenang: Pemain 01"
    assert page.locator('[data-testid="over-on-phone"]').count() == 0
    assert page.locator('[data-testid^="queued-"]').count() == 0
    assert page.get_by_test_id("hands-count").inner_text() == "3 ronde"
    assert page.inner_text('[data-testid="total-0"]') == "40"
    # and its board is drawn as the phone drew it, the winner's box marked, no switch
    assert _board(page) == decided
    assert not _modes_switch_shown(page)
    _no_next_hand(page)
    _no_english(page)
    _shot(page, "24-play-off-decided-sent")
    context.close()


def test_correcting_the_deciding_hand_kept_offline_brings_back_the_form_and_modes_switch(
    browser: Any, live_server: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # given a table of four to 50 whose hands wait for the other side's confirmation, its
    # side-1 link opened on a phone, the engine on the phone
    table = _table(target=50, requires_confirmation=True)
    links = table_links_issue(table=table, user=None)
    context, page = _phone(browser)
    _open_link(page, live_server, links[0].key)
    match = match_for_table(table=table)
    _wait_engine(page)
    assert _modes_switch_shown(page)

    # when the network goes away and hand 1 is kept: Ani 10, Budi 5, Ani goes out (30 to 5)
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    _keep_hand_offline(
        page,
        number=1,
        leader=0,
        scores="1:10 2:5",
        end="domino:0",
        left={1: "12", 2: "8", 3: "10"},
    )
    # then the board draws 30 to 5, no side marked, and the switch is still offered
    board = _board(page)
    assert [side["points"] for side in board] == ["30", "5"]
    assert [side["winner"] for side in board] == [False, False]
    assert [len(side["lines"]) for side in board] == [6, 1]
    assert [side["bar"] for side in board] == ["60%", "10%"]
    assert _modes_switch_shown(page)

    # when hand 2 is kept: Ani 10, Citra 10, the target reached (50 to 5)
    _keep_hand_offline(page, number=2, leader=0, scores="1:10 3:10", end="target", left={})
    # then the phone says the match is over: Ani & Citra's box marked, a full bar, no form
    # for hand 3 and no switch of entry modes
    notice = page.get_by_test_id("over-on-phone")
    assert notice.is_visible()
    assert notice.inner_text().startswith("Pemenang: Ani & Citra")
    board = _board(page)
    assert [side["winner"] for side in board] == [True, False]
    assert board[0]["label"] == "50 poin: 1 silang bernilai 50, 0 turus bernilai 5"
    assert [side["bar"] for side in board] == ["100%", "10%"]
    _no_next_hand(page)
    assert not _modes_switch_shown(page)
    _no_english(page)
    _shot(page, "30-decided-on-phone")

    # when the network returns: hand 1 is recorded and waits for the other side, so the
    # server refuses hand 2
    context.set_offline(False)
    conflict = page.get_by_test_id("conflict")
    conflict.wait_for(timeout=90_000)
    waits = "Ronde 1 menunggu konfirmasi lawan."
    assert page.get_by_test_id("conflict-why").inner_text() == waits
    assert [h.number for h in Hand.objects.filter(match=match)] == [1]
    assert page.get_by_test_id("keep-device").inner_text() == "Koreksi ronde di ponsel ini"
    _shot(page, "31-deciding-hand-refused")

    # when the network goes away again and the scorer corrects hand 2 on the phone
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    page.get_by_test_id("keep-device").click()
    # then hand 2 is back on the form as kept, with the switch of entry modes, and the
    # match is undecided again: no notice, no side marked
    page.locator("form.sk-entry").wait_for(state="visible")
    assert page.locator("form.sk-entry h2").inner_text() == "Ronde 2"
    assert page.locator('input[name="number"]').input_value() == "2"
    assert page.locator('input[name="scores"]').input_value() == "1:10 3:10"
    assert page.locator('input[name="end"][value="target"]').is_checked()
    assert page.get_by_test_id("save").is_visible()
    assert page.get_by_test_id("device-error").inner_text() == waits
    assert _modes_switch_shown(page)
    assert page.locator('[data-testid="over-on-phone"]').count() == 0
    assert [side["winner"] for side in _board(page)] == [False, False]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"
    _no_english(page)
    _shot(page, "32-deciding-hand-corrected-offline")
    assert Hand.objects.filter(match=match).count() == 1
    context.close()
