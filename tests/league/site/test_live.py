"""Live scores reach the league's pages through ``league.live``, without league importing
matches: score entry registers a provider, the pages ask for their tables in one call."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import Decimal

import pytest
from django.test import Client

from league import live
from league.live import TableLive, table_live_provider_set, tables_live
from matches.selectors_public import tables_live_read
from tests.league.site.conftest import LeagueDay, ScoredDay

pytestmark = pytest.mark.django_db


@pytest.fixture
def fake_provider() -> Iterator[list[Sequence[int]]]:
    calls: list[Sequence[int]] = []

    def provide(table_ids: Sequence[int]) -> dict[int, TableLive]:
        calls.append(list(table_ids))
        return {
            t: TableLive(t, {0: Decimal("97.5"), 1: Decimal(40)}, 4, False, f"/m/{t}/")
            for t in table_ids
        }

    before = live._provider
    table_live_provider_set(provide)
    yield calls
    table_live_provider_set(before)


def test_matches_registers_its_provider_when_the_app_starts() -> None:
    assert live._provider is tables_live_read


def test_without_a_provider_there_are_no_live_scores() -> None:
    before = live._provider
    table_live_provider_set(None)
    try:
        assert tables_live(table_ids=[1, 2]) == {}
    finally:
        table_live_provider_set(before)


def test_a_round_asks_once_for_the_live_scores_of_its_started_tables(
    client: Client, league_day: LeagueDay, fake_provider: list[Sequence[int]]
) -> None:
    html = client.get("/en/tournaments/piala-kelipatan/rounds/2/").content.decode()
    # Only the playing table is asked for (the other has not started), in one call.
    assert fake_provider == [[league_day.playing_table.pk]]
    assert '<span class="live-points">97½</span>' in html
    assert "after 4 hands" in html
    assert f'href="/m/{league_day.playing_table.pk}/"' in html


def test_live_scores_write_a_half_point_as_on_the_scoring_page(
    client: Client, league_day: LeagueDay, fake_provider: list[Sequence[int]]
) -> None:
    html = client.get("/tournaments/piala-kelipatan/rounds/2/live/").content.decode()
    assert '<span class="live-points">97½</span>' in html


def test_the_matches_provider_reads_totals_and_links_the_public_scoresheet(
    scored_day: ScoredDay,
) -> None:
    live_match = scored_day.live
    found = tables_live_read([scored_day.day.playing_table.pk, 999_999])
    assert list(found) == [scored_day.day.playing_table.pk]
    entry = found[scored_day.day.playing_table.pk]
    assert entry.hands_count == 2 and not entry.is_finished
    assert entry.totals == {int(s): Decimal(x2) / 2 for s, x2 in live_match.totals_x2.items()}
    assert entry.url == f"/matches/{live_match.pk}/"


def test_a_round_page_links_each_started_table_to_its_scoresheet(
    client: Client, scored_day: ScoredDay
) -> None:
    html = client.get("/tournaments/piala-kelipatan/rounds/2/").content.decode()
    assert f'href="/matches/{scored_day.live.pk}/"' in html
