"""Liveness and readiness probes for load balancers and container health checks.

``/healthz`` answers as long as the process serves requests. ``/readyz`` also
checks the database and, when a real broker is configured, that it answers
within a couple of seconds.
"""

from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

from config.celery_app import app as celery_app


def healthz(request: HttpRequest) -> JsonResponse:
    """The process is alive."""
    return JsonResponse({"status": "ok"})


def _database_check() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "not ready"
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor}


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
    """The database (and the broker, when configured) answer."""
    checks = {"database": _database_check(), "broker": _broker_check()}
    ready = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )
