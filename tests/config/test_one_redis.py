"""The cache and the task broker on one Redis (both from ``REDIS_URL``): a cache call that
finds that server away opens the broker's circuit as well, so the publish that follows in
the same request gives up at once instead of waiting on the same silent server again;
the cache's trial call that finds it back closes the broker's circuit too.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from celery import shared_task
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from config.celery_app import app as celery_app
from league.cache import FailSafeRedisCache
from league.dispatch import broker_circuit, task_send
from tests.faults.conftest import silent_port

SKIPPED_WITHIN_SECONDS = 0.1  # no socket timeout at all: a local decision


@shared_task(name="tests.one_redis.noop")
def noop_task() -> None:
    return None


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """A Redis address that accepts connections and never answers (a paused Redis)."""
    with silent_port() as port:
        yield f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def broker_at(request: pytest.FixtureRequest) -> Iterator[str]:
    """A real (not eager) Celery publishing to the broker URL the test names."""
    url = request.getfixturevalue(request.param) if request.param else "redis://127.0.0.1:1/0"
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.broker_url
    conf.task_always_eager, conf.broker_url = False, url
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    broker_circuit().reset()
    try:
        yield url
    finally:
        broker_circuit().reset()
        conf.task_always_eager, conf.broker_url = saved
        celery_app._pool = None
        celery_app.amqp._producer_pool = None


def _cache(url: str, *, cooldown: float = 60) -> FailSafeRedisCache:
    return FailSafeRedisCache(url, {"OPTIONS": {"circuit_cooldown": cooldown}})


@pytest.mark.parametrize("broker_at", ["silent_redis"], indirect=True)
def test_a_cache_call_that_finds_the_broker_s_redis_silent_skips_the_next_publish(
    broker_at: str,
) -> None:
    # Given the cache and the broker on one Redis that has gone silent
    cache = _cache(broker_at)
    # When a request's first cache call waits out its socket timeout
    assert cache.get("throttle", "fallback") == "fallback"
    # Then the broker is known to be away too, and the publish after it is skipped at once
    assert broker_circuit().is_open
    started = time.monotonic()
    assert task_send(noop_task) is False
    assert time.monotonic() - started < SKIPPED_WITHIN_SECONDS


@pytest.mark.parametrize("broker_at", [""], indirect=True)
def test_a_cache_on_another_redis_leaves_the_broker_alone(
    broker_at: str, silent_redis: str
) -> None:
    # Given a cache on a silent Redis and the broker on another server
    cache = _cache(silent_redis)
    # When the cache finds its Redis away, then the broker's circuit stays closed
    cache.get("throttle")
    assert cache.circuit.is_open
    assert broker_circuit().is_closed


@pytest.mark.parametrize("broker_at", ["silent_redis"], indirect=True)
def test_a_refused_command_is_not_the_server_away(
    broker_at: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given Redis answering, but refusing one command (a key of the wrong type)
    def refuse(*args: object, **kwargs: object) -> object:
        raise ResponseError("WRONGTYPE Operation against a key holding the wrong kind of value")

    monkeypatch.setattr(RedisCache, "get", refuse)
    cache = _cache(broker_at)
    # When the cache falls back for that call, then publishing is still tried
    assert cache.get("throttle", "fallback") == "fallback"
    assert broker_circuit().is_closed


@pytest.mark.parametrize("broker_at", [""], indirect=True)
def test_the_cache_finding_redis_back_lets_the_broker_be_used_again(
    broker_at: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the cache and the broker on one Redis, found away by the cache
    answers: list[object] = [RedisConnectionError("refused")]

    def get(*args: object, **kwargs: object) -> object:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(RedisCache, "get", get)
    cache = _cache(broker_at, cooldown=0)  # its next call is the trial
    cache.get("throttle")
    assert broker_circuit().is_open
    # When the cache's trial call finds Redis back
    answers.append("counted")
    assert cache.get("throttle") == "counted"
    # Then the broker is tried again too, without waiting out its own cooldown
    assert broker_circuit().is_closed
