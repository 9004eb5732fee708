"""The organisers' admin of sign-up: scoped to the tournaments an organiser runs, its
actions calling the services, the sign-up settings saved through the service."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from entrants.models import Application, SignUp
from entrants.services.applications import application_approve, application_submit
from league.models import Membership
from league.services.clubs import membership_add
from tests.entrants.conftest import open_tournament
from tests.factories import ClubFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _organiser(username: str, club_name: str) -> tuple[Client, object]:
    club = ClubFactory(name=club_name)
    user = UserFactory(username=username, is_staff=True)
    membership_add(club=club, user=user, role=Membership.Role.ORGANISER)
    client = Client()
    client.force_login(user)
    return client, user


def _url(name: str, *args: object) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


def test_an_organiser_approves_their_own_tournaments_applications_only() -> None:
    tournament = open_tournament()
    client, user = _organiser("panitia", "Klub Lain")
    tournament.organisers.add(user)
    other = TournamentFactory(name="Piala Lain", slug="piala-lain")
    SignUp.objects.create(tournament=other, is_open=True)
    mine, _key = application_submit(tournament=tournament, name="Budi")
    theirs, _key = application_submit(tournament=other, name="Siti")
    page = client.get(_url("admin:entrants_application_changelist")).content.decode()
    assert "Budi" in page and "Siti" not in page
    response = client.post(
        _url("admin:entrants_application_changelist"),
        {"action": "approve", "_selected_action": [mine.pk, theirs.pk]},
    )
    assert response.status_code == 302
    assert Application.objects.get(pk=mine.pk).status == Application.Status.APPROVED
    assert Application.objects.get(pk=theirs.pk).status == Application.Status.PENDING


def test_a_refused_approval_is_shown_as_the_reason_not_an_error_page() -> None:
    tournament = open_tournament(cap=1, has_waiting_list=False)
    client, user = _organiser("panitia", "Klub Lain")
    tournament.organisers.add(user)
    first, _key = application_submit(tournament=tournament, name="Budi")
    second, _key = application_submit(tournament=tournament, name="Siti")
    client.post(
        _url("admin:entrants_application_changelist"),
        {"action": "approve", "_selected_action": [first.pk, second.pk]},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    page = client.get(_url("admin:entrants_application_changelist")).content.decode()
    assert "Every place is taken (1)" in page
    assert Application.objects.get(pk=second.pk).status == Application.Status.PENDING


def test_the_tournament_page_says_when_sign_ups_go_on_the_waiting_list() -> None:
    tournament = open_tournament(cap=1)
    first, _key = application_submit(tournament=tournament, name="Budi")
    application_approve(application=first)
    with translation.override("en"):
        url = tournament.get_absolute_url()
    page = Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "sign-ups go on the waiting list" in page
