"""Redis, the broker, killed (SIGKILL) and started again while the Celery worker holds
tasks it has not acknowledged: the worker stays up, reconnects by itself, and the
standings catch up.

The worker and beat run as the README tells operators to run them (the prefork pool,
beat in a process of its own) on production settings, against the test's own
``redis-server``. Before each kill the worker is given standings refreshes due later,
which it holds unacknowledged until their time — as it holds every refresh for the
two seconds of its countdown after a result. A result is then recorded while Redis
is dead. Redis keeps nothing across a restart (as in docker-compose.yml), so the
held refreshes are gone with it and the beat sweep is what catches the standings up.
The test prints, for each kill, how long after Redis came back the worker was
connected again and the standings were fresh.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from celery import Celery
from django.db.models import F
from django.utils import timezone

from standings.models import Standings
from standings.services.refresh import standings_get_or_create, standings_refresh
from tests.factories import TournamentFactory
from tests.faults.conftest import Processes, RedisProcess, service_env

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

# Seconds Redis stays dead at each kill; the worker first retries 2 s after the loss,
# then 4 s later, so the longer outage also sees a reconnection attempt fail.
DEAD_SECONDS = (1.5, 4.5, 1.5)
HELD_TASKS = 4
CATCH_UP_SECONDS = 30.0  # the README's bound, counted from Redis returning


def _wait(what: str, check: Callable[[], bool], seconds: float, log: Callable[[], str]) -> float:
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < seconds, f"{what}: not within {seconds:.0f}s\n{log()}"
        time.sleep(0.1)
    return time.monotonic() - started


def _reached(count: Callable[[], int], target: int) -> Callable[[], bool]:
    return lambda: count() >= target


def test_the_worker_outlives_redis_killed_while_it_holds_tasks_and_standings_catch_up(
    database_url: str, redis_process: RedisProcess, processes: Processes
) -> None:
    # Given a tournament's standings
    tournament = TournamentFactory()
    standings_refresh(tournament_id=tournament.pk)
    standings = standings_get_or_create(tournament_id=tournament.pk)
    # and a worker and beat (sweeping dirty standings every second) on our Redis
    env = service_env(
        database_url=database_url,
        redis_url=redis_process.url,
        STANDINGS_SWEEP_SECONDS="1",
        LOG_LEVEL="INFO",
    )
    celery = [sys.executable, "-m", "celery", "-A", "config.celery_app"]
    worker = processes.start("worker", [*celery, "worker", "--loglevel=INFO"], env)
    schedule = str(processes.tmp_path / "beat-schedule")
    beat = processes.start("beat", [*celery, "beat", "--loglevel=INFO", "-s", schedule], env)

    def worker_log() -> str:
        return processes.log("worker")

    def logs() -> str:
        return f"worker:\n{worker_log()[-5000:]}\nbeat:\n{processes.log('beat')[-1500:]}"

    def connections() -> int:
        return worker_log().count("] Connected to ")

    def refreshes_taken() -> int:
        return worker_log().count("Task standings.standings_refresh[")

    _wait("the worker connects", lambda: connections() == 1, 30, logs)
    reconnected: list[float] = []
    caught_up: list[float] = []
    for kill, dead_seconds in enumerate(DEAD_SECONDS, 1):
        # When the worker holds refreshes due in ten minutes, unacknowledged
        taken = refreshes_taken()
        with Celery("web", broker=redis_process.url, set_as_current=False) as web:
            for _ in range(HELD_TASKS):
                web.send_task("standings.standings_refresh", args=[tournament.pk], countdown=600)
        _wait("the worker takes them", _reached(refreshes_taken, taken + HELD_TASKS), 10, logs)
        connected = connections()
        # and Redis is killed, a result is recorded while it is dead, and Redis returns
        redis_process.kill()
        time.sleep(dead_seconds)
        # (ten minutes after the last computation, so that the sweep takes the standings
        # at once rather than after the grace it leaves a refresh that is still queued)
        Standings.objects.filter(pk=standings.pk).update(
            requested_version=F("requested_version") + 1,
            requested_at=timezone.now(),
            computed_at=timezone.now() - timedelta(minutes=10),
        )
        assert Standings.objects.get(pk=standings.pk).is_dirty
        redis_process.start()
        back_at = time.monotonic()
        # Then the worker connects again (it did not exit)
        reconnected.append(
            _wait(
                f"kill {kill}: the worker reconnects",
                _reached(connections, connected + 1),
                CATCH_UP_SECONDS,
                logs,
            )
        )
        # and the standings catch up
        _wait(
            f"kill {kill}: the standings catch up",
            lambda: not Standings.objects.get(pk=standings.pk).is_dirty,
            CATCH_UP_SECONDS - (time.monotonic() - back_at),
            logs,
        )
        caught_up.append(time.monotonic() - back_at)

    print()
    for kill, (connect, fresh) in enumerate(zip(reconnected, caught_up, strict=True), 1):
        print(
            f"kill {kill}: after Redis came back the worker reconnected in {connect:.1f}s "
            f"and the standings caught up in {fresh:.1f}s"
        )
    # and every kill found the worker holding tasks (the fault the test is about)
    assert worker_log().count("unacknowledged message(s)") >= len(DEAD_SECONDS), logs()
    assert "Unrecoverable error" not in worker_log()
    assert worker.poll() is None and beat.poll() is None, logs()
