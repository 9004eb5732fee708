"""The processes a fault test starts and breaks: its own Redis on a free port (never the
shared one), a gunicorn server and Celery workers on production settings exactly as
deployed (``config.settings.production``, static files collected with the manifest
storage), and a silent TCP listener. The database is pytest-django's test database on
PostgreSQL, which the subprocesses share with the test (its rows are committed: the tests
are transactional). The production-parity tests (``tests/parity/``) start the same way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import COLLECTED_STATIC

ROOT = Path(__file__).resolve().parents[2]
SECRET = "fault-tests-" + "0123456789abcdefghijklmnopqrstuvwxyz" * 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(check: Any, timeout: float, what: str, log: Any = None) -> None:
    """Until ``check()`` holds; a failure names ``what`` and ends with ``log()`` if given."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} did not come up within {timeout}s" + ((log and log()) or ""))


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


class RedisProcess:
    """A throwaway ``redis-server`` on a free port, to pause, kill and start again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no"),
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_for(lambda: _port_open(self.port), 10, "redis-server")

    def pause(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)
            self.kill()


@pytest.fixture
def redis_process() -> Iterator[RedisProcess]:
    redis = RedisProcess()
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@contextlib.contextmanager
def silent_port() -> Iterator[int]:
    """A TCP port that accepts connections and never answers (a hung server, a paused
    Redis)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(server.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


@pytest.fixture
def silent_listener() -> Iterator[int]:
    with silent_port() as port:
        yield port


@pytest.fixture
def database_url(
    transactional_db: None, processes: Processes, collected_static: Path
) -> Iterator[str]:
    """The test database as a URL for subprocesses (PostgreSQL only)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: servers and workers in other processes share the test")
    yield processes_database_url()
    processes.stop_all()
    other_sessions_end(seconds=3)


def processes_database_url() -> str:
    """The test database (PostgreSQL) as a URL for the processes a test starts."""
    from django.db import connection

    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def other_sessions_end(*, seconds: float) -> None:
    """Wait for the test database's other sessions to end (those of servers and workers
    just killed end a moment after them), so that it can be flushed and dropped; end
    those still there after ``seconds`` (the test database is this run's own)."""
    from django.db import connection

    others = (
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(others)
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.1)
        cursor.execute(others.replace("count(*)", "pg_terminate_backend(pid)"))


def service_env(*, database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of a production process of the service. Only its addresses are the
    test's own, and the SSL redirect is off: no TLS proxy stands in front of it here."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "DATABASE_", "REDIS_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        STATIC_ROOT=str(COLLECTED_STATIC),
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="False",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        PYTHONPATH=str(ROOT),
        LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env


class Processes:
    """Subprocesses a test started, ended (by their own pid) when it ends."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = (self.tmp_path / f"{name}.log").open("wb")
        # A session (process group) of its own: a worker's pool and an embedded beat are
        # forked children with the same command line, which outlive their parent's kill.
        process = subprocess.Popen(
            args,
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.started.append(process)
        return process

    def log(self, name: str) -> str:
        return (self.tmp_path / f"{name}.log").read_text(errors="replace")

    def server(self, env: dict[str, str]) -> str:
        """A gunicorn serving the service; returns its base URL once it answers."""
        port = free_port()
        self.start(
            "server",
            [
                *(sys.executable, "-m", "gunicorn", "config.wsgi:application"),
                *("--bind", f"127.0.0.1:{port}", "--workers", "1", "--timeout", "60"),
            ],
            env,
        )
        base = f"http://127.0.0.1:{port}"
        wait_for(lambda: get(base + "/healthz").status == 200, 30, "the server")
        return base

    def stop_all(self) -> None:
        """Kill every process started, with the children each forked."""
        for process in self.started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    started = Processes(tmp_path)
    try:
        yield started
    finally:
        started.stop_all()


class Answer:
    """One HTTP answer and how long it took."""

    def __init__(
        self, status: int, body: bytes, seconds: float, headers: Mapping[str, str] | None = None
    ) -> None:
        self.status, self.body, self.seconds = status, body, seconds
        self.headers: Mapping[str, str] = headers if headers is not None else {}

    def json(self) -> Any:
        import json

        return json.loads(self.body)


def request(
    method: str,
    url: str,
    *,
    json_body: Any = None,
    token: str | None = None,
    timeout: float = 60,
    headers: Mapping[str, str] | None = None,
    opener: urllib.request.OpenerDirector | None = None,
) -> Answer:
    """An HTTP request from outside, as a phone or a program would make it (through
    ``opener``, when given: one that keeps cookies)."""
    import json

    headers = {"Accept-Language": "id", **(headers or {})}
    data = None
    if json_body is not None:
        data = json.dumps(json_body).encode()
        headers["Content-Type"] = "application/json"
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    started = time.monotonic()
    sent = urllib.request.Request(url, data=data, headers=headers, method=method)  # noqa: S310
    try:
        open_url = opener.open if opener is not None else urllib.request.urlopen
        with open_url(sent, timeout=timeout) as response:
            status, body, answered = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, body, answered = error.code, error.read(), error.headers
    return Answer(status, body, time.monotonic() - started, answered)


def get(url: str, **kwargs: Any) -> Answer:
    try:
        return request("GET", url, **kwargs)
    except OSError:
        return Answer(0, b"", 0.0)


def percentiles(seconds: list[float]) -> str:
    """p50, p95 and the worst of some timings, in milliseconds."""
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"n={len(ordered):3d}  p50={statistics.median(ordered) * 1000:7.1f} ms  "
        f"p95={p95 * 1000:7.1f} ms  max={ordered[-1] * 1000:7.1f} ms"
    )
