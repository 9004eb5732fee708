"""Pairings in the API: a round's draw (public once published), running the pairing
(organisers of the tournament only, 202 with a progress URL) and its progress."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.models import Round, Tournament
from league.services.rounds import round_create, round_publish
from pairing.services.pairing import round_pair
from tests.factories import UserFactory
from tests.pairing.conftest import seating, tournament_with_entries

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


def _client(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _organiser(tournament: Tournament) -> Any:
    user = UserFactory()
    tournament.organisers.add(user)
    return user


def _draw_url(round: Round) -> str:
    return reverse("api-round-draw", kwargs={"round_id": round.pk})


def _pair_url(round: Round) -> str:
    return reverse("api-round-pair", kwargs={"round_id": round.pk})


def test_public_sees_a_draw_only_once_the_round_is_published() -> None:
    # Given a paired draft round
    tournament = tournament_with_entries(5)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    # When the public asks for it, then it does not exist for them
    assert _client().get(_draw_url(round)).status_code == 404
    # And once published, the draw is there with its report, costs and bye
    round_publish(round=round)
    body = _client().get(_draw_url(round)).json()
    assert body["status"] == "published"
    assert body["quality"]["table_count"] == 2
    assert body["quality"]["bye_count"] == 1
    assert [len(t["seats"]) for t in body["tables"]] == [2, 2]
    assert {"score_gap", "rematches", "partner_repeats"} <= set(body["tables"][0]["cost"])
    assert len(body["byes"]) == 1
    assert body["warnings"] == []


def test_organiser_sees_the_draft_with_its_warnings() -> None:
    # Given a draft round whose bye was taken away by hand
    tournament = tournament_with_entries(3)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    round.byes.clear()
    # When its organiser reads the draw, then the unseated entrant is warned about
    body = _client(_organiser(tournament)).get(_draw_url(round)).json()
    assert [w["code"] for w in body["warnings"]] == ["unseated"]
    assert body["warnings"][0]["is_blocking"] is False


def test_organiser_runs_pairing_and_follows_its_progress(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    # Given an organiser and a draft round of six
    tournament = tournament_with_entries(6)
    client = _client(_organiser(tournament))
    round = round_create(tournament=tournament)
    # When they ask for pairing with a seed
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(_pair_url(round), {"seed": 31}, format="json")
    # Then the answer is 202 with where to follow it, and the task ran after commit
    assert response.status_code == 202
    progress_url = response.json()["progress_url"]
    assert response["Location"] == progress_url
    assert len(callbacks) == 1
    progress = client.get(progress_url).json()
    assert progress["state"] == "done" and progress["done"] == progress["total"] == 8
    assert len(seating(round)) == 3
    round.refresh_from_db()
    assert round.pairing_seed == 31


def test_pairing_a_published_round_is_refused_in_the_error_envelope(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    round_publish(round=round)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = _client(_organiser(tournament)).post(_pair_url(round), {}, format="json")
    assert response.status_code == 400
    assert response.json()["ok"] is False
    assert callbacks == []


def test_organiser_of_another_tournament_is_refused(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    # Given a draft and a published round of a tournament I do not organise
    theirs = tournament_with_entries(4)
    draft = round_create(tournament=theirs)
    published = round_create(tournament=theirs)
    round_pair(round=published, seed=1)
    round_publish(round=published)
    me = _organiser(tournament_with_entries(2))
    # When I ask to pair either, then the draft does not exist for me and the published
    # one is forbidden; nothing is enqueued
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert _client(me).post(_pair_url(draft), {}, format="json").status_code == 404
        assert _client(me).post(_pair_url(published), {}, format="json").status_code == 403
    assert callbacks == []


def test_anonymous_cannot_run_pairing() -> None:
    round = round_create(tournament=tournament_with_entries(2))
    assert _client().post(_pair_url(round), {}, format="json").status_code == 401


def test_an_unreachable_task_queue_is_reported_instead_of_queued_for_ever(
    django_capture_on_commit_callbacks: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a broker that refuses every task
    from pairing.tasks import round_pair_task

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(round_pair_task, "apply_async", refuse)
    tournament = tournament_with_entries(4)
    client = _client(_organiser(tournament))
    round = round_create(tournament=tournament)
    # When an organiser asks for pairing
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_pair_url(round), {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    # Then the request still answers, and the progress says the queue was unreachable
    assert response.status_code == 202
    progress = client.get(response.json()["progress_url"], HTTP_ACCEPT_LANGUAGE="en").json()
    assert progress["state"] == "failed"
    assert "queue" in progress["message"]
