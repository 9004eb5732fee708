"""The service as the README's "Running at scale" runs it, started once for the
production-parity tests: ``collectstatic`` with the manifest storage, gunicorn with three
workers on ``config.settings.production``, a Celery worker (prefork, as deployed) and the
beat scheduler as separate processes, PostgreSQL (pytest-django's test database, shared
with the tests, whose rows are committed) and a Redis of its own on a free port.

Only its addresses are the test's own and the SSL redirect is off (no TLS proxy stands
in front of it here); every other setting is exactly as deployed.
"""

from __future__ import annotations

import http.cookiejar
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.faults.conftest import (
    Answer,
    Processes,
    RedisProcess,
    free_port,
    get,
    other_sessions_end,
    processes_database_url,
    request,
    service_env,
    wait_for,
)


@dataclass
class Service:
    base: str
    processes: Processes


@pytest.fixture(scope="module")
def service(
    django_db_setup: None,
    django_db_blocker: Any,
    collected_static: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Service]:
    """gunicorn, a Celery worker and beat on production settings, for the tests of one
    module (all of them are in one): stopped after it, so that their beat and worker
    touch no later test's rows."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip(
            "the service as deployed runs on PostgreSQL: set DATABASE_URL (CI does), its "
            "web, worker and beat processes share the test database"
        )
    redis = RedisProcess()
    redis.start()
    processes = Processes(tmp_path_factory.mktemp("service"))
    env = service_env(database_url=processes_database_url(), redis_url=redis.url)
    try:
        port = free_port()
        processes.start(
            "web",
            [
                *(sys.executable, "-m", "gunicorn", "config.wsgi:application"),
                *("--bind", f"127.0.0.1:{port}", "--workers", "3"),
            ],
            env,
        )
        processes.start(
            "worker",
            [
                *(sys.executable, "-m", "celery", "-A", "config.celery_app", "worker"),
                "--loglevel=INFO",
            ],
            env,
        )
        schedule = processes.tmp_path / "beat-schedule"
        processes.start(
            "beat",
            [
                *(sys.executable, "-m", "celery", "-A", "config.celery_app", "beat"),
                *("--loglevel=INFO", "-s", str(schedule)),
            ],
            env,
        )
        base = f"http://127.0.0.1:{port}"
        wait_for(
            lambda: get(base + "/readyz").status == 200,
            60,
            "the service",
            log=lambda: "\n" + processes.log("web")[-3000:],
        )
        yield Service(base=base, processes=processes)
    finally:
        processes.stop_all()
        redis.stop()
        with django_db_blocker.unblock():
            other_sessions_end(seconds=5)
        connection.close()  # opened here, outside any test: the database is dropped later


class _SecureCookiesOverPlainHttp(http.cookiejar.DefaultCookiePolicy):
    """Production marks its cookies Secure; with no TLS proxy here they travel over
    plain HTTP on the loopback, as a browser sends them to 127.0.0.1."""

    def return_ok_secure(self, cookie: Any, request: Any) -> bool:
        return True


class Visitor:
    """One person's browser, as far as HTTP goes: cookies kept, Indonesian first."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar(policy=_SecureCookiesOverPlainHttp())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def cookie(self, name: str) -> str:
        return next(cookie.value or "" for cookie in self.cookies if cookie.name == name)

    def open(
        self, method: str, path: str, *, body: Any = None, headers: dict[str, str] | None = None
    ) -> Answer:
        url = path if path.startswith("http") else self.base + path
        return request(method, url, json_body=body, headers=headers, opener=self.opener)

    def get(self, path: str, **kwargs: Any) -> Answer:
        return self.open("GET", path, **kwargs)
