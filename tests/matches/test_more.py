"""Opponents' confirmation, friendly matches, the admin and the idempotency purge."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from league.models import RuleSet, Table, TableResult
from matches.models import Hand, IdempotentRequest, Match
from matches.services.lifecycle import match_for_table
from matches.tasks import idempotent_requests_purge_task
from tests.factories import PlayerFactory, RuleSetFactory, UserFactory
from tests.matches.sheets import (
    HAND_1,
    HAND_2,
    HAND_3,
    client_for,
    match_url,
    new_match,
    record,
    record_all,
)

pytestmark = pytest.mark.django_db


def confirm(client: APIClient, state: dict[str, Any], number: int) -> Any:
    """The opponents confirm: another account than the one that recorded the hand."""
    opponent = UserFactory(username=f"lawan-{state['id']}-{number}")
    Table.objects.get(pk=state["table"]).round.tournament.scorekeepers.add(opponent)
    client = client_for(opponent)
    return client.post(
        match_url(state["id"], f"hands/{number}/confirm"),
        {"version": state["version"]},
        format="json",
    )


def test_with_confirmation_the_next_hand_waits_for_the_opponents(
    api: APIClient, table: Table
) -> None:
    tournament = table.round.tournament
    tournament.requires_confirmation = True
    tournament.save()
    state = record_all(api, new_match(api, table), [HAND_1])
    assert state["hands"][0]["is_confirmed"] is False
    refused = record(api, state, HAND_2)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "hand_unconfirmed"
    own = api.post(match_url(state["id"], "hands/1/confirm"), {"version": state["version"]})
    assert own.status_code == 400  # the recorder never confirms its own hand
    assert own.json()["error"]["code"] == "own_hand"
    state = confirm(api, state, 1).json()
    assert state["hands"][0]["is_confirmed"] is True
    assert record(api, state, HAND_2).status_code == 201


def test_with_confirmation_the_result_counts_once_the_last_hand_is_confirmed(
    api: APIClient, table: Table
) -> None:
    tournament = table.round.tournament
    tournament.requires_confirmation = True
    tournament.save()
    state = new_match(api, table)
    for number, hand in enumerate([HAND_1, HAND_2, HAND_3], start=1):
        state = record(api, state, hand).json()
        if number < 3:
            state = confirm(api, state, number).json()
    assert state["winner"] == 0
    assert state["status"] == "playing"
    assert not TableResult.objects.filter(table=table).exists()
    state = confirm(api, state, 3).json()
    assert state["status"] == "finished"
    assert TableResult.objects.filter(table=table).exists()


def test_a_friendly_match_between_registered_players(scorekeeper: Any) -> None:
    client = APIClient()
    client.force_authenticate(user=scorekeeper)
    players = [PlayerFactory() for _ in range(3)]
    rule_set: RuleSet = RuleSetFactory(target_3=40)
    response = client.post(
        "/api/matches/",
        {"players": [p.pk for p in players], "rule_set": rule_set.pk},
        format="json",
    )
    assert response.status_code == 201, response.content
    state = response.json()
    assert (state["table"], state["players"], state["target"]) == (None, 3, 40)
    assert [s["player"] for s in state["seats"]] == [p.pk for p in players]
    hand = {"leader": 0, "scores": [[0, 20], [0, 20]], "end": {"target": True}}
    finished = record(client, state, hand).json()
    assert finished["status"] == "finished"
    other = APIClient()
    other.force_authenticate(user=UserFactory())
    assert record(other, finished, hand).status_code == 403


def test_a_table_match_cannot_be_created_by_someone_who_does_not_score_it(
    table: Table, stranger: Any
) -> None:
    client = APIClient()
    client.force_authenticate(user=stranger)
    assert client.post("/api/matches/", {"table": table.pk}, format="json").status_code == 403
    assert not Match.objects.exists()


def test_the_admin_shows_matches_read_only(table: Table) -> None:
    match = match_for_table(table=table)
    admin_user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin_user)
    listing = client.get("/en/admin/matches/match/")
    assert listing.status_code == 200
    assert f"/matches/{match.pk}/score/" in listing.content.decode()
    assert client.get("/en/admin/matches/hand/add/").status_code == 403


def test_old_idempotency_keys_are_purged(api: APIClient, table: Table) -> None:
    state = new_match(api, table)
    record(api, state, HAND_1, **{"Idempotency-Key": "old"})
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(days=3))
    assert idempotent_requests_purge_task() == 1
    assert not IdempotentRequest.objects.exists()
    assert Hand.objects.count() == 1


def test_the_history_is_for_scorekeepers_only(api: APIClient, table: Table) -> None:
    state = record_all(api, new_match(api, table), [HAND_1])
    assert api.get(match_url(state["id"], "history")).status_code == 200
    assert APIClient().get(match_url(state["id"], "history")).status_code in (401, 403)


MISSING = object()


@pytest.mark.parametrize(
    "given", ["allfives/99", "allfives/2", 123, None, "", ["allfives/1"], MISSING]
)
def test_an_imported_scoresheet_in_another_format_is_refused_and_changes_nothing(
    api: APIClient, table: Table, given: object
) -> None:
    # Given a match with one hand, and a scoresheet whose format is not allfives/1
    state = record_all(api, new_match(api, table), [HAND_1])
    document: dict[str, Any] = {"players": 4, "hands": [HAND_1, HAND_2]}
    if given is not MISSING:
        document["format"] = given
    before = api.get(match_url(state["id"], "scoresheet")).json()
    # When it is posted to replace the match's hands
    response = api.post(
        match_url(state["id"], f"scoresheet?version={state['version']}"), document, format="json"
    )
    # Then it is refused with bad_format, and the match is as it was
    assert response.status_code == 400, response.content
    assert response.json()["ok"] is False
    assert response.json()["error"]["code"] == "bad_format"
    after = api.get(match_url(state["id"])).json()
    assert after["version"] == state["version"]
    assert after["hands_count"] == 1
    assert api.get(match_url(state["id"], "scoresheet")).json() == before
    assert Hand.objects.filter(match_id=state["id"]).count() == 1


def test_posting_a_scoresheet_over_existing_hands_needs_the_version(
    api: APIClient, table: Table
) -> None:
    state = record_all(api, new_match(api, table), [HAND_1])
    document = {"format": "allfives/1", "players": 4, "hands": [HAND_1, HAND_2]}
    refused = api.post(match_url(state["id"], "scoresheet"), document, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "match_has_hands"
    replaced = api.post(
        match_url(state["id"], f"scoresheet?version={state['version']}"), document, format="json"
    )
    assert replaced.status_code == 201, replaced.content
    assert replaced.json()["hands_count"] == 2
    assert replaced.json()["totals"] == {"0": 45, "1": 15}
