"""A Celery worker killed (SIGKILL) in the middle of a pairing task.

The broker hands the task out again once its visibility timeout passes (set short
here, as an organiser's deployment sets it a little above the hard time limit); the
pairing's progress reads as failed by then, the organiser pairs again, and when the
old task is finally redelivered it finds its request superseded and changes nothing.
"""

from __future__ import annotations

import signal
import sys
import time
from typing import Any

import pytest

from league.models import Round, Seat
from league.services.rounds import round_create
from league.services.tokens import api_token_create
from pairing.models import PairingRequest
from tests.factories import UserFactory
from tests.faults.conftest import ROOT, Processes, RedisProcess, request, service_env
from tests.pairing.conftest import tournament_with_entries

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

TIME_LIMIT = 4
VISIBILITY_TIMEOUT = 6


def _draft(round: Round) -> tuple[Any, ...]:
    """Everything a pairing writes: seats, byes, the report and the seed."""
    round.refresh_from_db()
    seats = tuple(
        Seat.objects.filter(table__round=round)
        .order_by("table__number", "number")
        .values_list("table__number", "number", "entry_id")
    )
    return seats, tuple(round.byes.values_list("pk", flat=True)), round.quality, round.pairing_seed


def _wait(what: str, check: Any, seconds: float, seen: Any = None) -> float:
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < seconds, (
            f"{what}: not within {seconds}s {seen and seen()}"
        )
        time.sleep(0.1)
    return time.monotonic() - started


def test_a_killed_pairing_fails_pairs_again_and_its_late_redelivery_changes_nothing(
    database_url: str, redis_process: RedisProcess, processes: Processes
) -> None:
    # Given a draft round of eight, its organiser's token and a server on our Redis
    tournament = tournament_with_entries(8)
    round = round_create(tournament=tournament)
    organiser = UserFactory(username="penyelenggara")
    tournament.organisers.add(organiser)
    token = api_token_create(user=organiser, name="laptop").key
    env = service_env(
        database_url=database_url,
        redis_url=redis_process.url,
        CELERY_TASK_TIME_LIMIT=str(TIME_LIMIT),
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
    )
    base = processes.server(env)
    pair_url = f"{base}/api/rounds/{round.pk}/pair/"
    progress_url = f"{base}/api/rounds/{round.pk}/pairing-progress/"

    def progress() -> dict[str, Any]:
        return dict(request("GET", progress_url, token=token).json())

    # and a pairing asked for, taken by a worker that pauses inside it
    assert request("POST", pair_url, json_body={"seed": 3}, token=token).status == 202
    worker = processes.start(
        "pausing-worker",
        [sys.executable, str(ROOT / "tests" / "faults" / "pausing_worker.py")],
        {**env, "PAIRING_PAUSE_SECONDS": "60"},
    )
    _wait("the first worker starts pairing", lambda: progress()["state"] == "running", 30)

    # When the worker is killed in the middle of the task
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    killed_at = time.monotonic()
    # Then the progress says failed within the visibility timeout
    _wait("progress says failed", lambda: progress()["state"] == "failed", VISIBILITY_TIMEOUT + 2)
    failed_after = time.monotonic() - killed_at
    print(f"\nprogress said failed {failed_after:.1f}s after the worker was killed")
    assert failed_after <= VISIBILITY_TIMEOUT + 1.5
    assert progress()["message"]
    assert not Seat.objects.filter(table__round=round).exists()

    # When the organiser pairs again and a new worker runs (the old task is due again too)
    assert request("POST", pair_url, json_body={"seed": 5}, token=token).status == 202
    processes.start(
        "worker",
        [
            *(sys.executable, "-m", "celery", "-A", "config.celery_app", "worker"),
            *("--pool=solo", "--loglevel=INFO"),
        ],
        env,
    )
    _wait("pairing again finishes", lambda: progress()["state"] == "done", 30, progress)
    paired = _draft(round)
    # Then the new pairing stands, with the seed the organiser asked for
    assert paired[0], "the round has no seats"
    assert paired[3] == 5
    # And when the killed task is redelivered, it gives up and changes nothing
    redelivered = _wait(
        "the old task is redelivered",
        lambda: "was superseded" in processes.log("worker"),
        VISIBILITY_TIMEOUT + 20,
    )
    print(f"the killed task was redelivered and gave up {redelivered:.1f}s later")
    assert _draft(round) == paired
    assert progress()["state"] == "done"
    assert PairingRequest.objects.get(round=round).answered_at is not None
