"""Liveness and readiness probes for load balancers and container health checks.

``/healthz`` answers as long as the process serves requests. ``/readyz`` also checks
the database, the cache and, when a real broker is configured, that the broker answers.
The three checks run side by side, each in a thread of its own, and the probe answers
when all have or when its one deadline passes, whichever comes first: so that a silent
dependency makes it answer 503 in about two seconds, whichever one it is and however
many are silent, rather than after the sum of their timeouts or, for a database that
accepted the connection and never answers, never. A check given up on is left to end
by its own timeouts; until it has, the next probe reports it as still waiting instead of
starting another. A cache that falls back to local memory while Redis is away is
reported as degraded: the process still serves every request, so it stays ready.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.db import connections
from django.http import HttpRequest, JsonResponse

from config.celery_app import app as celery_app

READINESS_DEADLINE = 2.0
"""Seconds the checks have, together, to answer; one that has not answered by then failed."""

READINESS_STATEMENT_TIMEOUT_MS = 1000

type Check = Callable[[], dict[str, Any]]

_running = {name: threading.Lock() for name in ("database", "cache", "broker")}
"""Held while a check of that name runs: one of each at a time, however many probes come."""


def healthz(request: HttpRequest) -> JsonResponse:
    """The process is alive."""
    return JsonResponse({"status": "ok"})


def _database_check() -> dict[str, Any]:
    connection = connections["default"]  # this thread's own connection
    try:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                # A database that is slow (locks, overload) is not ready either.
                cursor.execute(f"SET statement_timeout = {READINESS_STATEMENT_TIMEOUT_MS}")
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "not ready"
        return {"ok": False, "error": exc.__class__.__name__}
    finally:
        connection.close()
    return {"ok": True, "vendor": connection.vendor}


def _cache_check(backend: BaseCache) -> dict[str, Any]:
    circuit = getattr(backend, "circuit", None)
    if circuit is None:
        return {"ok": True, "mode": "local"}
    backend.get("readyz:probe")  # tries Redis unless it failed moments ago
    if circuit.is_closed:
        return {"ok": True, "mode": "redis"}
    # Still ready: every request is served from local memory and the database.
    return {"ok": True, "mode": "local fallback", "degraded": True}


def _broker_check() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    try:
        with celery_app.connection_for_write() as conn:
            # One attempt: a retry would first sleep ``interval_start`` (2 s by default).
            conn.ensure_connection(max_retries=0, timeout=READINESS_DEADLINE)
    except Exception as exc:  # unreachable or silent broker
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "mode": "broker"}


def _started(name: str, check: Check) -> Future[dict[str, Any]]:
    """``check`` running in a thread of its own, unless the last one has not ended yet."""
    answer: Future[dict[str, Any]] = Future()
    if not _running[name].acquire(blocking=False):
        answer.set_result({"ok": False, "error": "earlier check still waiting"})
        return answer

    def run() -> None:
        try:
            answer.set_result(check())
        except Exception as exc:  # a check that fails is a "no", not a crashed thread
            answer.set_result({"ok": False, "error": exc.__class__.__name__})
        finally:
            _running[name].release()

    threading.Thread(target=run, name=f"readyz-{name}", daemon=True).start()
    return answer


def readyz(request: HttpRequest) -> JsonResponse:
    """The database (and the broker, when configured) answer; the cache's state."""
    # The cache is fetched here: Django gives each thread a cache of its own, and only
    # this one (the request's) holds the circuit that requests actually use.
    backend = caches["default"]
    answers = {
        "database": _started("database", _database_check),
        "cache": _started("cache", lambda: _cache_check(backend)),
        "broker": _started("broker", _broker_check),
    }
    deadline = time.monotonic() + READINESS_DEADLINE
    checks: dict[str, dict[str, Any]] = {}
    for name, answer in answers.items():
        try:
            checks[name] = answer.result(timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            checks[name] = {"ok": False, "error": "timeout", "seconds": READINESS_DEADLINE}
    ready = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )
