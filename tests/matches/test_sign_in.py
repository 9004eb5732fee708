"""Sign-in for everyone who is not an organiser: the site's own login, logout and
password-reset pages, then "My tables" and the round page's button to a table's
scoring page, reached by links alone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from league.models import Round
from tests.factories import (
    EntryFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

PASSWORD = "meja-tiga-kelipatan"


def _scorekeeper_table(*, status: str = Round.Status.PUBLISHED) -> tuple[Any, Any]:
    user = UserFactory(username="pencatat", email="pencatat@example.org", is_staff=False)
    user.set_password(PASSWORD)
    user.save()
    tournament = TournamentFactory(name="Piala Meja", slug="piala-meja")
    tournament.scorekeepers.add(user)
    table = TableFactory(round=RoundFactory(tournament=tournament, status=status), player_count=2)
    for number, name in enumerate(["Budi", "Siti"]):
        SeatFactory(
            table=table, number=number, entry=EntryFactory(tournament=tournament, player__name=name)
        )
    return user, table


def _links(html: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', html)


def test_a_non_staff_scorekeeper_signs_in_on_the_site_and_lands_on_my_tables() -> None:
    # given a scorekeeper who is not staff
    _user, table = _scorekeeper_table()
    client = Client()
    # when they follow "Sign in" from the home page and sign in
    home = client.get("/").content.decode()
    login_url = next(link for link in _links(home) if link.startswith("/account/login/"))
    page = client.get(login_url)
    assert page.status_code == 200
    assert "Masuk" in page.content.decode()
    response = client.post(login_url, {"username": "pencatat", "password": PASSWORD})
    # then they land on "My tables", which lists the table with its button
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:my_tables")
    tables = client.get(response["Location"]).content.decode()
    assert "Meja saya" in tables
    assert "Budi" in tables and "Siti" in tables
    score_url = reverse("matches:table_scorekeeper", args=[table.pk])
    assert score_url in _links(tables)
    assert "Catat skor" in tables
    # and the button opens the table's scoring page
    scoring = client.get(score_url, follow=True)
    assert scoring.status_code == 200
    assert 'data-testid="save"' in scoring.content.decode()


def test_the_header_links_to_my_tables_only_when_signed_in() -> None:
    user, _table = _scorekeeper_table()
    assert reverse("matches:my_tables") not in _links(Client().get("/").content.decode())
    client = Client()
    client.force_login(user)
    assert reverse("matches:my_tables") in _links(client.get("/").content.decode())


def test_my_tables_leaves_out_draft_rounds() -> None:
    user, table = _scorekeeper_table(status=Round.Status.DRAFT)
    client = Client()
    client.force_login(user)
    html = client.get(reverse("matches:my_tables")).content.decode()
    assert reverse("matches:table_scorekeeper", args=[table.pk]) not in html
    assert "Budi" not in html


def test_the_round_page_shows_the_score_button_to_a_scorekeeper_only() -> None:
    user, table = _scorekeeper_table()
    url = reverse("league:round", args=["piala-meja", table.round.number])
    target = reverse("matches:table_scorekeeper", args=[table.pk])
    assert target not in _links(Client().get(url).content.decode())
    client = Client()
    client.force_login(user)
    assert target in _links(client.get(url).content.decode())


def test_a_wrong_password_is_refused_in_indonesian() -> None:
    _scorekeeper_table()
    response = Client().post(reverse("login"), {"username": "pencatat", "password": "salah-sekali"})
    assert response.status_code == 200
    assert "benar" in response.content.decode()  # "… nama pengguna dan sandi yang benar"
    assert "staf" not in response.content.decode()


def test_signing_out_is_a_post_from_the_header() -> None:
    user, _table = _scorekeeper_table()
    client = Client()
    client.force_login(user)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_a_password_reset_mail_carries_a_link_that_sets_a_new_password() -> None:
    # given a scorekeeper who forgot their password
    _scorekeeper_table()
    client = Client()
    # when they ask for a reset from the sign-in page
    login = client.get(reverse("login")).content.decode()
    reset_url = next(link for link in _links(login) if "password_reset" in link or "reset" in link)
    response = client.post(reset_url, {"email": "pencatat@example.org"})
    assert response.status_code == 302
    # then a mail in Indonesian holds a link that lets them choose a new password
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    assert "sandi" in body.lower()
    link = re.search(r"http://testserver(/\S+)", body)
    assert link is not None
    form = client.get(link.group(1), follow=True)
    assert form.status_code == 200
    done = client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link.group(1),
        {"new_password1": "sandi-baru-kelipatan-5", "new_password2": "sandi-baru-kelipatan-5"},
    )
    assert done.status_code == 302
    assert Client().login(username="pencatat", password="sandi-baru-kelipatan-5")


def test_the_sign_in_page_is_in_english_under_the_english_prefix() -> None:
    html = Client().get("/en/account/login/").content.decode()
    assert "Sign in" in html
    assert "Masuk" not in html
