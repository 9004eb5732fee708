"""A dead or silent broker never loses a request's database write nor hangs it for minutes.

With Celery's defaults a silent Redis blocks ``.delay()`` for minutes; our settings
cap the connection and socket timeouts and the publish retries, so enqueueing fails
within seconds and the transaction's write is kept.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from celery import shared_task
from django.db import transaction

from config.celery_app import app as celery_app
from league.dispatch import task_enqueue_on_commit
from league.models import Player
from league.services.registration import player_create
from tests.faults.conftest import silent_port

FAIL_FAST_SECONDS = 15  # "seconds, not minutes": Celery's defaults take minutes here


@shared_task(name="tests.broker_down.noop")
def noop_task(value: int) -> int:
    return value


@pytest.fixture
def silent_broker() -> Iterator[str]:
    """A TCP server that accepts connections and never answers (a hung Redis)."""
    with silent_port() as port:
        yield f"redis://127.0.0.1:{port}/0"


def _unreachable_broker() -> str:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now: connections are refused
    return f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def broker_down(request: pytest.FixtureRequest, silent_broker: str) -> Iterator[str]:
    """A real (not eager) Celery pointed at a broker that is down, restored afterwards."""
    broker = _unreachable_broker() if request.param == "unreachable" else silent_broker
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.broker_url
    conf.task_always_eager, conf.broker_url = False, broker
    # fresh connection and producer pools, built for this broker
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    try:
        yield broker
    finally:
        conf.task_always_eager, conf.broker_url = saved
        celery_app._pool = None
        celery_app.amqp._producer_pool = None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("broker_down", ["unreachable", "silent"], indirect=True)
def test_enqueue_with_broker_down_fails_fast_and_keeps_the_write(broker_down: str) -> None:
    failures: list[str] = []

    # When a request writes a row and enqueues a task after commit
    started = time.monotonic()
    with transaction.atomic():
        player_create(name="Siti Rahma")
        task_enqueue_on_commit(noop_task, 1, on_failure=lambda: failures.append("dirty"))
    elapsed = time.monotonic() - started

    # Then the enqueue failed within seconds, was reported, and the write is kept
    assert failures == ["dirty"]
    assert elapsed < FAIL_FAST_SECONDS, f"enqueue took {elapsed:.1f}s"
    assert Player.objects.filter(name="Siti Rahma").exists()
