"""Two scorekeepers writing the same match at once can never both win.

Every write carries the match's version; a stale one gets HTTP 409 with the current
state. The sequential case runs on SQLite and PostgreSQL; the race of 50 real
threads needs PostgreSQL's row locks and concurrent connections.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from league.models import Table
from matches.models import Hand, Match
from tests.matches.sheets import HAND_1, HAND_2, client_for, match_url, new_match, record, tally


@pytest.mark.django_db
def test_a_write_based_on_a_stale_version_gets_409_with_the_current_state(
    api: APIClient, table: Table, organiser: Any
) -> None:
    # given two scorekeepers who loaded the same version of the match
    match = new_match(api, table)
    other = client_for(organiser)
    # when both record hand 1
    first = record(api, match, HAND_1)
    second = record(other, match, {**HAND_1, "scores": [[0, 5]]})
    # then only the first is stored; the second sees the match as it now stands
    assert first.status_code == 201
    assert second.status_code == 409
    body = second.json()
    assert body["ok"] is False
    assert body["error"]["code"] == "stale_version"
    assert body["error"]["version"] == first.json()["version"]
    assert body["match"]["hands"][0]["entry"] == HAND_1
    assert Hand.objects.filter(match_id=match["id"]).count() == 1


@pytest.mark.django_db
def test_a_stale_correction_gets_409_and_changes_nothing(api: APIClient, table: Table) -> None:
    match = new_match(api, table)
    after_1 = record(api, match, HAND_1).json()
    record(api, after_1, HAND_2)
    response = api.put(
        match_url(match["id"], "hands/1"),
        {"version": after_1["version"], "hand": {**HAND_1, "scores": [[0, 5]]}},
        format="json",
    )
    assert response.status_code == 409
    assert Hand.objects.get(match_id=match["id"], number=1).entry == HAND_1


WRITERS = 50


def _blocked_hand(writer: int) -> dict[str, Any]:
    """A blocked hand nobody scores in (equal sides), told apart by its pips."""
    pips = writer + 1
    return tally(writer % 4, [], {"blocked": True}, {"0": pips, "1": pips, "2": 1, "3": 1})


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_fifty_concurrent_writers_store_exactly_one_hand_per_accepted_request(
    make_table: Any, scorekeeper: Any
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite serialises writers, there is no race to test")
    # given a match far from its target and 50 scorekeepers' phones
    table = make_table(target=10_000)
    match_id = new_match(client_for(scorekeeper), table)["id"]
    start = threading.Barrier(WRITERS)
    accepted: list[tuple[int, int]] = []  # (writer, version after the write)
    statuses: Counter[int] = Counter()
    first_round: Counter[int] = Counter()
    failures: list[str] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        client = client_for(scorekeeper)
        try:
            state = client.get(match_url(match_id)).json()
            start.wait()  # everyone has read version 0 before anyone writes
            for attempt in range(WRITERS * 4):
                response = record(client, state, _blocked_hand(n))
                with lock:
                    statuses[response.status_code] += 1
                    if attempt == 0:
                        first_round[response.status_code] += 1
                if response.status_code == 201:
                    with lock:
                        accepted.append((n, response.json()["version"]))
                    return
                if response.status_code != 409:
                    with lock:
                        failures.append(f"writer {n}: {response.status_code} {response.content!r}")
                    return
                state = response.json()["match"]  # the 409 carries the current state
            with lock:
                failures.append(f"writer {n} never got through")
        finally:
            connection.close()

    # when all of them record a hand at the same moment, retrying on 409
    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then every accepted request stored exactly one hand: none lost, none duplicated
    assert failures == []
    assert first_round[201] == 1, "of writers based on one version exactly one wins"
    assert first_round[409] == WRITERS - 1
    assert len(accepted) == WRITERS
    hands = list(Hand.objects.filter(match_id=match_id).order_by("number"))
    assert [h.number for h in hands] == list(range(1, WRITERS + 1))
    stored_writers = Counter(int(h.entry["left"]["0"]) - 1 for h in hands)
    assert stored_writers == Counter(n for n, _ in accepted)
    assert all(count == 1 for count in stored_writers.values())
    versions = [v for _, v in accepted]
    assert len(set(versions)) == WRITERS
    assert Match.objects.get(pk=match_id).version == max(versions) == WRITERS
    assert statuses[201] == WRITERS
