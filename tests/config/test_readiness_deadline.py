"""/readyz runs its checks side by side under one deadline: however many dependencies are
silent, it answers once the deadline passes, not after the sum of their timeouts, and a
check still stuck from an earlier probe is reported, not started a second time."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from config import health

DEADLINE = 0.5


@pytest.fixture
def stuck_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The database and the broker checks hang until the test ends."""
    release = threading.Event()

    def stuck() -> dict[str, Any]:
        release.wait()
        return {"ok": True}

    monkeypatch.setattr(health, "READINESS_DEADLINE", DEADLINE)
    monkeypatch.setattr(health, "_database_check", stuck)
    monkeypatch.setattr(health, "_broker_check", stuck)
    yield
    release.set()
    for thread in threading.enumerate():
        if thread.name.startswith("readyz-"):
            thread.join()


def _timed_readyz(client: Client) -> tuple[dict[str, Any], int, float]:
    started = time.monotonic()
    response = client.get("/readyz")
    return response.json(), response.status_code, time.monotonic() - started


def test_two_silent_dependencies_cost_one_deadline_not_two(
    client: Client, stuck_checks: None
) -> None:
    # Given a database and a broker that both never answer
    # When the readiness probe is asked
    body, status, seconds = _timed_readyz(client)
    # Then it answers 503 naming both, once the one deadline has passed
    assert status == 503
    assert body["checks"]["database"]["error"] == "timeout"
    assert body["checks"]["broker"]["error"] == "timeout"
    assert body["checks"]["cache"]["ok"] is True
    assert DEADLINE <= seconds < 2 * DEADLINE, f"{seconds:.2f}s"


def test_a_probe_while_an_earlier_check_hangs_reports_it_without_starting_another(
    client: Client, stuck_checks: None
) -> None:
    # Given an earlier probe whose checks are still hanging
    _timed_readyz(client)
    running = [t.name for t in threading.enumerate() if t.name.startswith("readyz-")]
    # When the probe is asked again
    body, status, seconds = _timed_readyz(client)
    # Then it says so at once, and no second thread waits on the same dependency
    assert status == 503
    assert body["checks"]["database"]["error"] == "earlier check still waiting"
    assert body["checks"]["broker"]["error"] == "earlier check still waiting"
    assert seconds < DEADLINE
    assert [t.name for t in threading.enumerate() if t.name.startswith("readyz-")] == running
