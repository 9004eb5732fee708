"""Asking for a pairing: the API and the admin both go through round_pair_request, so
they queue the same way and refuse with the same words."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

import pairing.admin
import pairing.api.views
from league.models import Round, Tournament
from league.roles import ORGANISERS_GROUP
from league.services.rounds import round_create, round_publish
from pairing.services.checks import round_pairable_check
from pairing.services.pairing import round_pair
from pairing.services.progress import round_pair_progress
from pairing.services.requests import round_pair_request
from tests.factories import UserFactory
from tests.pairing.conftest import tournament_with_entries

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


def _organiser(tournament: Tournament) -> Any:
    user = UserFactory(username="org", is_staff=True)
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    tournament.organisers.add(user)
    return user


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[tuple[int, int | None]]:
    calls: list[tuple[int, int | None]] = []

    def spy(*, round: Round, seed: int | None = None) -> None:
        calls.append((round.pk, seed))
        round_pair_request(round=round, seed=seed)

    monkeypatch.setattr(module, "round_pair_request", spy)
    return calls


def test_the_api_queues_through_round_pair_request(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Capture
) -> None:
    calls = _spy(monkeypatch, pairing.api.views)
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    api = APIClient()
    api.force_authenticate(_organiser(tournament))
    url = reverse("api-round-pair", kwargs={"round_id": round.pk})
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = api.post(url, {"seed": 5}, format="json")
    assert response.status_code == 202
    assert calls == [(round.pk, 5)]
    assert len(callbacks) == 1
    assert round_pair_progress(round_id=round.pk)["state"] == "queued"


def test_the_admin_queues_through_round_pair_request(
    client: Client, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Capture
) -> None:
    calls = _spy(monkeypatch, pairing.admin)
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    client.force_login(_organiser(tournament))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        client.post(reverse("admin:league_round_pairing_run", args=[round.pk]), {"seed": "7"})
    assert calls == [(round.pk, 7)]
    assert len(callbacks) == 1
    assert round_pair_progress(round_id=round.pk)["state"] == "queued"


def test_the_api_and_the_admin_refuse_a_published_round_with_the_same_words(
    client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    # Given a published round
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    round_publish(round=round)
    round.refresh_from_db()
    organiser = _organiser(tournament)
    with translation.override("en"), pytest.raises(ValidationError) as raised:
        round_pairable_check(round=round)
    refusal = raised.value.messages[0]
    # When pairing it is asked for through the API and through the admin
    api = APIClient()
    api.force_authenticate(organiser)
    client.force_login(organiser)
    url = reverse("api-round-pair", kwargs={"round_id": round.pk})
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = api.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
        page = client.post(
            reverse("admin:league_round_pairing_run", args=[round.pk]),
            HTTP_ACCEPT_LANGUAGE="en",
        )
    # Then both refuse with the service's words, and nothing is enqueued
    assert response.status_code == 400
    assert refusal in response.content.decode()
    assert any(refusal in str(m) for m in get_messages(page.wsgi_request))
    assert callbacks == []
