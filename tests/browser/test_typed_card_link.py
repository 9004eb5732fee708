"""A scorekeeper who has only the printed table card, no QR reader, in a real browser
(Debian's Chromium, 390x844, Indonesian): the organiser prints the round's cards; the
scorekeeper reads the link off the card's text (its key in groups of four joined by
dashes), types it into the phone's address bar, and scores a whole match in tally mode
at a three-player table and at a four-player partnership table, correcting an earlier
hand on the way. Screenshots of every step go to ``artifacts/typedlink/<players>-*.png``."""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Any

import pytest
from django.urls import reverse

from league.models import Tournament
from matches.models import Hand, Match
from tests.conftest import ARTIFACTS, page_settled
from tests.factories import (
    EntryFactory,
    PartnershipFactory,
    PlayerFactory,
    RoundFactory,
    RuleSetFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHOTS = ARTIFACTS / "typedlink"
PASSWORD = "pw-kelipatan-123"  # UserFactory's


def _setting(player_count: int) -> Any:
    """A published round 1 with one table to 50, tallies entered, its organiser."""
    organiser = UserFactory(username="panitia")
    four = player_count == 4
    tournament = TournamentFactory(
        name="Piala Kartu",
        slug="piala-kartu",
        format=Tournament.Format.FIXED_PARTNERSHIP if four else Tournament.Format.SWISS,
        table_size=Tournament.TableSize.FOUR if four else Tournament.TableSize.THREE,
        rule_set=RuleSetFactory(name="Cepat", target_3=50, target_4=50),
        entry_mode=Tournament.EntryMode.TALLY,
    )
    tournament.organisers.add(organiser)
    round = RoundFactory(tournament=tournament, number=1)
    table = TableFactory(round=round, number=1, player_count=player_count, target=50)
    if four:
        pairs = [("Budi Santoso", "Siti Aminah"), ("Ani Lestari", "Dewi Sartika")]
        entries = [
            EntryFactory(
                tournament=tournament,
                player=None,
                partnership=PartnershipFactory(
                    name=f"{a} & {b}",
                    player_a=PlayerFactory(name=a),
                    player_b=PlayerFactory(name=b),
                ),
            )
            for a, b in pairs
        ]
        # partners opposite: seats 0 and 2 are Budi & Siti, 1 and 3 Ani & Dewi
        for number, (entry, player) in enumerate(
            [
                (entries[0], entries[0].partnership.player_a),
                (entries[1], entries[1].partnership.player_a),
                (entries[0], entries[0].partnership.player_b),
                (entries[1], entries[1].partnership.player_b),
            ]
        ):
            SeatFactory(table=table, number=number, entry=entry, player=player)
    else:
        for number, name in enumerate(("Budi Santoso", "Ani Lestari", "Eko Prasetyo")):
            SeatFactory(
                table=table,
                number=number,
                entry=EntryFactory(tournament=tournament, player__name=name),
            )
    return tournament, table


def _phone(browser: Any) -> Any:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="id-ID"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def _shot(page: Any, players: int, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{players}-{name}.png"), full_page=True)


def _act(page: Any, selector: str) -> None:
    """Press a button and wait until htmx has swapped the new panel in and settled it."""
    page.evaluate(
        "delete document.body.dataset.settled; document.addEventListener('htmx:afterSettle',"
        " () => { document.body.dataset.settled = '1'; }, {once: true})"
    )
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click(selector)
    page.wait_for_selector("body[data-settled]", state="attached")
    page_settled(page)


def _card_text(browser: Any, live_server: Any, tournament: Tournament, tmp_path: Any) -> str:
    """The round's cards, downloaded by the organiser signed in, as text."""
    desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="id-ID").new_page()
    desk.goto(f"{live_server.url}/account/login/")
    desk.fill('input[name="username"]', "panitia")
    desk.fill('input[name="password"]', PASSWORD)
    desk.click('form.account-form button[type="submit"]')
    desk.wait_for_load_state()
    url = reverse("matches:round_cards", args=[tournament.slug, 1])
    response = desk.context.request.get(f"{live_server.url}{url}")
    assert response.ok and response.headers["content-type"] == "application/pdf"
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(response.body())
    pdftotext = shutil.which("pdftotext")
    pdftoppm = shutil.which("pdftoppm")
    assert pdftotext is not None and pdftoppm is not None, "poppler-utils reads the cards"
    SHOTS.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [pdftoppm, "-r", "110", "-png", "-singlefile", str(pdf), str(SHOTS / "card")], check=True
    )
    text = subprocess.run(
        [pdftotext, "-raw", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    desk.context.close()
    return text


def _typed(text: str, live_server: Any) -> list[str]:
    """What a person types for each link printed in the card's text: its lines joined."""
    host = live_server.url.removeprefix("http://")
    flat = re.sub(r"\s+", "", text)
    return [f"http://{found}" for found in re.findall(rf"{re.escape(host)}/t/[0-9a-z-]+/", flat)]


def _hand(page: Any, *, leader: int, scores: str, end: str, left: dict[int, int]) -> None:
    """Choose who leads, type the scoring plays, how the hand ended, what the others
    hold, and save."""
    page.check(f'input[name="leader"][value="{leader}"]')
    page.fill('input[name="scores"]', scores)
    page.check(f'input[name="end"][value="{end}"]')
    for seat, value in left.items():
        page.fill(f'input[name="left_{seat}"]', str(value))
    _act(page, '[data-testid="save"]')


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.django_db(transaction=True)
def test_a_scorekeeper_types_the_cards_link_and_scores_a_whole_match_with_a_correction(
    browser: Any, live_server: Any, tmp_path: Any, players: int
) -> None:
    # given a published round of one table and its printed card
    tournament, table = _setting(players)
    text = _card_text(browser, live_server, tournament, tmp_path)
    typed = _typed(text, live_server)
    # then the card prints one link per side, its key in groups of four
    assert len(typed) == (3 if players == 3 else 2), text
    assert all(re.search(r"/t/([0-9a-z]{4}-){7}[0-9a-z]{4}/$", link) for link in typed), typed

    # when the scorekeeper mistypes one character of the first side's link
    phone = _phone(browser)
    key = typed[0].rstrip("/").rsplit("/", 1)[1]
    wrong = key[:-1] + ("x" if key[-1] != "x" else "y")
    phone.goto(typed[0].replace(key, wrong))
    page_settled(phone)
    _shot(phone, players, "00-mistyped")
    assert "tidak dikenal" in phone.inner_text("main")
    # and then leaves out the last line of the link, typing it with no closing slash
    phone.goto(typed[0].replace(key, key.rsplit("-", 1)[0]).rstrip("/"))
    page_settled(phone)
    _shot(phone, players, "00-line-left-out")
    # then the page says the code is short, by how much, and offers it again to correct
    reason = phone.inner_text('[data-testid="closed-reason"]')
    assert "kodenya 28 karakter" in reason and "32 karakter" in reason, reason
    assert phone.input_value('[data-testid="typed-key"]') == key.rsplit("-", 1)[0]
    # when the scorekeeper types it whole in the box, as a phone's keyboard may give it:
    # in capitals, with spaces for dashes
    phone.fill('[data-testid="typed-key"]', key.upper().replace("-", " "))
    phone.click('[data-testid="typed-open"]')
    phone.wait_for_selector('[data-testid="save"]')
    page_settled(phone)
    _shot(phone, players, "01-opened")
    match = Match.objects.get(table=table)
    assert phone.url.endswith(f"/matches/{match.pk}/score/")
    assert "Budi Santoso" in phone.inner_text('[data-testid="scoring-as"]')
    width = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert phone.evaluate(width) <= 0
    # and the board names every side's players in full, none cut short at 390 px
    for names in phone.locator(".sk-board .sk-names").all():
        assert names.evaluate("e => e.scrollWidth <= e.clientWidth"), names.inner_text()
    if players == 4:
        board = phone.inner_text(".sk-board")
        assert "Budi Santoso & Siti Aminah" in board and "Ani Lestari & Dewi Sartika" in board

    # hand 1: Budi leads, Budi 10 and Ani 5, Budi goes out
    _hand(
        phone,
        leader=0,
        scores="1:10 2:5",
        end="domino:0",
        left={1: 7, 2: 8, 3: 6} if players == 4 else {1: 7, 2: 8},
    )
    phone.wait_for_selector('[data-testid="hand-1"]')
    _shot(phone, players, "02-hand-1")
    # hand 2: Budi leads (he went out), Ani 20; Ani goes out
    _hand(
        phone,
        leader=0,
        scores="2:20",
        end="domino:1",
        left={0: 3, 2: 4, 3: 10} if players == 4 else {0: 3, 2: 4},
    )
    phone.wait_for_selector('[data-testid="hand-2"]')
    _shot(phone, players, "03-hand-2")
    # the scorekeeper sees hand 1 was wrong: Budi's play was 15, not 10
    phone.click('[data-testid="hand-1"] >> text=Koreksi')
    page_settled(phone)
    _shot(phone, players, "04-correcting")
    phone.fill('input[name="scores"]', "1:15 2:5")
    _act(phone, '[data-testid="save"]')
    _shot(phone, players, "05-corrected")
    assert Hand.objects.get(match=match, number=1).entry["scores"][0] == [0, 15]
    phone.click("text=Riwayat perubahan")
    page_settled(phone)
    _shot(phone, players, "05b-history")
    history = phone.inner_text("main")
    assert "pertandingan dimulai dengan ronde yang dicatat oleh meja 1, pihak 1" in history
    assert "pertandingan berakhir" not in history
    assert "ronde 1 dikoreksi" in history and "ronde 2 dikoreksi" not in history
    phone.go_back()
    page_settled(phone)
    # hand 3: Ani leads, plays to the target
    phone.check('input[name="leader"][value="1"]')
    phone.fill('input[name="scores"]', "2:20")
    phone.check('input[name="end"][value="target"]')
    with phone.expect_navigation():
        phone.click('[data-testid="save"]')
    page_settled(phone)
    _shot(phone, players, "06-won")
    # then the match is won by Ani's side, on the page and in the database
    match.refresh_from_db()
    assert match.winners == [1]
    winner = "Ani Lestari & Dewi Sartika" if players == 4 else "Ani Lestari"
    assert winner in phone.inner_text('[data-testid="winner"]')
    # and the match's history, reached from the page, names who changed hand 1
    phone.click("text=Lihat lembar skor pertandingan")
    page_settled(phone)
    _shot(phone, players, "07-scoresheet")
