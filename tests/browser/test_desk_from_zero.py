"""A club's organiser (not the superuser) runs a three-round tournament from zero, in
Indonesian at 1280 px, by links and buttons only from the admin's login page: adds the
tournament in the admin, imports its players, two partnerships and the entries from CSV
files (preview, then confirm), then from the desk, three times over: pairs the round,
publishes it, opens its cards (a PDF), watches the board as one table's result comes in
(recorded through the score-entry services meanwhile), records a walkover at the other
table, closes the round and starts the next; finally opens the projector view. Every
page is checked for raw JSON and English; screenshots go to ``artifacts/desk-zero/``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from league.models import Entry, Partnership, Player, Round, Tournament
from tests.browser.test_admin_forms import ENGLISH as ADMIN_ENGLISH
from tests.browser.test_desk import DESK_ENGLISH
from tests.conftest import ARTIFACTS
from tests.desk.conftest import NAMES, WINNING_HAND, organiser_of, play
from tests.factories import ClubFactory, RuleSetFactory, SeasonFactory
from tests.matches.test_messages_indonesian import STOP_WORDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1280, "height": 900}
SHOTS = ARTIFACTS / "desk-zero"
PASSWORD = "rahasia-ketua-123"
#: Phrases an Indonesian page must not show: the desk's and the admin's forms' English.
PHRASES = tuple(dict.fromkeys((*DESK_ENGLISH, *ADMIN_ENGLISH)))
RAW_JSON = re.compile(r"\[\]|\{\"")


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _indonesian(page: Any) -> None:
    """No raw JSON, no English phrase of the stop-lists, no English stop word. An import
    page's CSV column names (listed in ``code`` and heading its preview's columns) are the
    file's own words, and the letter of "Pemain A" is no word."""
    text = page.inner_text("body") + " " + " ".join(page.locator("option").all_inner_texts())
    text = " ".join(text.split())
    kept = page.locator("code").all_text_contents()
    if "/import/" in page.url:
        kept += page.locator("table.import-preview thead th").all_text_contents()
    for words in filter(str.strip, kept):
        text = re.sub(re.escape(" ".join(words.split())), "", text, flags=re.IGNORECASE)
    assert not RAW_JSON.search(text), (page.url, "raw JSON on the page")
    phrases = [w for w in PHRASES if re.search(rf"\b{re.escape(w)}", text)]
    assert not phrases, (page.url, phrases)
    english = {w.lower() for w in re.findall(r"[A-Za-z]{2,}", text)} & STOP_WORDS
    assert not english, (page.url, english)


def _step(page: Any, name: str) -> None:
    _shot(page, name)
    _indonesian(page)


def _press(page: Any, testid: str) -> None:
    page.click(f'[data-testid="{testid}"]')
    page.wait_for_selector(".messagelist")


def _home(page: Any) -> None:
    page.click('a[href$="/admin/"]:text("Beranda")')
    page.wait_for_selector("#content-main")


def _import(page: Any, model: str, csv: Any, name: str) -> None:
    """From the admin's home, import ``csv`` into ``model``'s list: preview, confirm."""
    _home(page)
    page.click(f'#content-main a[href$="/admin/league/{model}/"]')
    _indonesian(page)
    page.click("a.import_link")
    page.wait_for_selector("#id_import_file")
    page.set_input_files("#id_import_file", str(csv))
    _step(page, f"{name}-berkas")
    page.click('input[type="submit"]')
    page.wait_for_selector('input[name="confirm"]')
    _step(page, f"{name}-pratinjau")
    page.click('input[name="confirm"]')
    page.wait_for_selector(".messagelist")
    assert not page.locator(".errorlist, .errornote").count(), page.inner_text("#content")
    _step(page, f"{name}-selesai")


