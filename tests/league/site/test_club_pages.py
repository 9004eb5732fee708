"""The clubs on the public site: a club's page (its seasons, public tournaments and
players with their ratings, never a contact detail), the clubs on the home page, and the
tournaments list narrowed to one club by its links — in Indonesian and English."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client

from league.models import Club, Player, Season, Tournament
from ratings.models import PlayerRating
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@dataclass
class TwoClubs:
    host: Club
    other: Club
    season: Season
    open_cup: Tournament
    draft: Tournament
    away: Tournament
    rated: Player
    new: Player


@pytest.fixture
def two_clubs() -> TwoClubs:
    host = ClubFactory(name="Klub Merdeka", city="Surabaya")
    other = ClubFactory(name="Spinner Malang", city="Malang")
    season = SeasonFactory(club=host, name="Musim Kemarau 2026", slug="musim-kemarau-2026")
    open_cup = TournamentFactory(season=season, name="Piala Merdeka", slug="piala-merdeka")
    draft = TournamentFactory(
        season=season, name="Rahasia", slug="rahasia", status=Tournament.Status.DRAFT
    )
    away = TournamentFactory(
        season=SeasonFactory(club=other), name="Malam Malang", slug="malam-malang"
    )
    rated = PlayerFactory(
        home_club=host, name="Dewi Lestari", email="dewi@example.org", phone="081234567"
    )
    PlayerRating.objects.create(player=rated, mu=31.0, sigma=2.0, display=25.04, matches_count=7)
    new = PlayerFactory(home_club=host, name="Budi Santoso")
    PlayerFactory(home_club=other, name="Sari Malang")
    return TwoClubs(host, other, season, open_cup, draft, away, rated, new)


def page(client: Client, url: str, language: str) -> str:
    response = client.get(("" if language == "id" else "/en") + url)
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.mark.parametrize("language", ["id", "en"])
def test_club_page_shows_its_seasons_public_tournaments_and_rated_players(
    client: Client, two_clubs: TwoClubs, language: str
) -> None:
    html = page(client, two_clubs.host.get_absolute_url().removeprefix("/en"), language)
    assert f'<html lang="{language}">' in html
    assert "Klub Merdeka" in html and "Surabaya" in html
    assert 'href="' in html and "Musim Kemarau 2026" in html
    assert "Piala Merdeka" in html
    assert "Rahasia" not in html  # a draft stays private
    assert "Malam Malang" not in html and "Sari Malang" not in html  # another club's
    assert "Dewi Lestari" in html and "Budi Santoso" in html
    rating = "25,0" if language == "id" else "25.0"
    assert f"<td>{rating}</td>" in html
    assert "dewi@example.org" not in html and "081234567" not in html


def test_club_page_in_indonesian_has_no_english_headings(
    client: Client, two_clubs: TwoClubs
) -> None:
    html = page(client, "/clubs/klub-merdeka/", "id")
    for english in ("Seasons", "Players", "Matches", "All tournaments of"):
        assert f">{english}" not in html, english
    assert "Semua turnamen Klub Merdeka" in html


def test_unknown_club_is_not_found(client: Client, two_clubs: TwoClubs) -> None:
    assert client.get("/clubs/tidak-ada/").status_code == 404


@pytest.mark.parametrize("language", ["id", "en"])
def test_home_page_links_every_club(client: Client, two_clubs: TwoClubs, language: str) -> None:
    html = page(client, "/", language)
    prefix = "" if language == "id" else "/en"
    assert f'href="{prefix}/clubs/klub-merdeka/">Klub Merdeka</a>' in html
    assert f'href="{prefix}/clubs/spinner-malang/">Spinner Malang</a>' in html


@pytest.mark.parametrize("language", ["id", "en"])
def test_tournament_list_is_narrowed_to_a_club_by_its_link(
    client: Client, two_clubs: TwoClubs, language: str
) -> None:
    # Given the list of every tournament, which links each club's own list
    prefix = "" if language == "id" else "/en"
    everything = page(client, "/tournaments/", language)
    assert "Piala Merdeka" in everything and "Malam Malang" in everything
    link = f'href="{prefix}/tournaments/?club=spinner-malang">Spinner Malang</a>'
    assert link in everything
    # When the club's link is followed
    narrowed = page(client, "/tournaments/?club=spinner-malang", language)
    # Then only that club's public tournaments are listed, with a way back to all
    assert "Malam Malang" in narrowed and "Piala Merdeka" not in narrowed
    assert f'href="{prefix}/tournaments/">' in narrowed
    assert 'aria-current="page">Spinner Malang</strong>' in narrowed


def test_tournament_list_with_an_unknown_club_lists_every_tournament(
    client: Client, two_clubs: TwoClubs
) -> None:
    html = page(client, "/tournaments/?club=tidak-ada", "id")
    assert "Piala Merdeka" in html and "Malam Malang" in html


def test_tournament_and_player_pages_link_the_host_and_home_club(
    client: Client, two_clubs: TwoClubs
) -> None:
    tournament = page(client, "/tournaments/piala-merdeka/", "id")
    assert 'href="/clubs/klub-merdeka/">Klub Merdeka</a>' in tournament
    player = page(client, two_clubs.rated.get_absolute_url(), "id")
    assert 'href="/clubs/klub-merdeka/">Klub Merdeka</a>' in player


def test_club_get_absolute_url_names_its_page(two_clubs: TwoClubs) -> None:
    assert two_clubs.host.get_absolute_url() == "/clubs/klub-merdeka/"
