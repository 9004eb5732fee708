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
