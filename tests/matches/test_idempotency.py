"""``Idempotency-Key``: a resent request returns the first response and records nothing twice."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from league.models import Table
from matches.models import Hand, IdempotentRequest
from tests.matches.sheets import HAND_1, HAND_2, client_for, new_match, record


@pytest.mark.django_db
def test_a_resent_hand_returns_the_first_response_and_records_nothing_twice(
    api: APIClient, table: Table
) -> None:
    # given a hand sent with a key whose response the phone never saw
    match = new_match(api, table)
    first = record(api, match, HAND_1, **{"Idempotency-Key": "phone-1:hand-1"})
    assert first.status_code == 201
    # when the phone sends it again
    again = record(api, match, HAND_1, **{"Idempotency-Key": "phone-1:hand-1"})
    # then it gets the first response, not a 409, and one hand is stored
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(match_id=match["id"]).count() == 1


@pytest.mark.django_db
def test_a_resend_after_the_match_moved_on_still_gets_the_first_response(
    api: APIClient, table: Table
) -> None:
    match = new_match(api, table)
    first = record(api, match, HAND_1, **{"Idempotency-Key": "k1"})
    record(api, first.json(), HAND_2, **{"Idempotency-Key": "k2"})
    again = record(api, match, HAND_1, **{"Idempotency-Key": "k1"})
    assert again.status_code == 201
    assert again.json()["hands_count"] == 1
    assert Hand.objects.filter(match_id=match["id"]).count() == 2


@pytest.mark.django_db
def test_a_key_reused_for_a_different_request_is_refused(api: APIClient, table: Table) -> None:
    match = new_match(api, table)
    record(api, match, HAND_1, **{"Idempotency-Key": "same"})
    response = record(api, match, {**HAND_1, "scores": [[0, 5]]}, **{"Idempotency-Key": "same"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert Hand.objects.filter(match_id=match["id"]).count() == 1


@pytest.mark.django_db
def test_an_overlong_key_is_refused_in_the_error_envelope(api: APIClient, table: Table) -> None:
    match = new_match(api, table)
    response = record(api, match, HAND_1, **{"Idempotency-Key": "k" * 201})
    assert response.status_code == 400
    assert response.json()["ok"] is False
    assert response.json()["error"]["code"] == "bad_idempotency_key"
    assert Hand.objects.filter(match_id=match["id"]).count() == 0


@pytest.mark.django_db
def test_a_refused_request_is_not_remembered(api: APIClient, table: Table) -> None:
    match = new_match(api, table)
    bad = record(api, match, {**HAND_1, "scores": [[0, 12]]}, **{"Idempotency-Key": "fix-me"})
    assert bad.status_code == 400
    assert not IdempotentRequest.objects.exists()


@pytest.mark.django_db
def test_keys_belong_to_their_user(api: APIClient, table: Table, organiser: Any) -> None:
    match = new_match(api, table)
    record(api, match, HAND_1, **{"Idempotency-Key": "shared"})
    other = record(client_for(organiser), match, HAND_1, **{"Idempotency-Key": "shared"})
    assert other.status_code == 409  # not the scorekeeper's stored answer


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_copies_racing_each_other_store_one_hand_and_answer_alike(
    table: Table, scorekeeper: Any
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: concurrent writers on separate connections")
    match = new_match(client_for(scorekeeper), table)
    start = threading.Barrier(2)
    responses: list[Any] = []

    def send() -> None:
        try:
            start.wait()
            responses.append(
                record(client_for(scorekeeper), match, HAND_1, **{"Idempotency-Key": "twin"})
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.status_code for r in responses] == [201, 201]
    assert responses[0].json() == responses[1].json()
    assert Hand.objects.filter(match_id=match["id"]).count() == 1
