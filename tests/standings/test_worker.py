"""A real Celery worker, fed through real Redis, refreshes the standings after a burst
of results, and coalesces it: twelve results are computed once or twice, not twelve
times. Skipped without ``REDIS_URL``."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connections

from config.celery_app import app as celery_app
from standings.models import Standings
from tests.standings.conftest import League

REDIS_URL = os.environ.get("REDIS_URL", "")

# Decided before any database is set up, so a skipped test flushes nothing; the
# serialized rollback keeps the initial data (groups) in place for later tests.
pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(
        not REDIS_URL, reason="needs a real Redis broker: set REDIS_URL (redis://127.0.0.1:6379/15)"
    ),
    pytest.mark.django_db(transaction=True),
]
DEADLINE_SECONDS = 30


@pytest.fixture
def worker() -> Iterator[Any]:
    """A worker thread consuming a queue of its own on the configured Redis."""
    conf = celery_app.conf
    queue = f"standings-test-{uuid.uuid4().hex[:8]}"
    saved = conf.task_always_eager, conf.broker_url, conf.task_default_queue
    conf.task_always_eager, conf.broker_url, conf.task_default_queue = False, REDIS_URL, queue
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    try:
        with start_worker(
            celery_app, perform_ping_check=False, queues=[queue], shutdown_timeout=20
        ) as running:
            yield running
    finally:
        conf.task_always_eager, conf.broker_url, conf.task_default_queue = saved
        celery_app._pool = None
        celery_app.amqp._producer_pool = None
        connections.close_all()


def wait_until_fresh(league: League) -> Standings:
    """Poll the database until the worker has stored the newest version (or time out)."""
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        standings = Standings.objects.get(tournament=league.tournament)
        if standings.computed_at is not None and not standings.is_dirty:
            return standings
        time.sleep(0.1)
    raise AssertionError(f"standings still dirty after {DEADLINE_SECONDS}s: {standings!r}")


def test_a_real_worker_refreshes_a_burst_of_results_once_or_twice(
    league: League, worker: Any
) -> None:
    entries = [league.entry(f"P{n:02}") for n in range(24)]
    # Twelve tables finish within a second or two; each commit enqueues (or coalesces).
    for n in range(12):
        league.play(1, entries[2 * n : 2 * n + 2], [250, 10 * n])
    standings = wait_until_fresh(league)

    assert standings.requested_version == 12
    assert 1 <= standings.computed_count <= 2
    rows = list(standings.rows.order_by("position"))
    assert len(rows) == 24
    assert sum(row.match_points for row in rows) == 24
    assert rows[0].match_points == 2 and rows[-1].match_points == 0
