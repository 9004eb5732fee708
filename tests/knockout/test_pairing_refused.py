"""A knockout round's tables come from its bracket: asking for it to be paired (again) is
refused on every path (the desk, the API, the admin's action) by ``round_pairable_check``,
in the user's language, and nothing is enqueued or changed."""

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

from knockout.services import bracket_create
from league.models import Round, Tournament
from league.roles import ORGANISERS_GROUP
from league.services.rounds import round_create
from pairing.services.checks import round_pair_refusal, round_pairable_check
from tests.factories import UserFactory
from tests.knockout.conftest import seeded_tournament

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


def _knockout_draft() -> tuple[Tournament, Round, Any]:
    """A tournament whose knockout's first round is drafted, and an organiser of it."""
    tournament = seeded_tournament(4)
    bracket_create(tournament=tournament, source="ratings")
    round = tournament.rounds.get()
    assert round.is_knockout and round.status == Round.Status.DRAFT
    organiser = UserFactory(username="panitia", is_staff=True)
    organiser.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    tournament.organisers.add(organiser)
    return tournament, round, organiser


def _seating(round: Round) -> list[list[int]]:
    return [
        [s.entry_id for s in t.seats.order_by("number")] for t in round.tables.order_by("number")
    ]


def _refusal(round: Round, language: str) -> str:
    with translation.override(language), pytest.raises(ValidationError) as raised:
        round_pairable_check(round=round)
    assert raised.value.code == "knockout_round"
    return raised.value.messages[0]


def test_the_desk_reads_the_pairing_services_refusal_for_a_knockout_round_only() -> None:
    # Given a knockout's drafted round and a Swiss draft round of another tournament
    _tournament, knockout, _organiser = _knockout_draft()
    swiss = round_create(tournament=seeded_tournament(4))
    # Then the knockout round is refused in the service's words, the Swiss round is not
    assert round_pair_refusal(round=knockout) == _refusal(knockout, "id")
    assert round_pair_refusal(round=swiss) is None


def test_the_api_refuses_pairing_a_knockout_round_in_the_users_language(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    # Given a knockout's drafted round and its organiser
    _tournament, round, organiser = _knockout_draft()
    seated = _seating(round)
    api = APIClient()
    api.force_authenticate(organiser)
    url = reverse("api-round-pair", kwargs={"round_id": round.pk})
    # When the organiser asks the API to pair it, in Indonesian and in English
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        indonesian = api.post(url, {}, format="json")
        english = api.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    # Then each is a 400 with the service's code and words, and nothing is enqueued
    for response, language in ((indonesian, "id"), (english, "en")):
        assert response.status_code == 400, language
        error = response.json()["error"]
        assert error["code"] == "knockout_round", language
        assert error["message"] == _refusal(round, language), language
    assert "bagan" in indonesian.json()["error"]["message"]
    assert callbacks == []
    assert _seating(round) == seated


def test_the_admins_pair_action_refuses_a_knockout_round(
    client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    # Given a knockout's drafted round and its organiser in the admin
    _tournament, round, organiser = _knockout_draft()
    seated = _seating(round)
    client.force_login(organiser)
    # The action's label says which rounds it pairs
    listing = client.get(reverse("admin:league_round_changelist"))
    assert "Pasangkan putaran yang dipilih (putaran draf di luar babak gugur)" in listing.text
    # When they run "Pair this round" on it
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("admin:league_round_changelist"),
            {"action": "pair", "_selected_action": [str(round.pk)]},
            follow=True,
        )
    # Then the admin says the service's refusal, and nothing is enqueued or changed
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert shown == [f"{round}: {_refusal(round, 'id')}"]
    assert callbacks == []
    assert _seating(round) == seated


def test_the_desks_pair_button_posted_anyway_is_refused_with_the_same_words(
    client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    # Given a knockout's drafted round and its organiser at the desk
    tournament, round, organiser = _knockout_draft()
    seated = _seating(round)
    client.force_login(organiser)
    # When a stale page posts the desk's pair button for it
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("desk:pair", args=[tournament.slug]), {"round": round.number}, follow=True
        )
    # Then the desk shows the service's refusal, and nothing is enqueued or changed
    assert [str(m) for m in response.context["messages"]] == [_refusal(round, "id")]
    assert callbacks == []
    assert _seating(round) == seated


def test_the_admins_round_page_offers_no_pairing_of_a_knockout_round(client: Client) -> None:
    # Given a knockout's drafted round, a Swiss draft of another tournament, and their
    # organiser in the admin
    tournament, round, organiser = _knockout_draft()
    swiss_tournament = seeded_tournament(4)
    swiss_tournament.organisers.add(organiser)
    swiss = round_create(tournament=swiss_tournament)
    client.force_login(organiser)
    # When they open each round's page
    knockout_page = client.get(reverse("admin:league_round_change", args=[round.pk]))
    swiss_page = client.get(reverse("admin:league_round_change", args=[swiss.pk]))
    # Then the knockout round says why it is not paired where the button would be, and
    # the Swiss draft keeps its button
    assert knockout_page.status_code == swiss_page.status_code == 200
    assert 'class="pairing-run"' not in knockout_page.content.decode()
    assert knockout_page.context["pairing_refusal"] == _refusal(round, "id")
    assert 'data-testid="pairing-refused"' in knockout_page.content.decode()
    assert 'class="pairing-run"' in swiss_page.content.decode()
    assert swiss_page.context["pairing_refusal"] is None
    assert tournament.pk != swiss_tournament.pk
