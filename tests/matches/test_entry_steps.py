"""Building a hand with the page's buttons (plain form posts): a step the rules refuse
never enters the hand — the moves keep their last legal state and the page says, naming
the player, why and which ends the tile would fit; a play after the target is called
unneeded; a hand kept in the browser is shown again on request."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import Table
from matches.models import Hand, Match
from matches.services.lifecycle import match_for_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(scorekeeper: Any) -> Client:
    client = Client()
    client.force_login(scorekeeper)
    return client


def _match(table: Table, mode: str) -> Match:
    match = match_for_table(table=table)
    match.entry_mode = mode
    match.save()
    return match


def _post(client: Client, match: Match, **fields: Any) -> str:
    with translation.override("id"):
        url = reverse("matches:scorekeeper", kwargs={"match_id": match.pk})
    data = {"version": match.version, "number": 1, **fields}
    return client.post(url, {k: str(v) for k, v in data.items()}).content.decode()


def _error(html: str, field: str) -> str:
    return html.split(f'data-testid="error-{field}"')[1].split("</div>")[0]


def _name(table: Table, seat: int) -> str:
    return str(table.seats.get(number=seat).entry.player.name)


def test_an_illegal_tile_is_refused_and_the_moves_keep_their_last_legal_state(
    browser: Client, table: Table
) -> None:
    # given a hand led with [3|6]
    match = _match(table, Match.EntryMode.TILES)
    # when the next player lays [6|6] on the west end (3)
    html = _post(browser, match, leader=0, moves="1 3-6", tile="6-6", action="play:W")
    # then it is refused in Indonesian, naming the player, saying where it would fit
    error = _error(html, "tile")
    assert _name(table, 1) in error
    assert "tidak cocok dengan ujung barat (3)" in error
    assert "cocok di ujung timur" in error
    # and the moves are as they were, the tile still chosen
    assert ">\n1 3-6</textarea>" in html or ">1 3-6</textarea>" in html
    assert 'value="6-6"' in html
    assert not Hand.objects.exists()


def test_a_tile_that_fits_no_end_says_so(browser: Client, table: Table) -> None:
    match = _match(table, Match.EntryMode.TILES)
    html = _post(browser, match, leader=0, moves="1 3-6", tile="1-2", action="play")
    error = _error(html, "tile")
    assert "tidak cocok di ujung terbuka mana pun" in error
    assert "2 1-2" not in html


def test_a_tally_play_after_the_target_is_called_unneeded_not_a_won_match(
    browser: Client, table: Table
) -> None:
    # given a hand whose plays already took side 1 to the target of 50
    match = _match(table, Match.EntryMode.TALLY)
    scores = "1:25 3:25"
    # when one more scoring play is tapped
    html = _post(browser, match, leader=0, scores=scores, action="add:1:10")
    # then it is refused as not needed, naming the player; nothing is added
    error = _error(html, "scores")
    assert "tidak diperlukan" in error and _name(table, 1) in error
    assert "sudah dimenangkan" not in html
    assert f'value="{scores}"' in html


def test_a_saved_tally_play_after_the_target_is_called_unneeded(
    browser: Client, table: Table
) -> None:
    match = _match(table, Match.EntryMode.TALLY)
    html = _post(browser, match, leader=0, scores="1:25 3:25 2:10", end="target", action="save")
    error = _error(html, "scores")
    assert "tidak diperlukan" in error and _name(table, 1) in error
    assert "sudah dimenangkan" not in html
    assert not Hand.objects.exists()


def test_a_hand_restored_by_the_browser_is_shown_with_a_note(browser: Client, table: Table) -> None:
    match = _match(table, Match.EntryMode.TILES)
    html = _post(browser, match, leader=0, moves="1 3-6\n2 6-6 E", action="show")
    assert "disimpan di ponsel ini" in html
    assert "1 3-6\n2 6-6 E" in html
    assert 'data-testid="error-tile"' not in html


@pytest.mark.parametrize("typed", ["0:10", "5:10"])
def test_a_typed_scoring_play_counts_seats_from_1_and_refuses_a_seat_outside_1_to_4(
    browser: Client, table: Table, typed: str
) -> None:
    # given a tally hand at a table of four
    match = _match(table, Match.EntryMode.TALLY)
    # when a scoring play names kursi 0 or kursi 5
    html = _post(browser, match, leader=0, scores=typed, end="blocked", action="save")
    # then it is refused in Indonesian, saying seats count from 1 to 4; nothing is saved
    error = _error(html, "scores")
    assert f"Kursi {typed.split(':')[0]} tidak ada" in error
    assert "dari 1 sampai 4" in error
    assert not Hand.objects.exists()


def test_a_typed_scoring_play_for_seat_1_is_the_first_seat_s_play(
    browser: Client, table: Table
) -> None:
    # given a tally hand
    match = _match(table, Match.EntryMode.TALLY)
    # when the first seat's 10 is typed as "1:10" and the second seat taps a 5
    html = _post(browser, match, leader=0, scores="1:10", action="add:1:5")
    # then the text reads seats from 1, the second seat being kursi 2
    assert 'value="1:10 2:5"' in html


@pytest.mark.parametrize("typed", ["0 3-6", "5 3-6"])
def test_a_typed_move_refuses_a_seat_outside_1_to_4(
    browser: Client, table: Table, typed: str
) -> None:
    match = _match(table, Match.EntryMode.TILES)
    html = _post(browser, match, leader=0, moves=typed, action="save")
    error = _error(html, "moves")
    assert f"Kursi {typed.split()[0]} tidak ada" in error
    assert not Hand.objects.exists()
