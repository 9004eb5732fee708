"""The fail-safe Redis cache: with Redis away it answers from local memory, and a
failure is remembered so that Redis is not asked again on every call."""

from __future__ import annotations

import socket

from league.cache import FailSafeRedisCache


def _refused_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"  # nothing listens there now


def test_with_redis_away_the_cache_answers_from_local_memory_and_opens_its_circuit() -> None:
    # Given the cache pointed at a Redis that refuses connections
    cache = FailSafeRedisCache(_refused_url(), {"OPTIONS": {"circuit_cooldown": 60}})
    # When values are written and read
    cache.set("standings", "rows", 60)
    # Then nothing fails, the values come from local memory, and Redis is left alone
    assert cache.get("standings") == "rows"
    assert cache.get("missing", "default") == "default"
    assert cache.add("hits", 1)
    assert cache.incr("hits") == 2
    assert cache.circuit.is_open


def test_the_circuit_closes_again_once_a_call_succeeds() -> None:
    cache = FailSafeRedisCache(_refused_url(), {"OPTIONS": {"circuit_cooldown": 0}})
    cache.get("x")
    assert not cache.circuit.is_closed
    cache.circuit.succeeded()
    assert cache.circuit.is_closed
