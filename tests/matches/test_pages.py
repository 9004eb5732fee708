"""The scorekeeper's page with plain form posts (no JavaScript): building a hand with the
buttons, saving it, the engine's refusal shown at the field with what was typed kept,
corrections, and who may see the page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from allfives import AllFivesError
from league.models import Table
from matches.messages import engine_error_message
from matches.models import Hand, Match
from matches.services.lifecycle import match_for_table
from tests.matches.sheets import HAND_1, HAND_2, HAND_3

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(scorekeeper: Any) -> Client:
    client = Client()
    client.force_login(scorekeeper)
    return client


@pytest.fixture
def match(table: Table) -> Match:
    return match_for_table(table=table)


def page(match: Match, lang: str = "en") -> str:
    with translation.override(lang):
        return reverse("matches:scorekeeper", kwargs={"match_id": match.pk})


def tally_post(match: Match, **fields: Any) -> dict[str, Any]:
    data = {"version": match.version, "number": match.hands_count + 1, **fields}
    return {key: str(value) for key, value in data.items()}


def test_the_page_shows_the_target_and_the_running_totals(browser: Client, match: Match) -> None:
    response = browser.get(page(match))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="target">50<' in html
    assert 'data-testid="total-0">0<' in html
    assert "vendor/htmx.min.js" in html


def test_anonymous_visitors_are_sent_to_log_in(match: Match) -> None:
    response = Client().get(page(match))
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_a_user_who_does_not_score_the_tournament_gets_403(stranger: Any, match: Match) -> None:
    client = Client()
    client.force_login(stranger)
    assert client.get(page(match)).status_code == 403


def test_scoring_buttons_build_the_hand_without_saving_it(browser: Client, match: Match) -> None:
    # when the scorekeeper taps "seat 0 scores 10" then "seat 1 scores 5"
    first = browser.post(page(match), tally_post(match, leader=0, action="add:0:10"))
    second = browser.post(page(match), tally_post(match, leader=0, scores="1:10", action="add:1:5"))
    # then the plays are in the form and in the provisional totals, nothing is stored
    assert first.status_code == second.status_code == 200
    assert 'value="1:10 2:5"' in second.content.decode()
    assert 'class="sk-draft"' in second.content.decode()
    assert not Hand.objects.exists()


def test_saving_a_hand_with_a_plain_form_post_stores_it(browser: Client, match: Match) -> None:
    data = tally_post(
        match, leader=0, scores="1:10 2:5", end="domino:2", left_0=7, left_1=8, left_2=0, left_3=6
    )
    response = browser.post(page(match), {**data, "action": "save"})
    assert response.status_code == 302
    hand = Hand.objects.get(match=match)
    assert hand.entry == HAND_1
    after = browser.get(response["Location"]).content.decode()
    assert 'data-testid="total-0">25<' in after
    assert "Hand 1 saved." in after


def test_a_refused_hand_shows_the_engines_reason_at_the_field_and_keeps_what_was_typed(
    browser: Client, match: Match
) -> None:
    data = tally_post(
        match, leader=0, scores="1:12 2:5", end="domino:2", left_0=7, left_1=8, left_2=0, left_3=6
    )
    response = browser.post(page(match), {**data, "action": "save"})
    html = response.content.decode()
    assert response.status_code == 200
    error_at_scores = html.split('data-testid="error-scores"')[1].split("</div>")[0]
    # the engine counts seats from 0; people see the player in seat 0 named
    first = match.table.seats.get(number=0).entry.player.name
    assert f"{first} scores 12" in error_at_scores
    assert 'value="1:12 2:5"' in html
    assert 'name="left_1" value="8"' in html
    assert not Hand.objects.exists()


def test_a_refused_remaining_figure_is_shown_at_that_seats_field(
    browser: Client, match: Match
) -> None:
    data = tally_post(
        match, leader=0, scores="1:10", end="domino:2", left_0=7, left_1=8, left_2=4, left_3=6
    )
    html = browser.post(page(match), {**data, "action": "save"}).content.decode()
    assert 'data-testid="error-left_2"' in html
    assert 'name="left_2" value="4"' in html


def test_the_reason_is_in_the_users_language(browser: Client, match: Match) -> None:
    data = tally_post(match, leader=0, scores="1:12", end="blocked", left_0=1, left_1=2, left_2=3)
    response = browser.post(page(match, "id"), {**data, "action": "save"})
    with translation.override("id"):
        first = match.table.seats.get(number=0).entry.player.name
        expected = engine_error_message(AllFivesError("bad_points", seat=0, points=12), {0: first})
    assert response.status_code == 200
    assert expected in response.content.decode()
    assert response.headers["Content-Language"] == "id"


def test_a_stale_form_keeps_what_was_typed_and_says_why(browser: Client, match: Match) -> None:
    stale = tally_post(
        match, leader=0, scores="1:10 2:5", end="domino:2", left_0=7, left_1=8, left_2=0, left_3=6
    )
    browser.post(page(match), {**stale, "action": "save"})
    again = browser.post(page(match), {**stale, "scores": "1:5", "action": "save"})
    html = again.content.decode()
    assert again.status_code == 200
    assert "Someone else changed this match" in html
    assert 'value="1:5"' in html
    assert Hand.objects.filter(match=match).count() == 1


def test_a_double_tap_on_save_stores_the_hand_once(browser: Client, match: Match) -> None:
    data = tally_post(
        match, leader=0, scores="1:10 2:5", end="domino:2", left_0=7, left_1=8, left_2=0, left_3=6
    )
    first = browser.post(page(match), {**data, "action": "save"})
    second = browser.post(page(match), {**data, "action": "save"})
    assert first.status_code == second.status_code == 302
    assert Hand.objects.filter(match=match).count() == 1


def test_a_finished_match_shows_the_winner_and_takes_no_more_hands(
    browser: Client, match: Match
) -> None:
    from matches.services.lifecycle import match_import

    match_import(
        match=match,
        document={"format": "allfives/1", "players": 4, "hands": [HAND_1, HAND_2, HAND_3]},
        user=None,
    )
    html = browser.get(page(match)).content.decode()
    assert 'data-testid="winner"' in html
    assert 'data-testid="save"' not in html
    assert "Reopen for corrections" not in html  # scorekeepers do not reopen


def test_organisers_see_the_reopen_button(organiser: Any, match: Match) -> None:
    from matches.services.lifecycle import match_import

    match_import(
        match=match,
        document={"format": "allfives/1", "players": 4, "hands": [HAND_1, HAND_2, HAND_3]},
        user=None,
    )
    client = Client()
    client.force_login(organiser)
    html = client.get(page(match)).content.decode()
    assert "Reopen for corrections" in html
    match.refresh_from_db()
    response = client.post(
        reverse("matches:reopen", kwargs={"match_id": match.pk}), {"version": match.version}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


def test_correcting_a_hand_from_its_page(browser: Client, match: Match) -> None:
    from matches.services.lifecycle import match_import

    match = match_import(
        match=match, document={"format": "allfives/1", "players": 4, "hands": [HAND_1]}, user=None
    )
    url = reverse("matches:hand_edit", kwargs={"match_id": match.pk, "number": 1})
    form = browser.get(url).content.decode()
    assert 'value="1:10 2:5"' in form
    data = tally_post(
        match, leader=0, scores="1:5 2:5", end="domino:2", left_0=7, left_1=8, left_2=0, left_3=6
    )
    response = browser.post(url, {**data, "action": "save"})
    assert response.status_code == 302
    assert Hand.objects.get(match=match, number=1).entry["scores"] == [[0, 5], [1, 5]]


def test_the_history_does_not_say_a_later_hand_was_corrected_when_only_its_totals_moved(
    browser: Client, match: Match
) -> None:
    from matches.services.lifecycle import match_import

    # given two hands, and hand 1 corrected on its page (Budi's 10 was a 5)
    match = match_import(
        match=match,
        document={"format": "allfives/1", "players": 4, "hands": [HAND_1, HAND_2]},
        user=None,
    )
    url = reverse("matches:hand_edit", kwargs={"match_id": match.pk, "number": 1})
    data = tally_post(
        match, leader=0, scores="1:5 2:5", end="domino:2", left_0=7, left_1=8, left_2=0, left_3=6
    )
    assert browser.post(url, {**data, "action": "save"}).status_code == 302
    assert Hand.objects.get(match=match, number=2).entry == HAND_2
    # when the history is opened
    with translation.override("en"):
        history = reverse("matches:history", kwargs={"match_id": match.pk})
    html = browser.get(history).content.decode()
    # then it lists the correction of hand 1 only: hand 2 was not changed by anyone
    assert "Hand 1 corrected by scorekeeper" in html
    assert "Hand 2 corrected" not in html


def test_tile_buttons_lay_tiles_for_whoever_is_to_play(browser: Client, match: Match) -> None:
    match.entry_mode = Match.EntryMode.TILES
    match.save()
    base = {"version": match.version, "number": 1, "leader": 0}
    lead = browser.post(page(match), {**base, "tile": "5-5", "action": "play"})
    assert "1 5-5" in lead.content.decode()
    second = browser.post(
        page(match), {**base, "moves": "1 5-5", "tile": "5-0", "action": "play:E"}
    )
    html = second.content.decode()
    assert "1 5-5\n2 5-0 E" in html
    assert "Count <b>10</b>" in html  # [5|5] still at an end: 5 + 5 + 0 (R11)
    assert "<svg" in html


def test_an_illegal_move_is_refused_at_the_moves_field_before_saving(
    browser: Client, match: Match
) -> None:
    match.entry_mode = Match.EntryMode.TILES
    match.save()
    data = {"version": match.version, "number": 1, "leader": 0, "moves": "1 3-6\n2 1-4 W"}
    html = browser.post(page(match), {**data, "action": "pass"}).content.decode()
    error = html.split('data-testid="error-moves"')[1].split("</div>")[0]
    assert "[1|4]" in error
    assert "1 3-6\n2 1-4 W" in html


def test_a_table_link_opens_its_match(browser: Client, table: Table) -> None:
    url = reverse("matches:table_scorekeeper", kwargs={"table_id": table.pk})
    response = browser.get(url)
    match = Match.objects.get(table=table)
    assert response.status_code == 302
    assert response["Location"].endswith(f"/matches/{match.pk}/score/")


def test_the_history_page_lists_who_changed_what(browser: Client, match: Match) -> None:
    data = tally_post(
        match, leader=0, scores="1:10 2:5", end="domino:2", left_0=7, left_1=8, left_2=0, left_3=6
    )
    browser.post(page(match), {**data, "action": "save"})
    html = browser.get(reverse("matches:history", kwargs={"match_id": match.pk})).content.decode()
    assert "Hand 1 recorded by scorekeeper" in html
    # and the match's first hand starts it, it does not end it
    assert "The match started with a hand recorded by scorekeeper" in html
    assert "The match ended" not in html


def test_the_next_hand_starts_with_whoever_went_out_chosen_to_lead(
    browser: Client, match: Match
) -> None:
    # Given hand 1 won by seat 2 going out (domino), who must lead hand 2 (R5)
    data = tally_post(
        match, leader=0, scores="1:10 2:5", end="domino:2", left_0=7, left_1=8, left_2=0, left_3=6
    )
    browser.post(page(match), {**data, "action": "save"})
    match.refresh_from_db()
    assert match.next_leader == 2
    # When the page offers hand 2, that seat's leader button is already chosen
    html = browser.get(page(match)).content.decode()
    chosen = re.findall(r'<input type="radio" name="leader" value="(\d)"[^>]*checked', html)
    assert chosen == ["2"], chosen
