"""The shared Redis cache, made optional: while Redis is away the process uses its own memory.

Everything the service caches can be recomputed (standings pages and documents keyed by
the rows they show, public scoresheets keyed by the match's version, pairing progress),
and DRF's rate throttles count in the cache. So when Redis fails the cache must not
fail the request: ``FailSafeRedisCache`` answers every call from a per-process memory
cache instead — pages are rebuilt from the database, throttles count per process (a
local limit rather than none) — and a ``Circuit`` remembers the failure for a few
seconds, so a silent Redis costs one short socket timeout per cooldown, not one per
call. The failure and the recovery are logged once each; ``/readyz`` reports the state.

When the task broker is the same Redis server, the cache's circuit speaks for the
broker's too (``league.dispatch``): a cache call that finds the server away opens the
broker's circuit, and the trial call that finds it back closes it. A request checks its
throttle in the cache before it publishes; without this it would wait on the same silent
server a second time, for the broker's longer timeouts, to learn what the cache just
learnt, and once Redis is back the tasks would stay unsent for the broker's own cooldown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from celery import current_app
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from league.circuit import Circuit
from league.dispatch import broker_circuit

T = TypeVar("T")

FAILURES = (RedisError, OSError)
"""What a missing, silent or refusing Redis raises (timeouts and refused connections)."""

SERVER_AWAY = (RedisConnectionError, RedisTimeoutError, OSError)
"""The failures that say the server itself is away, not that one command was refused."""

SOCKET_TIMEOUT = 0.25
"""Seconds one Redis call may take before it counts as failed (local calls take < 1 ms)."""

COOLDOWN = 5.0
"""Seconds Redis is left alone after a failure before one request tries it again."""


class FailSafeRedisCache(RedisCache):
    """Django's Redis cache that falls back to local memory while Redis is away."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        cooldown = float(options.pop("circuit_cooldown", COOLDOWN))
        options.setdefault("socket_connect_timeout", SOCKET_TIMEOUT)
        options.setdefault("socket_timeout", SOCKET_TIMEOUT)
        options.setdefault("retry_on_timeout", False)
        super().__init__(server, {**params, "OPTIONS": options})
        self.address = _address(server)
        self.circuit = Circuit(f"Redis cache at {self.address}", cooldown=cooldown)
        self.fallback = LocMemCache(
            f"fail-safe-{id(self)}", {"TIMEOUT": params.get("TIMEOUT", 300)}
        )

    def _guarded(self, call: Callable[[], T], fallback: Callable[[], T]) -> T:
        if not self.circuit.allows():
            return fallback()
        is_trial = not self.circuit.is_closed  # the one call let through after a failure
        try:
            result = call()
        except FAILURES as error:
            self.circuit.failed(error)
            if isinstance(error, SERVER_AWAY) and (broker := _broker_at(self.address)):
                broker.failed(error)
            return fallback()
        self.circuit.succeeded()
        if is_trial and (broker := _broker_at(self.address)):
            broker.succeeded()
        return result

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._guarded(
            lambda: super(FailSafeRedisCache, self).add(key, value, timeout, version),
            lambda: self.fallback.add(key, value, timeout, version),
        )

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._guarded(
            lambda: super(FailSafeRedisCache, self).get(key, default, version),
            lambda: self.fallback.get(key, default, version),
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        self._guarded(
            lambda: super(FailSafeRedisCache, self).set(key, value, timeout, version),
            lambda: self.fallback.set(key, value, timeout, version),
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._guarded(
            lambda: super(FailSafeRedisCache, self).touch(key, timeout, version),
            lambda: self.fallback.touch(key, timeout, version),
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        # The local copy goes too: it must not outlive the value it stood in for.
        self.fallback.delete(key, version)
        return self._guarded(
            lambda: super(FailSafeRedisCache, self).delete(key, version), lambda: False
        )

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._guarded(
            lambda: super(FailSafeRedisCache, self).get_many(keys, version),
            lambda: self.fallback.get_many(keys, version),
        )

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(
            lambda: super(FailSafeRedisCache, self).has_key(key, version),
            lambda: self.fallback.has_key(key, version),
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        return self._guarded(
            lambda: super(FailSafeRedisCache, self).incr(key, delta, version),
            lambda: self.fallback.incr(key, delta, version),
        )

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return self._guarded(
            lambda: super(FailSafeRedisCache, self).set_many(data, timeout, version),
            lambda: self.fallback.set_many(data, timeout, version),
        )

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self.fallback.delete_many(keys, version)
        self._guarded(
            lambda: super(FailSafeRedisCache, self).delete_many(keys, version), lambda: None
        )

    def clear(self) -> None:
        self.fallback.clear()
        self._guarded(lambda: super(FailSafeRedisCache, self).clear(), lambda: None)


def _broker_at(address: str) -> Circuit | None:
    """The broker's circuit, when the broker is the Redis at ``address``."""
    conf = current_app.conf
    if conf.task_always_eager:
        return None  # no broker: tasks run in the process
    broker_url = str(conf.broker_url)
    if urlsplit(broker_url).scheme in ("redis", "rediss") and _address(broker_url) == address:
        return broker_circuit()
    return None


def _address(server: str) -> str:
    """The host and port of a Redis URL, without any password in it."""
    parts = urlsplit(server)
    return f"{parts.hostname}:{parts.port or 6379}"
