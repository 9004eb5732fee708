"""Numbers and dates as people read them: a half point as 87½ in either language (as
the scoring page writes it), dates in the form of the page's language."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.league.site.conftest import LeagueDay

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_half_points_read_as_on_the_scoring_page_in_either_language(
    client: Client, league_day: LeagueDay, prefix: str
) -> None:
    html = client.get(f"{prefix}/tournaments/piala-kelipatan/rounds/1/").content.decode()
    assert "87½" in html and "87,5" not in html and "87.5" not in html


@pytest.mark.parametrize(("prefix", "date"), [("", "7 Nov. 2026"), ("/en", "Nov. 7, 2026")])
def test_dates_are_written_as_the_language_writes_them(
    client: Client, league_day: LeagueDay, prefix: str, date: str
) -> None:
    html = client.get(f"{prefix}/tournaments/piala-kelipatan/").content.decode()
    assert date in html


def test_match_points_with_halves_read_as_half_points_in_either_language(
    client: Client, league_day: LeagueDay
) -> None:
    tournament = league_day.tournament
    tournament.points_bye = tournament.points_win / 4  # 0.5
    tournament.save(update_fields=["points_bye"])
    indonesian = client.get("/tournaments/piala-kelipatan/").content.decode()
    english = client.get("/en/tournaments/piala-kelipatan/").content.decode()
    assert "libur ½" in indonesian and "0,5" not in indonesian
    assert "bye ½" in english and "0.5" not in english


def test_language_switch_returns_to_the_same_page_in_either_direction(
    client: Client, league_day: LeagueDay
) -> None:
    to_english = client.post(
        "/i18n/setlang/",
        {"language": "en", "next": "/tournaments/piala-kelipatan/"},
    )
    assert to_english["Location"] == "/en/tournaments/piala-kelipatan/"
    # The switch on an English page posts the page's address in the default language.
    english_page = client.get("/en/tournaments/piala-kelipatan/").content.decode()
    assert 'name="next" type="hidden" value="/tournaments/piala-kelipatan/"' in english_page
    to_indonesian = client.post(
        "/i18n/setlang/", {"language": "id", "next": "/tournaments/piala-kelipatan/"}
    )
    assert to_indonesian["Location"] == "/tournaments/piala-kelipatan/"
