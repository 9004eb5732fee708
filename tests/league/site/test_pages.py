"""The public pages: what they show, in both languages, and what they never show."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.html import escape

from standings.models import StandingsRow
from standings.services.refresh import standings_refresh
from tests.league.site.conftest import EVIL_NAME, LeagueDay, ScoredDay

pytestmark = pytest.mark.django_db

DASH = " \N{EN DASH}&nbsp;"  # between the sides' points (kept with the number after it)


def page(client: Client, url: str, language: str = "id") -> str:
    prefix = "" if language == "id" else "/en"
    response = client.get(prefix + url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def public_urls(day: LeagueDay) -> list[str]:
    return [
        "/",
        "/tournaments/",
        "/tournaments/piala-kelipatan/",
        "/tournaments/piala-kelipatan/rounds/1/",
        "/tournaments/piala-kelipatan/rounds/2/",
        "/tournaments/piala-kelipatan/rounds/2/live/",
        f"/players/{day.players[0].slug}/",
        f"/players/{day.players[5].slug}/",
        f"/partnerships/{day.partnership.slug}/",
        "/seasons/musim-hujan-2026/",
    ]


@pytest.mark.parametrize("language", ["id", "en"])
def test_every_public_page_renders_in_both_languages(
    client: Client, league_day: LeagueDay, language: str
) -> None:
    for url in public_urls(league_day):
        html = page(client, url, language)
        if not url.endswith("/live/"):
            assert f'<html lang="{language}">' in html, url


def test_home_lists_running_tournaments_the_current_season_and_recent_results(
    client: Client, league_day: LeagueDay
) -> None:
    html = page(client, "/")
    assert 'href="/tournaments/piala-kelipatan/"' in html
    assert 'href="/seasons/musim-hujan-2026/"' in html
    assert "Citra" in html and "205" in html  # the split table's winner and points
    assert "Rahasia Draf" not in html  # draft tournament


def test_tournament_page_shows_published_rounds_seats_and_rules_in_force(
    client: Client, league_day: LeagueDay
) -> None:
    html = page(client, "/tournaments/piala-kelipatan/", "en")
    assert "Round 2" in html and "Round 1" in html
    assert "Round 3" not in html  # a draft round stays hidden
    assert "(seat 1)" in html and "(seat 3)" in html
    assert "Target 250" in html and "Target 200" in html
    # Rules in force: targets per player count and the blocked award.
    assert "Aturan Klub" in html
    assert "Opponents&#x27; pips" in html or "Opponents' pips" in html
    assert 'hx-get="/en/tournaments/piala-kelipatan/rounds/2/live/"' in html
    assert "vendor/htmx.min.js" in html


def test_four_player_tables_show_partners_facing_each_other(
    client: Client, league_day: LeagueDay
) -> None:
    html = page(client, "/tournaments/pasangan-tetap/rounds/1/", "en")
    assert "partners sit opposite each other" in html
    # Side 0 is seats 1 and 3 (Ani, Budi), side 1 seats 2 and 4 (Citra, Dedi).
    ani, budi, citra = html.index(">Ani<"), html.index(">Budi<"), html.index(">Citra<")
    assert ani < budi < citra
    assert "Duo Ani Budi" in html and "Duo Citra Dedi" in html


def test_a_finished_round_does_not_poll_and_a_live_round_does(
    client: Client, league_day: LeagueDay
) -> None:
    finished = page(client, "/tournaments/piala-kelipatan/rounds/1/")
    live = page(client, "/tournaments/piala-kelipatan/rounds/2/")
    assert "hx-get" not in finished and "htmx.min.js" not in finished
    assert 'hx-trigger="every 15s"' in live and "htmx.min.js" in live


def test_live_fragment_is_never_cached(client: Client, league_day: LeagueDay) -> None:
    response = client.get("/tournaments/piala-kelipatan/rounds/2/live/")
    assert response["Cache-Control"] == "no-store"
    assert b"<html" not in response.content


@pytest.mark.parametrize(
    "url",
    [
        "/tournaments/rahasia-draf/",
        "/tournaments/rahasia-draf/rounds/1/",
        "/tournaments/piala-kelipatan/rounds/3/",
        "/tournaments/piala-kelipatan/rounds/3/live/",
        "/tournaments/piala-kelipatan/rounds/3/tables/1/card.pdf",
        "/tournaments/nope/",
        "/players/nope/",
        "/partnerships/nope/",
        "/seasons/nope/",
    ],
)
def test_drafts_and_unknown_addresses_are_not_found(
    client: Client, league_day: LeagueDay, url: str
) -> None:
    assert client.get(url).status_code == 404


def test_contact_details_never_appear_on_any_page(client: Client, league_day: LeagueDay) -> None:
    for url in public_urls(league_day):
        html = page(client, url)
        assert "private.example" not in html, url
        assert "+62 811" not in html, url


def test_names_are_escaped_everywhere(client: Client, league_day: LeagueDay) -> None:
    for url in public_urls(league_day):
        html = page(client, url)
        assert '<script>alert("x")</script>' not in html, url
    html = page(client, f"/players/{league_day.players[5].slug}/")
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Budi &amp; &quot;Co&quot;" in html
    assert EVIL_NAME not in html


def test_player_page_shows_results_partners_and_record_against_each_opponent(
    client: Client, league_day: LeagueDay
) -> None:
    html = page(client, f"/players/{league_day.players[0].slug}/", "en")
    # Ani: won round 1 (250 to 155), lost with Budi to Citra & Dedi, playing round 2.
    assert "<dt>Played</dt><dd>2</dd>" in html
    assert "<dt>Won</dt><dd>1</dd>" in html
    assert "<dt>Lost</dt><dd>1</dd>" in html
    assert "<dt>Not finished</dt><dd>1</dd>" in html
    assert f"250{DASH}155" in html
    assert "Duo Ani Budi" in html
    assert "Partners at four-player tables" in html
    assert "Record against each opponent" in html
    assert "Piala Kelipatan" in html and "Pasangan Tetap" in html
    assert "Rahasia Draf" not in html


def test_three_player_split_counts_as_a_tie_between_the_two_runners_up(
    client: Client, league_day: LeagueDay
) -> None:
    # Dedi and Eka split second place at Citra's table (R20): tied with each other.
    eka = league_day.players[4]
    html = page(client, f"/players/{league_day.players[3].slug}/", "en")
    assert "<dt>Won</dt><dd>1</dd>" in html  # with Citra in the pairs tournament
    assert "<dt>Lost</dt><dd>1</dd>" in html  # to Citra in round 1
    assert f"87½{DASH}205{DASH}87½" in html
    # Against Eka: played 1, won 0, tied 1, lost 0.
    eka_row = (
        f'<a href="/en/players/{eka.slug}/">Eka</a></th><td class="num">1</td>'
        '<td class="num">0</td><td class="num">1</td><td class="num">0</td>'
    )
    assert eka_row in html


def test_partnership_page_shows_its_players_matches_and_opponents(
    client: Client, league_day: LeagueDay
) -> None:
    html = page(client, f"/partnerships/{league_day.partnership.slug}/", "en")
    assert ">Ani<" in html and ">Budi<" in html
    assert "<dt>Lost</dt><dd>1</dd>" in html
    assert "Duo Citra Dedi" in html  # the opposing partnership in the record table
    assert f"150{DASH}205" in html


def test_season_page_lists_its_public_tournaments_and_rules(
    client: Client, league_day: LeagueDay
) -> None:
    html = page(client, "/seasons/musim-hujan-2026/", "en")
    assert "Piala Kelipatan" in html and "Pasangan Tetap" in html
    assert "Rahasia Draf" not in html
    assert "Target and tiles dealt by number of players" in html


def test_tournament_list_hides_drafts(client: Client, league_day: LeagueDay) -> None:
    html = page(client, "/tournaments/")
    assert "Piala Kelipatan" in html and "Rahasia Draf" not in html


def test_public_pages_are_read_only(client: Client, league_day: LeagueDay) -> None:
    assert client.post("/tournaments/piala-kelipatan/").status_code == 405


def test_tournament_page_shows_the_top_of_the_standings_and_links_the_full_table(
    client: Client, scored_day: ScoredDay
) -> None:
    # Given standings refreshed after the matches were recorded (the standings issue;
    # the refresh is queued on commit, which a test's transaction never reaches)
    standings_refresh(tournament_id=scored_day.day.tournament.pk)
    leader = StandingsRow.objects.filter(
        standings__tournament=scored_day.day.tournament, rank=1
    ).first()
    assert leader is not None
    # When the tournament page is read
    html = page(client, "/tournaments/piala-kelipatan/", "en")
    # Then it shows the leaders, and links the full standings
    assert '<table class="compact leaders">' in html
    assert 'data-testid="no-standings"' not in html
    assert f">{escape(leader.name)}</a></th>" in html
    # Match points as they need: 3, not 3.0000; Dedi's split (R20) as ½
    assert '<td class="num">3</td>' in html and '<td class="num">½</td>' in html
    assert 'href="/en/tournaments/piala-kelipatan/standings/"' in html


def test_tournament_page_says_why_its_standings_are_empty_before_any_result(
    client: Client, league_day: LeagueDay
) -> None:
    # Given a tournament whose standings were never computed
    assert not StandingsRow.objects.filter(standings__tournament=league_day.tournament).exists()
    # When its page is read in Indonesian, the empty section says why
    html = page(client, "/tournaments/piala-kelipatan/")
    assert (
        '<p data-testid="no-standings">Belum ada klasemen: klasemen muncul setelah hasil '
        "pertama tercatat.</p>"
    ) in html


def test_rules_in_force_give_the_match_points_by_placing_the_standings_count(
    client: Client, league_day: LeagueDay
) -> None:
    # Given a tournament silent on three-player tables, the standings' defaults are shown
    html = page(client, "/tournaments/piala-kelipatan/")
    assert "<dt>Poin pertandingan di meja tiga pemain</dt>" in html
    assert '<dd data-testid="placing-points">pertama 3, kedua 1, ketiga 0</dd>' in html
    assert "kalah 0, libur " in html
    # And once it gives its own, those
    league_day.tournament.placing_points_3 = [4, 1.5, 0]
    league_day.tournament.save(update_fields=["placing_points_3"])
    html = page(client, "/tournaments/piala-kelipatan/", "en")
    assert '<dd data-testid="placing-points">first 4, second 1½, third 0</dd>' in html