def test_an_organiser_runs_a_tournament_from_zero(
    browser: Any, live_server: Any, tmp_path: Any
) -> None:
    # Given a club with a season on a two-player rule set to 50, and its organiser
    club = ClubFactory(name="Klub Merdeka", city="Surabaya")
    rule_set = RuleSetFactory(club=club, name="Aturan Merdeka", target_2=50)
    season = SeasonFactory(club=club, rule_set=rule_set, name="Musim Merdeka")
    organiser = organiser_of(club)
    organiser.set_password(PASSWORD)
    organiser.save()
    assert not organiser.is_superuser

    # When they sign in at the admin's login page
    page = browser.new_context(viewport=DESK, locale="id-ID").new_page()
    page.goto(f"{live_server.url}/admin/login/")
    _step(page, "01-masuk")
    page.fill("#id_username", "ketua")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_selector("#content-main")
    _step(page, "02-beranda")

    # And add a three-round Swiss tournament of two-player tables
    page.click('#content-main a[href$="/admin/league/tournament/"]')
    page.click('a[href$="/admin/league/tournament/add/"]')
    page.wait_for_selector("#id_name")
    page.fill("#id_name", "Piala Merdeka")
    page.select_option("#id_season", str(season.pk))
    page.select_option("#id_status", Tournament.Status.RUNNING)
    page.select_option("#id_format", Tournament.Format.SWISS)
    page.select_option("#id_table_size", Tournament.TableSize.TWO)
    page.fill("#id_rounds_count", "3")
    page.select_option("#id_rule_set", str(rule_set.pk))
    _step(page, "03-turnamen-baru")
    page.click('input[name="_save"]')
    page.wait_for_selector(".messagelist, .errornote")
    assert not page.locator(".errornote").count(), page.inner_text("#content-main")[:2000]
    _step(page, "04-turnamen-tersimpan")
    tournament = Tournament.objects.get(name="Piala Merdeka")
    assert (tournament.club, tournament.rounds_count) == (club, 3)

    # And import four players, two partnerships of them and the four players' entries
    names = NAMES[:4]
    players_csv = tmp_path / "pemain.csv"
    players_csv.write_text("name\n" + "\n".join(names) + "\n", encoding="utf-8")
    _import(page, "player", players_csv, "05-pemain")
    players = {p.name: p for p in Player.objects.filter(name__in=names)}
    assert sorted(players) == sorted(names)
    pairs_csv = tmp_path / "pasangan.csv"
    pairs_csv.write_text(
        f"player_a,player_b,name\n{names[0]},{names[1]},Duo Merdeka\n{names[2]},{names[3]},\n",
        encoding="utf-8",
    )
    _import(page, "partnership", pairs_csv, "06-pasangan")
    assert Partnership.objects.count() == 2
    entries_csv = tmp_path / "peserta.csv"
    entries_csv.write_text(
        "tournament,player,seed\n"
        + "".join(
            f"{tournament.slug},{players[n].slug},{seed}\n" for seed, n in enumerate(names, 1)
        ),
        encoding="utf-8",
    )
    _import(page, "entry", entries_csv, "07-peserta")
    assert Entry.objects.filter(tournament=tournament).count() == 4
    assert all(e.members.count() == 1 for e in tournament.entries.all())

    # And open the tournament's desk from the admin's home
    _home(page)
    page.click(f'[data-testid="desk-{tournament.slug}"]')
    page.wait_for_selector(".desk-main")
    _step(page, "08-meja")

    for number in (1, 2, 3):
        at = f"{8 + number:02d}"
        # And start the round, which is paired at once (tasks run in-process here)
        _press(page, "next")
        page.wait_for_selector('#desk-progress[data-state="done"]')
        round_ = tournament.rounds.get(number=number)
        assert round_.tables.count() == 2
        assert f"Putaran {number} dari 3" in page.inner_text("#round-h")
        assert page.locator('[data-testid^="desk-table-"]').count() == 2
        _step(page, f"{at}a-putaran-{number}-dipasangkan")

        # And publish it
        _press(page, "publish")
        round_.refresh_from_db()
        assert round_.status == Round.Status.PUBLISHED
        _step(page, f"{at}b-putaran-{number}-diterbitkan")

        # And open its cards, fetched with the organiser's own session as Chromium would
        href = page.get_attribute('[data-testid="cards"]', "href")
        assert href is not None
        cards = page.context.request.get(f"{live_server.url}{href}")
        assert cards.ok and cards.headers["content-type"] == "application/pdf"
        assert cards.body().startswith(b"%PDF")

        # Then the board shows table 1 finished once its match is played meanwhile
        first, second = round_.tables.order_by("number")
        play(first, organiser, [WINNING_HAND])
        page.wait_for_selector(
            '[data-testid="desk-table-1"][data-status="finished"]', timeout=25_000
        )
        assert page.get_attribute('[data-testid="desk-table-2"]', "data-status") == "scheduled"
        _step(page, f"{at}c-putaran-{number}-meja-1-selesai")

        # And table 2's second player did not come: a walkover for the first
        present = str(second.seats.get(number=0).player)
        _press(page, "forfeit-2-1")
        assert f"Meja 2: WO dicatat, {present} menang." in page.inner_text(".messagelist")
        assert page.get_attribute('[data-testid="desk-table-2"]', "data-status") == "finished"
        _step(page, f"{at}d-putaran-{number}-wo")

        # And the round closes
        _press(page, "close")
        assert f"Putaran {number} sudah ditutup." in page.inner_text(".messagelist")
        _step(page, f"{at}e-putaran-{number}-ditutup")

    # Then the three rounds are finished, and the desk offers no fourth
    finished = tournament.rounds.filter(status=Round.Status.FINISHED).count()
    assert finished == 3 and tournament.rounds.count() == 3
    assert page.locator('[data-testid="next"]').count() == 0

    # And the projector view shows round 3's pairings, then the standings by itself
    page.clock.install()
    page.click('[data-testid="projector-link"]')
    page.wait_for_selector('[data-panel="pairings-1"]')
    assert "Putaran 3" in page.inner_text("h1")
    _step(page, "20-proyektor-pasangan")
    page.clock.run_for(16_000)
    page.wait_for_selector('[data-panel="standings-1"]', state="visible")
    standings = page.inner_text('[data-panel="standings-1"]')
    assert "Klasemen" in standings and all(n in standings for n in names), standings
    _step(page, "21-proyektor-klasemen")
    page.context.close()
