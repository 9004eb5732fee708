"""Liveness and readiness probes for load balancers and container health checks.

``/healthz`` answers as long as the process serves requests. ``/readyz`` also checks
the database, the cache and, when a real broker is configured, that the broker answers
— each within a short deadline, so that a silent dependency makes it answer 503 in
about two seconds rather than hang until the server's worker timeout. The database
is checked on a connection of its own, in a thread that is given up on at the
deadline (a database that accepted the connection and never answers would block the
request's thread for ever); only one such check runs at a time. A cache that falls
back to local memory while Redis is away is reported as degraded: the process still
serves every request, so it stays ready.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.http import HttpRequest, JsonResponse

from config.celery_app import app as celery_app

DATABASE_DEADLINE = 2.0
"""Seconds the database has to connect and answer ``SELECT 1``."""

READINESS_STATEMENT_TIMEOUT_MS = 1000

_database_check_running = threading.Lock()


def healthz(request: HttpRequest) -> JsonResponse:
    """The process is alive."""
    return JsonResponse({"status": "ok"})


def _database_select_one() -> dict[str, Any]:
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


def _database_check() -> dict[str, Any]:
    if not _database_check_running.acquire(blocking=False):
        return {"ok": False, "error": "earlier check still waiting"}
    answer: Future[dict[str, Any]] = Future()

    def run() -> None:
        try:
            answer.set_result(_database_select_one())
        finally:
            _database_check_running.release()

    threading.Thread(target=run, name="readyz-database", daemon=True).start()
    try:
        return answer.result(timeout=DATABASE_DEADLINE)
    except TimeoutError:
        return {"ok": False, "error": "timeout", "seconds": DATABASE_DEADLINE}


def _cache_check() -> dict[str, Any]:
    circuit = getattr(cache, "circuit", None)
    if circuit is None:
        return {"ok": True, "mode": "local"}
    cache.get("readyz:probe")  # tries Redis unless it failed moments ago
    if circuit.is_closed:
        return {"ok": True, "mode": "redis"}
    # Still ready: every request is served from local memory and the database.
    return {"ok": True, "mode": "local fallback", "degraded": True}


def _broker_check() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # unreachable or silent broker
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "mode": "broker"}


def readyz(request: HttpRequest) -> JsonResponse:
    """The database (and the broker, when configured) answer; the cache's state."""
    checks = {"database": _database_check(), "cache": _cache_check(), "broker": _broker_check()}
    ready = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )
