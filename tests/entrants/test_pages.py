"""The players' pages: the sign-up form and its refusals (closed, rate limited, the
honeypot), and the private player link with check-in and "Turnamen saya"."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from entrants.models import Application, SignUp
from entrants.services.applications import application_approve, application_submit
from league.models import Tournament
from league.services.rounds import round_create, round_publish
from pairing.services.pairing import round_pair
from tests.entrants.conftest import open_tournament
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    cache.clear()
    yield
    cache.clear()


def _url(name: str, **kwargs: Any) -> str:
    with translation.override("en"):
        return reverse(name, kwargs=kwargs)


def _form(name: str = "Budi Santoso", **extra: str) -> dict[str, str]:
    return {"name": name, "listed_as": "name", "partner_listed_as": "name", **extra}


def test_the_tournament_page_offers_sign_up_while_it_is_open() -> None:
    tournament = open_tournament()
    client = Client()
    page = client.get(_url("league:tournament", slug=tournament.slug)).content.decode()
    assert _url("entrants:signup", slug=tournament.slug) in page
    SignUp.objects.filter(tournament=tournament).update(is_open=False)
    page = client.get(_url("league:tournament", slug=tournament.slug)).content.decode()
    assert _url("entrants:signup", slug=tournament.slug) not in page


def test_the_home_page_lists_the_tournaments_taking_sign_ups_in_indonesian() -> None:
    # Given no tournament taking sign-ups
    client = Client()
    # Then the home page says so, in Indonesian
    page = client.get("/").content.decode()
    assert '<h2 id="signups-h">Menerima pendaftaran</h2>' in page
    assert "Belum ada turnamen yang menerima pendaftaran." in page

    # When a tournament opens its sign-up, and another's is closed
    tournament = open_tournament()
    closed = TournamentFactory(name="Piala Tertutup", status=Tournament.Status.REGISTRATION)
    SignUp.objects.create(tournament=closed, is_open=False)

    # Then the home page's section links the open one to its page, and not the closed one
    page = client.get("/").content.decode()
    section = page.split('<section aria-labelledby="signups-h">', 1)[1].split("</section>", 1)[0]
    assert f'<a href="{tournament.get_absolute_url()}">Piala Terbuka</a>' in section
    assert closed.get_absolute_url() not in section
    assert "Belum ada turnamen" not in section


def test_signing_up_shows_the_private_link_once_and_it_opens_the_players_page() -> None:
    tournament = open_tournament()
    client = Client()
    response = client.post(_url("entrants:signup", slug=tournament.slug), _form())
    assert response.status_code == 302
    done = client.get(response["Location"]).content.decode()
    application = Application.objects.get()
    assert application.name == "Budi Santoso"
    link = done.split('data-testid="player-link">', 1)[1].split("<", 1)[0]
    assert "/p/" in link
    page = client.get(link.split("testserver", 1)[1]).content.decode()
    assert "waiting for the organiser" in page
    # another browser is not shown the link
    assert Client().get(response["Location"]).status_code == 302


def test_a_closed_sign_up_says_so_in_indonesian() -> None:
    tournament = open_tournament()
    SignUp.objects.filter(tournament=tournament).update(is_open=False)
    with translation.override("id"):
        url = reverse("entrants:signup", kwargs={"slug": tournament.slug})
    response = Client().post(url, _form())
    assert response.status_code == 403
    assert "Turnamen ini tidak menerima pendaftaran." in response.content.decode()
    assert not Application.objects.exists()


def test_the_honeypot_refuses_a_bot_and_stores_nothing() -> None:
    tournament = open_tournament()
    response = Client().post(
        _url("entrants:signup", slug=tournament.slug), _form(website="http://spam.example")
    )
    assert response.status_code == 400
    assert "could not be accepted" in response.content.decode()
    assert not Application.objects.exists()


@override_settings(SIGNUP_RATE_LIMIT=3)
def test_the_rate_limit_holds_per_address() -> None:
    tournament = open_tournament()
    url = _url("entrants:signup", slug=tournament.slug)
    client = Client(REMOTE_ADDR="203.0.113.9")
    for i in range(3):
        assert client.post(url, _form(f"Pemain {i}")).status_code == 302
    refused = client.post(url, _form("Pemain 4"))
    assert refused.status_code == 429
    assert "Too many sign-ups" in refused.content.decode()
    assert Application.objects.count() == 3
    # another address is not held back
    other = Client(REMOTE_ADDR="203.0.113.10")
    assert other.post(url, _form("Pemain 5")).status_code == 302


def test_a_bad_form_keeps_what_was_typed_and_says_what_is_wrong() -> None:
    tournament = open_tournament()
    response = Client().post(
        _url("entrants:signup", slug=tournament.slug),
        _form(nickname="", listed_as="nickname", email="budi@example.com"),
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "please give a nickname" in page
    assert 'value="budi@example.com"' in page


def test_the_player_checks_in_and_sees_the_table_and_the_scoring_link() -> None:
    tournament = open_tournament()
    keys = {}
    for name in ("Budi", "Siti"):
        application, key = application_submit(tournament=tournament, name=name)
        application_approve(application=application)
        keys[name] = key
    client = Client()
    player = _url("entrants:player", key=keys["Budi"])
    assert client.post(_url("entrants:player_check_in", key=keys["Budi"])).status_code == 302
    assert 'data-testid="checked-in"' in client.get(player).content.decode()
    client.post(_url("entrants:player_check_in", key=keys["Siti"]))
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    round_publish(round=round)
    page = client.get(player).content.decode()
    assert "Round 1: table 1, seat" in page
    assert "Siti" in page.split('data-testid="opponents"', 1)[1]
    assert 'data-testid="scoring-link"' in page
    link = page[: page.index('data-testid="scoring-link"')].rsplit('href="', 1)[1].split('"', 1)[0]
    opened = client.get(link)
    assert opened.status_code == 302 and "/score/" in opened["Location"]


def test_an_unknown_player_link_is_a_clear_404() -> None:
    response = Client().get(_url("entrants:player", key="not-a-key"))
    assert response.status_code == 404


def test_the_entry_card_shows_the_qr_code_of_the_player_link() -> None:
    tournament = open_tournament()
    _application, key = application_submit(tournament=tournament, name="Budi")
    page = Client().get(_url("entrants:player_card", key=key)).content.decode()
    assert 'src="data:image/svg+xml' in page and "Budi" in page
