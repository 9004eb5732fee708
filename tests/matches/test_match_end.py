"""When a match ends its table's result goes to league as plain values, and a dead broker
never loses it (the standings refresh catches up later)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from config.celery_app import app as celery_app
from league.models import Table, TableResult
from tests.matches.sheets import HAND_1, HAND_2, HAND_3, client_for, new_match, record, record_all


@pytest.fixture
def broker_down() -> Iterator[str]:
    """Real (not eager) Celery pointed at a port where nothing listens."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.broker_url
    conf.task_always_eager, conf.broker_url = False, f"redis://127.0.0.1:{port}/0"
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    try:
        yield conf.broker_url
    finally:
        conf.task_always_eager, conf.broker_url = saved
        celery_app._pool = None
        celery_app.amqp._producer_pool = None


@pytest.mark.django_db(transaction=True)
def test_the_result_is_saved_when_the_broker_is_down(
    broker_down: str, make_table: Any, scorekeeper: Any
) -> None:
    # given a match one hand from its end, and a broker that is down
    table = make_table()
    client = client_for(scorekeeper)
    match = record_all(client, new_match(client, table), [HAND_1, HAND_2])
    # when the winning hand is recorded (the standings refresh cannot be enqueued)
    response = record(client, match, HAND_3)
    # then the hand and the table's result are stored all the same
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "finished"
    assert TableResult.objects.filter(table=table).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


@pytest.mark.django_db
def test_a_three_player_table_reports_three_placings(api: APIClient, make_table: Any) -> None:
    table = make_table(players=3, target=30)
    match = new_match(api, table)
    hand = {"leader": 0, "scores": [[0, 10], [1, 5], [0, 20]], "end": {"target": True}}
    state = record(api, match, hand).json()
    assert state["winner"] == 0
    sides = {
        s.side: (s.placing, s.points_x2) for s in TableResult.objects.get(table=table).sides.all()
    }
    assert sides == {0: (1, 60), 1: (2, 10), 2: (3, 0)}


@pytest.mark.django_db
def test_a_tied_match_names_both_tied_sides_as_its_winner(api: APIClient, make_table: Any) -> None:
    # Given a three-player table to 50 where seats 0 and 1 reach 45 each
    table = make_table(players=3, target=50)
    first = {
        "leader": 0,
        "scores": [[0, 20], [1, 20], [0, 25], [1, 25]],
        "end": {"domino": 2},
        "left": {"0": 0, "1": 1},
    }
    # When a blocked hand's 20 points are split between them (R20), carrying both to 55
    blocked = {
        "leader": 2,
        "scores": [],
        "end": {"blocked": True},
        "left": {"0": 5, "1": 5, "2": 20},
    }
    state = record_all(api, new_match(api, table), [first, blocked])
    # Then the match is a tie and its winner lists both sides by name, as the verdict does
    assert state["is_tie"] is True
    assert state["winner"] == ["0", "1"] and "winners" not in state
    listed = api.get("/api/matches/").json()
    assert [m["winner"] for m in listed if m["id"] == state["id"]] == [["0", "1"]]
