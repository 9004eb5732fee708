"""Standings pages, CSV export and JSON API: what they show, sorting, "why am I here?",
languages, live polling, promotion and relegation zones, and bounded query counts."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league.models import Division, Tournament
from league.services.results import table_status_set
from standings.models import Standings
from standings.services.refresh import (
    division_standings_refresh,
    season_standings_refresh,
    standings_refresh,
)
from tests.factories import SeasonFactory, TournamentFactory
from tests.standings.conftest import League

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def small_tournament(league: League) -> League:
    """Ani beats Budi and Citra; Budi and Citra tie; Dewi withdrew after losing to Budi."""
    Tournament.objects.filter(pk=league.tournament.pk).update(
        tiebreaks=["match_points", "wins", "points_scored"]
    )
    league.tournament.refresh_from_db()
    ani, budi, citra = league.entry("Ani"), league.entry("Budi"), league.entry("Citra")
    dewi = league.entry("Dewi", is_withdrawn=True, withdrawn_round=2)
    league.play(1, [ani, budi], [250, 100])
    league.play(1, [citra, dewi], [250, 40])
    league.play(2, [ani, citra], [250, 100.5])
    league.play(2, [budi, citra], [200, 200])
    standings_refresh(tournament_id=league.tournament.pk)
    return league


def name_cell(name: str) -> str:
    """How a row's name reads in the page's HTML."""
    return f'<span class="name">{name}</span>'


def page_url(league: League, **query: str) -> str:
    url = reverse("standings:tournament_standings", kwargs={"slug": league.tournament.slug})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_tournament_page_ranks_entrants_and_says_why_each_is_above_the_next(
    client: Client, league: League
) -> None:
    small_tournament(league)
    response = client.get("/en" + page_url(league))
    assert response.status_code == 200
    html = response.content.decode()
    positions = [html.index(name_cell(name)) for name in ("Ani", "Citra", "Budi", "Dewi")]
    assert positions == sorted(positions)
    # Citra (3 mp: a win and a tie) above Budi (1 mp + ... ) on match points, with values.
    assert "Ani is above Citra on Match points: 4 against 3." in html
    assert "withdrew in round 2" in html
    assert 'href="?sort=-wins"' in html  # sortable headings
    assert reverse("standings:tournament_standings_csv", args=[league.tournament.slug]) in html


def test_shared_ranks_are_shown_and_explained(client: Client, league: League) -> None:
    a, b, c, d = (league.entry(n) for n in ("Ani", "Budi", "Citra", "Dewi"))
    league.play(1, [a, c], [250, 100])
    league.play(1, [b, d], [250, 100])
    standings_refresh(tournament_id=league.tournament.pk)
    html = client.get("/en" + page_url(league)).content.decode()
    assert "Ani and Budi are equal on every tiebreak and share the rank." in html
    ranks = Standings.objects.get(tournament=league.tournament).rows.values_list("rank", flat=True)
    assert list(ranks) == [1, 1, 3, 3]


def test_the_page_sorts_by_any_column_and_ignores_unknown_ones(
    client: Client, league: League
) -> None:
    small_tournament(league)
    by_points = client.get(page_url(league, sort="-points_scored")).content.decode()
    # Points scored: Ani 500, Budi 300, Citra 550.5, Dewi 40.
    order = [by_points.index(name_cell(n)) for n in ("Citra", "Ani", "Budi", "Dewi")]
    assert order == sorted(order)
    assert "550½" in by_points  # a half point as the scoring page writes it
    unknown = client.get(page_url(league, sort="password")).content.decode()
    assert unknown.index(name_cell("Ani")) < unknown.index(name_cell("Citra"))


def test_the_page_is_served_in_english_and_indonesian(client: Client, league: League) -> None:
    small_tournament(league)
    url = page_url(league, sort="name")  # Indonesian is the default: no prefix
    indonesian = client.get(url).content.decode()
    english = client.get("/en" + url).content.decode()
    assert '<html lang="id">' in indonesian and '<html lang="en">' in english
    assert "550½" in indonesian and "550½" in english
    assert 'href="/en' not in indonesian


def test_a_page_before_any_result_says_so(client: Client, league: League) -> None:
    response = client.get("/en" + page_url(league))
    assert response.status_code == 200
    assert "No standings yet" in response.content.decode()


def test_an_unknown_tournament_is_404(client: Client, db: Any) -> None:
    url = reverse("standings:tournament_standings", kwargs={"slug": "nope"})
    assert client.get(url).status_code == 404


def test_live_standings_poll_with_htmx_and_stop_once_final(client: Client, league: League) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    table = league.table(1, [ani, budi])
    table_status_set(table_id=table.pk, status="playing")
    standings_refresh(tournament_id=league.tournament.pk)
    html = client.get("/en" + page_url(league)).content.decode()
    assert 'hx-trigger="every 10s"' in html and "vendor/htmx.min.js" in html
    assert "Matches in progress" in html and "playing at table" in html
    poll = client.get(page_url(league), HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and b"<html" not in poll.content

    league.result(table, [250, 90])
    Tournament.objects.filter(pk=league.tournament.pk).update(status=Tournament.Status.FINISHED)
    standings_refresh(tournament_id=league.tournament.pk)
    final = client.get(page_url(league), HTTP_HX_REQUEST="true")
    assert final.status_code == 286  # htmx stops polling
    assert b"hx-trigger" not in final.content


def test_csv_export_has_every_column_with_plain_decimals(client: Client, league: League) -> None:
    small_tournament(league)
    url = reverse("standings:tournament_standings_csv", kwargs={"slug": league.tournament.slug})
    response = client.get("/en" + url)
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header, first, second = rows[0], rows[1], rows[2]
    assert header[:3] == ["Rank", "Name", "Match points"]
    assert first[:3] == ["1", "Ani", "4"]
    assert second[1] == "Citra" and "550.5" in second  # a dot, whatever the language
    assert first[-1] == "Ani is above Citra on Match points: 4 against 3."
    assert len(rows) == 5


def test_csv_export_neutralises_formula_cells(client: Client, league: League) -> None:
    # Given entrants whose names a spreadsheet would run as formulas
    formula, at = '=HYPERLINK("http://evil.example","klik")', "@SUM(A1:A9)"
    first, second = league.entry(formula), league.entry(at)
    league.play(1, [first, second], [250, 100])
    standings_refresh(tournament_id=league.tournament.pk)
    # When the standings are exported as CSV
    url = reverse("standings:tournament_standings_csv", kwargs={"slug": league.tournament.slug})
    rows = list(csv.reader(io.StringIO(client.get("/en" + url).content.decode())))
    # Then the names (and the sentence that starts with one) read as text, numbers stay
    assert [row[1] for row in rows[1:]] == ["'" + formula, "'" + at]
    assert rows[1][-1].startswith("'" + formula)
    assert not [cell for row in rows for cell in row if cell.startswith(("=", "@", "+"))]
    assert rows[1][0] == "1"


def test_the_json_api_gives_rows_values_and_the_separation_of_each_adjacent_pair(
    client: Client, league: League
) -> None:
    small_tournament(league)
    url = reverse("api-tournament-standings", kwargs={"slug": league.tournament.slug})
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["scope"] == "tournament" and body["tiebreaks"] == [
        "match_points",
        "wins",
        "points_scored",
    ]
    assert not body["is_stale"] and not body["is_provisional"]
    names = [row["name"] for row in body["rows"]]
    assert names == ["Ani", "Citra", "Budi", "Dewi"]
    ani, citra = body["rows"][:2]
    assert ani["values"]["match_points"] == "4" and citra["values"]["points_scored"] == "550.5"
    assert ani["below"] == {
        "next_entrant_id": citra["entrant_id"],
        "reason": "tiebreak",
        "tiebreak": "match_points",
        "tiebreak_label": "Match points",
        "upper_value": "4",
        "lower_value": "3",
        "text": "Ani is above Citra on Match points: 4 against 3.",
    }
    assert body["rows"][-1]["below"] is None
    assert body["rows"][-1]["is_withdrawn"] and body["rows"][-1]["withdrawn_round"] == 2
    by_name = client.get(url + "?sort=name").json()
    assert [row["name"] for row in by_name["rows"]] == ["Ani", "Budi", "Citra", "Dewi"]
    assert by_name["rows"][0]["below"]["next_entrant_id"] == citra["entrant_id"]


def test_division_tables_show_promotion_and_relegation_zones(client: Client, db: Any) -> None:
    season = SeasonFactory()
    division = Division.objects.create(
        season=season, name="Utama", promotion_count=1, relegation_count=1
    )
    league = League(TournamentFactory(season=season, division=division))
    a, b, c = league.entry("Ani"), league.entry("Budi"), league.entry("Citra")
    league.play(1, [a, b], [250, 100])
    league.play(2, [b, c], [250, 100])
    league.play(3, [a, c], [250, 100])
    division_standings_refresh(division_id=division.pk)
    kwargs = {"slug": season.slug, "division_id": division.pk}
    html = client.get(reverse("standings:division_standings", kwargs=kwargs)).content.decode()
    assert html.index('<tr class="row-main zone-promotion"') < html.index(name_cell("Ani"))
    assert html.index(name_cell("Budi")) < html.index('<tr class="row-main zone-relegation"')
    assert html.index('<tr class="row-main zone-relegation"') < html.index(name_cell("Citra"))
    body = client.get(reverse("api-division-standings", kwargs=kwargs)).json()
    assert [(r["name"], r["zone"]) for r in body["rows"]] == [
        ("Ani", "promotion"),
        ("Budi", ""),
        ("Citra", "relegation"),
    ]
    csv_url = reverse("standings:division_standings_csv", kwargs=kwargs)
    assert b"promosi" in client.get(csv_url).content  # Indonesian, the default
    english_csv = client.get("/en" + csv_url).content
    assert b"promotion" in english_csv and b"relegation" in english_csv


def test_the_season_table_page_csv_and_json(client: Client, db: Any) -> None:
    season = SeasonFactory()
    league = League(TournamentFactory(season=season, points_win=Decimal("2.5")))
    a, b = league.entry("Ani"), league.entry("Budi")
    league.play(1, [a, b], [250, 100])
    season_standings_refresh(season_id=season.pk)
    html = client.get(reverse("standings:season_standings", args=[season.slug])).content.decode()
    assert name_cell("Ani") in html and "2½" in html
    body = client.get(reverse("api-season-standings", args=[season.slug])).json()
    assert body["entrant_kind"] == "player" and body["rows"][0]["values"]["match_points"] == "2.5"
    csv_response = client.get(reverse("standings:season_standings_csv", args=[season.slug]))
    assert b"Ani" in csv_response.content


def _big_tournament(entrants: int) -> League:
    league = League(TournamentFactory(status=Tournament.Status.RUNNING))
    entries = [league.entry(f"P{n:03}") for n in range(entrants)]
    for n in range(0, entrants, 2):
        league.play(1, entries[n : n + 2], [250, n])
    playing = league.table(2, entries[:2])
    table_status_set(table_id=playing.pk, status="playing")
    standings_refresh(tournament_id=league.tournament.pk)
    return league


@pytest.mark.parametrize("entrants", [8, 40])
def test_pages_and_api_run_a_fixed_number_of_queries_whatever_the_size(
    client: Client, db: Any, entrants: int, django_assert_num_queries: Any
) -> None:
    league = _big_tournament(entrants)
    slug = league.tournament.slug
    # Cold cache: scope with its standings, the published rounds' tables counted, rows,
    # tables in play and their live scores (score entry's provider); then the ranked
    # table comes from the cache.
    with django_assert_num_queries(5):
        assert client.get(page_url(league)).status_code == 200
    with django_assert_num_queries(4):
        assert client.get(page_url(league)).status_code == 200
    with django_assert_num_queries(2):
        client.get(reverse("standings:tournament_standings_csv", args=[slug]))
    with django_assert_num_queries(2):
        client.get(reverse("api-tournament-standings", args=[slug]))


def test_a_draft_tournaments_standings_are_not_public(client: Client, db: Any) -> None:
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    assert (
        client.get(reverse("standings:tournament_standings", args=[draft.slug])).status_code == 404
    )
    assert client.get(reverse("api-tournament-standings", args=[draft.slug])).status_code == 404


def test_the_cached_api_document_still_reports_fresh_staleness(
    client: Client, league: League, django_assert_num_queries: Any
) -> None:
    small_tournament(league)
    url = reverse("api-tournament-standings", kwargs={"slug": league.tournament.slug})
    assert client.get(url).json()["is_stale"] is False
    Standings.objects.filter(tournament=league.tournament).update(requested_version=99)
    with django_assert_num_queries(1):  # rows come from the cache
        body = client.get(url).json()
    assert body["is_stale"] is True and len(body["rows"]) == 4


def test_a_page_with_no_table_in_play_skips_looking_for_them(
    client: Client, league: League, django_assert_num_queries: Any
) -> None:
    small_tournament(league)  # running, every table finished, standings up to date
    # The scope with its standings, the published rounds' tables counted, then the rows
    with django_assert_num_queries(3):
        assert client.get(page_url(league)).status_code == 200
    with django_assert_num_queries(2):  # the table from the cache
        assert client.get(page_url(league)).status_code == 200


def test_why_here_values_write_half_points_as_the_scoring_page_does(
    client: Client, league: League
) -> None:
    small_tournament(league)
    Tournament.objects.filter(pk=league.tournament.pk).update(tiebreaks=["points_scored"])
    league.play(3, [league.entry("Eko"), league.entry("Fajar")], [10, 5])  # marks a change
    standings_refresh(tournament_id=league.tournament.pk)
    url = page_url(league)
    indonesian = client.get(url).content.decode()
    english = client.get("/en" + url).content.decode()
    assert "Citra di atas Ani berdasarkan Poin dicetak: 550½ lawan 500." in indonesian
    assert "Citra is above Ani on Points scored: 550½ against 500." in english
