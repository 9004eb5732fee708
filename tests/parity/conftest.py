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
import json
import sys
import time
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
    service_env,
)


@dataclass
class Service:
    base: str
    processes: Processes
    database_url: str


def _database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


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
    url = _database_url()
    env = service_env(database_url=url, redis_url=redis.url, STANDINGS_SWEEP_SECONDS="60")
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
        deadline = time.monotonic() + 60
        while get(base + "/readyz").status != 200:
            assert time.monotonic() < deadline, processes.log("web")[-3000:]
            time.sleep(0.2)
        yield Service(base=base, processes=processes, database_url=url)
    finally:
        processes.stop_all()
        redis.stop()
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            # The killed processes' sessions end a moment later; the test database is
            # flushed after each test and dropped at the end of the run.
            deadline = time.monotonic() + 5
            others = (
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            cursor.execute(others)
            while cursor.fetchone()[0] and time.monotonic() < deadline:
                time.sleep(0.1)
                cursor.execute(others)
            cursor.execute(others.replace("count(*)", "pg_terminate_backend(pid)"))
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
        sent = {"Accept-Language": "id", **(headers or {})}
        data = None
        if body is not None:
            data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
        url = path if path.startswith("http") else self.base + path
        started = time.monotonic()
        try:
            with self.opener.open(
                urllib.request.Request(  # noqa: S310 (the test's own server)
                    url, data=data, headers=sent, method=method
                ),
                timeout=60,
            ) as response:
                answer = Answer(response.status, response.read(), time.monotonic() - started)
                answer.url = response.url  # type: ignore[attr-defined]
                answer.headers = response.headers  # type: ignore[attr-defined]
        except urllib.error.HTTPError as error:
            answer = Answer(error.code, error.read(), time.monotonic() - started)
            answer.url = url  # type: ignore[attr-defined]
            answer.headers = error.headers  # type: ignore[attr-defined]
        return answer

    def get(self, path: str, **kwargs: Any) -> Answer:
        return self.open("GET", path, **kwargs)
