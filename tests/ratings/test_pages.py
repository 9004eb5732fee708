"""The rating chart on the public player page."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Player

from .conftest import League, Recorder, at

pytestmark = pytest.mark.django_db


def test_the_player_page_shows_the_rating_chart_once_a_match_is_rated(
    client: Client, league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    a, b = players(2)
    url = reverse("league:player", kwargs={"slug": a.slug})
    before = client.get(url)
    assert before.status_code == 200
    assert 'class="rating-chart"' not in before.content.decode()
    played(league.table([a, b]), [1, 2], at(0))
    page = client.get(url).content.decode()
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart"') == 1
    assert "&lt;svg" not in page  # rendered as markup, not escaped text


def test_the_leaderboard_page_lists_players_with_enough_rated_matches(
    client: Client, league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given A beat B twice and C played once
    a, b, c = players(3)
    played(league.table([a, b]), [1, 2], at(0))
    played(league.table([a, b]), [1, 2], at(1))
    played(league.table([c, b]), [1, 2], at(2))
    # When the leaderboard asks for two matches at least
    page = client.get(reverse("ratings:leaderboard") + "?min=2").content.decode()
    # Then A is listed above B, and C is not
    link = {p: f'href="{reverse("league:player", kwargs={"slug": p.slug})}"' for p in (a, b, c)}
    assert link[c] not in page
    assert page.index(link[a]) < page.index(link[b])
    # And a nonsense minimum falls back to the default (five: nobody yet)
    fallback = client.get(reverse("ratings:leaderboard") + "?min=lots").content.decode()
    assert link[a] not in fallback
    assert '<table class="compact ratings">' not in fallback


def test_the_season_leaderboard_page_is_linked_from_the_season(
    client: Client, league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    a, b = players(2)
    played(league.table([a, b]), [2, 1], at(0))
    season = league.tournament.season
    assert season is not None
    url = reverse("ratings:season_leaderboard", kwargs={"slug": season.slug})
    assert (
        url in client.get(reverse("league:season", kwargs={"slug": season.slug})).content.decode()
    )
    page = client.get(url + "?min=1").content.decode()
    link = {p: f'href="{reverse("league:player", kwargs={"slug": p.slug})}"' for p in (a, b)}
    assert page.index(link[b]) < page.index(link[a])
    assert (
        client.get(reverse("ratings:season_leaderboard", kwargs={"slug": "nope"})).status_code
        == 404
    )
