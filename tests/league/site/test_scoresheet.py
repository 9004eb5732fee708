"""The public scoresheet of a match: hand by hand, tally, layout, chart, live refresh."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client

from league.models import Round
from matches.selectors_public import scoresheet_public
from tests.league.site.conftest import ScoredDay

pytestmark = pytest.mark.django_db


def test_scoresheet_lists_every_hand_with_running_totals_that_add_up(
    scored_day: ScoredDay,
) -> None:
    view = scoresheet_public(match_id=scored_day.finished_tiles.pk)
    assert view is not None
    assert len(view.hands) == scored_day.finished_tiles.hands_count
    running = [Decimal(0)] * len(view.sides)
    for hand in view.hands:
        for i, side in enumerate(hand.sides):
            assert side.points == side.plays + side.bonus
            running[i] += side.points
            assert side.total == running[i]
        # Every scoring play scores a multiple of five (R12).
        assert all(play.points % 5 == 0 and play.points > 0 for play in hand.plays)
    assert [s.total for s in view.sides] == running
    assert any(s.is_winner for s in view.sides)


def test_tile_by_tile_scoresheet_draws_the_final_layout_and_the_chart(
    client: Client, scored_day: ScoredDay
) -> None:
    html = client.get(f"/en/matches/{scored_day.finished_tiles.pk}/").content.decode()
    hands = scored_day.finished_tiles.hands_count
    assert html.count('class="layout-svg"') == hands
    assert html.count("Final layout") == hands
    assert 'class="chart"' in html and "Score after each hand" in html
    assert "Target 250" in html
    assert re.search(r"laid \d-\d: \d+", html)  # a scoring play with its tile
    assert "won the match." in html
    assert "Chance of winning from the ratings before the match: Ani " in html
    assert "hx-get" not in html  # finished: no polling


def test_tally_scoresheet_shows_plays_how_hands_ended_and_tally_strokes(
    client: Client, scored_day: ScoredDay
) -> None:
    html = client.get(f"/en/matches/{scored_day.tally.pk}/").content.decode()
    assert "Domino by Citra" in html  # hand 1: seat 2 went out (not her partner Ani)
    assert "Domino by Budi" in html  # hand 2: seat 1
    assert "Target reached" in html  # hand 3: won during the hand (R22)
    assert "Ani: 10" in html and "Citra: 20" in html
    assert 'class="tally-strokes"' in html
    assert "50 points: 1 cross of 50, 0 strokes of 5" in html
    assert "layout-svg" not in html  # no tiles recorded in tally mode


def test_a_match_renders_once_per_version_and_language(
    client: Client, scored_day: ScoredDay, django_assert_max_num_queries: object
) -> None:
    url = f"/en/matches/{scored_day.tally.pk}/"

    def sheet(html: bytes) -> bytes:  # the page less its per-request CSRF token
        return html[html.index(b'<div id="scoresheet"') : html.index(b"</main>")]

    first = client.get(url).content
    with django_assert_max_num_queries(3):  # type: ignore[operator]
        again = client.get(url).content  # the hands and chances come from the cache
    assert sheet(again) == sheet(first)


def test_a_running_match_polls_for_fresh_hands(client: Client, scored_day: ScoredDay) -> None:
    html = client.get(f"/matches/{scored_day.live.pk}/").content.decode()
    assert f'hx-get="/matches/{scored_day.live.pk}/live/"' in html
    assert "htmx.min.js" in html
    fragment = client.get(f"/matches/{scored_day.live.pk}/live/")
    assert fragment["Cache-Control"] == "no-store"
    assert b'id="scoresheet"' in fragment.content and b"<html" not in fragment.content


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_scoresheet_half_points_read_as_on_the_scoring_page_in_either_language(
    client: Client, scored_day: ScoredDay, prefix: str
) -> None:
    # The totals, and the chart's point tooltips, write a half point as ½.
    match = scored_day.tally
    match.target = 1250  # a five-digit scale keeps thousands out; only the decimal matters
    match.totals_x2 = {"0": 101, "1": 40}
    match.save(update_fields=["target", "totals_x2"])
    html = client.get(f"{prefix}/matches/{match.pk}/").content.decode()
    assert "50½" in html and "50,5" not in html and "50.5" not in html


def test_scoresheet_of_an_unpublished_round_is_not_public(
    client: Client, scored_day: ScoredDay
) -> None:
    Round.objects.filter(pk=scored_day.day.live_round.pk).update(status=Round.Status.DRAFT)
    assert client.get(f"/matches/{scored_day.live.pk}/").status_code == 404
    assert client.get(f"/matches/{scored_day.live.pk}/live/").status_code == 404
    assert client.get("/matches/999999/").status_code == 404


def test_scoresheet_escapes_names_and_hides_contact_details(
    client: Client, scored_day: ScoredDay
) -> None:
    html = client.get(f"/matches/{scored_day.live.pk}/").content.decode()
    assert '<script>alert("x")</script>' not in html
    assert "&lt;script&gt;" in html
    assert "private.example" not in html
