"""Every public page runs a bounded number of queries, however many tables and players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from league.models import Round
from tests.factories import EntryFactory, PlayerFactory, RoundFactory
from tests.league.site.conftest import ScoredDay, record, seat_table

pytestmark = pytest.mark.django_db

#: Queries allowed per page (what each page runs today, plus one of headroom).
BOUNDS = {
    # The tournaments taking sign-ups (entrants' template tag): 1 query.
    "/": 9,
    "/tournaments/": 2,
    # The sign-up offer (entrants' template tag) reads the tournament's sign-up: 1 query.
    "/tournaments/piala-kelipatan/": 9,
    # A round being played adds the sides' strengths for its live chances (3 queries
    # for all its tables at once).
    "/tournaments/piala-kelipatan/rounds/2/": 10,
    "/tournaments/piala-kelipatan/rounds/2/live/": 10,
    "/seasons/musim-hujan-2026/": 8,
}


def grow(scored: ScoredDay, tables: int) -> None:
    """Add a finished round of ``tables`` more two-player tables with new players."""
    day = scored.day
    more = RoundFactory(tournament=day.tournament, number=9, status=Round.Status.FINISHED)
    for number in range(1, tables + 1):
        entries = [
            EntryFactory(tournament=day.tournament, player=PlayerFactory()) for _ in range(2)
        ]
        entries.append(day.entries[0])  # Ani plays everyone: her page grows too
        table = seat_table(more, number, entries[1:] if number % 2 else entries[::2])
        record(table, [500, 100], [1, 2])


def player_urls(scored: ScoredDay) -> dict[str, int]:
    day = scored.day
    return {
        # Her table being played adds its sides' strengths for the live chances (4).
        f"/players/{day.players[0].slug}/": 12,
        f"/partnerships/{day.partnership.slug}/": 7,
        # match, seats, hands; the first rendering of a version adds the chances from
        # the ratings before the match (4) and the sides' strengths that set the
        # simulated players of the live chances (4, fewer when the table has none).
        f"/matches/{scored.finished_tiles.pk}/": 12,
        f"/matches/{scored.live.pk}/live/": 12,
    }


@pytest.mark.parametrize("tables", [0, 12])
def test_public_pages_stay_within_their_query_bound_as_the_data_grows(
    client: Client,
    scored_day: ScoredDay,
    django_assert_max_num_queries: Callable[..., Any],
    tables: int,
) -> None:
    # Given the tournament day, and as many again extra tables
    grow(scored_day, tables)
    bounds = {**BOUNDS, **player_urls(scored_day)}
    for url, bound in bounds.items():
        # When each page is read, then it stays within its bound
        with django_assert_max_num_queries(bound):
            response = client.get(url)
        assert response.status_code == 200, url
