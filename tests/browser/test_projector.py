"""The hall's projector in a real browser, reached as an organiser reaches it: from the
admin's index to the running tournament's desk, then its "Tampilan proyektor" link. On
the demo's three-player tournament one table is being played, each side with its running
total and its chance of winning: a side's name, total and chance stay together, so no
chance is read as the next side's. Screenshots go to ``artifacts/projector/``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command

from league.models import Player
from standings.services.refresh import standings_sweep
from tests.browser.test_desk import _indonesian
from tests.browser.test_knockout_bracket import knockout_in_play
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "projector"
HALL = {"width": 1280, "height": 720}
#: For each table, whether every side after the first starts below the side before it
#: or to the right of all of it, never beside a piece of it on the same line.
SIDES_APART = """() => [...document.querySelectorAll('[data-panel="pairings-1"] .pairing .sides')]
  .map(s => [...s.querySelectorAll(":scope > .names")].map(n => n.getBoundingClientRect()))
  .map(r => r.slice(1).every((b, i) => b.top >= r[i].bottom - 1 || b.left >= r[i].right - 1))"""


def test_an_organiser_opens_the_projector_from_the_desk_and_each_chance_reads_with_its_side(
    browser: Any, live_server: Any
) -> None:
    # Given the demo clubs, their three-player tournament half-way through round 2
    call_command("demo")
    standings_sweep(grace=timedelta(0))
    page = browser.new_context(viewport=HALL, locale="id-ID").new_page()
    page.set_default_timeout(10_000)
    # When the organiser signs in to the admin, opens the tournament's desk from its index
    page.goto(f"{live_server.url}/admin/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", "kelipatan-demo")
    page.click("input[type=submit]")
    page.click('[data-testid="desk-turnamen-malam-jumat"]')
    # and follows its link to the projector view
    page.click('[data-testid="projector-link"]')
    page.wait_for_selector('[data-panel="pairings-1"]')
    page.wait_for_load_state("load")  # its stylesheet too, before anything is measured
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "proyektor-pasangan.png"))
    # Then the round's tables read in Indonesian, a playing table with its chances
    assert "Putaran 2" in page.inner_text('[data-panel="pairings-1"] h1')
    assert page.locator('[data-panel="pairings-1"] .live-chance').count() == 3
    _indonesian(page)
    # and each side's chance sits with that side, not at the start of the next one's line
    apart = page.evaluate(SIDES_APART)
    assert apart and all(apart), apart
    page.context.close()


#: Full names of up to 15 letters: one line each on the projector at a hall's width.
FULL_NAMES = [
    "Bambang Suryadi",
    "Siti Rahmawati",
    "Wahyu Hidayat",
    "Ratna Kusuma",
    "Yoga Pratama",
    "Nur Aini",
    "Teguh Santoso",
    "Putri Maharani",
    "Rizky Ramadhan",
    "Sri Wulandari",
]
#: Each side's names on the first panel: how many lines they take.
SIDE_LINES = """() => [...document.querySelectorAll('[data-panel="pairings-1"] .pairing .names')]
  .map(n => [n.textContent.trim(), Math.round(
    n.getBoundingClientRect().height / parseFloat(getComputedStyle(n).lineHeight))])"""


def test_a_knockout_round_is_projected_with_its_stages_and_each_name_on_one_line(
    browser: Any, live_server: Any
) -> None:
    # Given knockout semi-finals under way, one table's score agreed, its players named
    tournament, _semis = knockout_in_play()
    for number, name in enumerate(FULL_NAMES, start=1):
        Player.objects.filter(name=f"Pemain {number:02d}").update(name=name)
    page = browser.new_context(viewport=HALL, locale="id-ID").new_page()
    # When the hall's screen opens the tournament's projector view from its public page
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/")
    page.click('[data-testid="projector-link"]')
    page.wait_for_selector('[data-panel="pairings-1"]')
    page.wait_for_load_state("load")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "proyektor-babak-gugur.png"))
    # Then the heading names the knockout, and every player's name keeps to one line,
    # the agreed table's "Skor disepakati" beside them included
    assert page.inner_text('[data-panel="pairings-1"] h1').split() == [
        "Putaran",
        "3",
        "·",
        "Babak",
        "gugur",
    ]
    assert "Skor disepakati" in page.inner_text('[data-testid="projector-table-1"]')
    # and, the main bracket's semi-finals beside the plate's, each table names its own
    stages = [
        page.inner_text(f'[data-testid="projector-table-stage-{number}"]') for number in range(1, 5)
    ]
    assert stages == ["Semifinal"] * 2 + ["Babak hiburan · Semifinal"] * 2
    lines = page.evaluate(SIDE_LINES)
    assert len(lines) == 8 and all(count == 1 for _name, count in lines), lines
    _indonesian(page)
    page.context.close()
