"""API load: 50 concurrent clients reading standings and recording hands against
gunicorn and PostgreSQL, on this machine only (127.0.0.1). Prints throughput and the
median and 95th percentile latency of each kind of request; not a test.

It creates a throwaway database on the server named by DATABASE_URL, migrates and
seeds it (a running tournament with one two-player table per client, each with its
match, and a scorekeeper's API token), starts gunicorn with the production settings
on a free loopback port, runs the clients for a bounded number of requests and time,
then stops the server and drops the database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kelipatan .venv/bin/python bench/api.py \
        [--clients 50] [--requests 20] [--seconds 60] [--workers 3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _bench_database_url() -> tuple[str, str, str]:
    """(admin URL, bench URL, bench database name) on the DATABASE_URL server."""
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kelipatan")
    parts = urlsplit(base)
    if not parts.scheme.startswith("postgres"):
        print("bench/api.py needs PostgreSQL: set DATABASE_URL=postgres://…", file=sys.stderr)
        raise SystemExit(2)
    name = f"kelipatan_bench_api_{os.getpid()}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    return admin, urlunsplit(parts._replace(path=f"/{name}")), name


def _admin_sql(admin_url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(sql)  # the names are ours, built above


def seed(clients: int) -> dict[str, Any]:
    """Migrate and seed the bench database; return the URLs the clients use and the key."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0, interactive=False)

    from league.models import Round, Tournament
    from league.services.tokens import api_token_create
    from matches.services.lifecycle import match_for_table
    from tests.factories import (
        EntryFactory,
        RoundFactory,
        SeatFactory,
        TableFactory,
        TournamentFactory,
        UserFactory,
    )

    scorekeeper = UserFactory(username="bench-scorekeeper")
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, name="Bench Cup")
    tournament.scorekeepers.add(scorekeeper)
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    matches = []
    for number in range(1, clients + 1):
        table = TableFactory(round=round_, number=number, player_count=2, target=100_000)
        for seat in range(2):
            entry = EntryFactory(tournament=tournament)
            SeatFactory(table=table, number=seat, entry=entry, player=entry.player)
        matches.append(match_for_table(table=table).pk)
    key = api_token_create(user=scorekeeper, name="bench").key
    for conn in connections.all():
        conn.close()
    return {"slug": tournament.slug, "matches": matches, "key": key}


class Client(threading.Thread):
    """One club's program: reads the standings, then records the next hand, in turn."""

    def __init__(self, port: int, slug: str, match_id: int, key: str, count: int, deadline: float):
        super().__init__(daemon=True)
        self.port, self.slug, self.match_id, self.key = port, slug, match_id, key
        self.count, self.deadline = count, deadline
        self.samples: dict[str, list[float]] = {"standings": [], "hand": []}
        self.errors: list[str] = []

    def _request(
        self, conn: http.client.HTTPConnection, method: str, path: str, body: Any = None
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Token {self.key}", "Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else None)

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        try:
            status, state = self._request(conn, "GET", f"/api/matches/{self.match_id}/")
            if status != 200:
                self.errors.append(f"match {status}")
                return
            for _ in range(self.count):
                if time.monotonic() > self.deadline:
                    break
                started = time.perf_counter()
                status, _ = self._request(conn, "GET", f"/api/tournaments/{self.slug}/standings/")
                self.samples["standings"].append(time.perf_counter() - started)
                if status != 200:
                    self.errors.append(f"standings {status}")
                leader = state["next_leader"] if state.get("next_leader") is not None else 0
                hand = {
                    "leader": leader,
                    "scores": [[leader, 10], [1 - leader, 5]],
                    "end": {"blocked": True},
                    "left": {"0": 7, "1": 12},
                }
                body = {"number": state["next_hand"], "hand": hand, "version": state["version"]}
                started = time.perf_counter()
                status, answer = self._request(
                    conn, "POST", f"/api/matches/{self.match_id}/hands", body
                )
                self.samples["hand"].append(time.perf_counter() - started)
                if status == 201:
                    state = answer
                else:
                    self.errors.append(f"hand {status}: {str(answer)[:200]}")
                    _, state = self._request(conn, "GET", f"/api/matches/{self.match_id}/")
        except (OSError, http.client.HTTPException, ValueError) as exc:
            self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            conn.close()


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def _wait_ready(port: int, server: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with {server.returncode}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not answer /healthz in time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=20, help="hands recorded per client")
    parser.add_argument("--seconds", type=float, default=60, help="stop the clients after this")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()

    admin_url, bench_url, name = _bench_database_url()
    _admin_sql(admin_url, f'CREATE DATABASE "{name}"')
    env = {
        **os.environ,
        "DATABASE_URL": bench_url,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": HOST,
        "SECURE_SSL_REDIRECT": "false",
        "API_THROTTLE_ANON": "1000000/minute",
        "API_THROTTLE_USER": "1000000/minute",
        "LOG_LEVEL": "WARNING",
        "CONN_MAX_AGE": "60",
        "PYTHONPATH": str(ROOT),
    }
    # Without a broker the service runs its tasks in-process (the embedded default).
    env.pop("REDIS_URL", None)
    env.pop("CELERY_BROKER_URL", None)
    server: subprocess.Popen[bytes] | None = None
    try:
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "SECRET_KEY", "ALLOWED_HOSTS")})
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
        os.environ.pop("REDIS_URL", None)
        data = seed(args.clients)
        port = _free_port()
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "config.wsgi",
                "--bind",
                f"{HOST}:{port}",
                "--workers",
                str(args.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(args.threads),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        _wait_ready(port, server)
        deadline = time.monotonic() + args.seconds
        clients = [
            Client(port, data["slug"], match_id, data["key"], args.requests, deadline)
            for match_id in data["matches"]
        ]
        started = time.perf_counter()
        for client in clients:
            client.start()
        for client in clients:
            client.join(timeout=max(1.0, deadline - time.monotonic() + 30))
        elapsed = time.perf_counter() - started
    finally:
        if server is not None and server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        _admin_sql(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    total = 0
    print(
        f"API load: {args.clients} clients, gunicorn {args.workers} workers x {args.threads} "
        f"threads, PostgreSQL, {elapsed:.1f} s"
    )
    for kind, label in (("standings", "GET tournament standings"), ("hand", "POST record a hand")):
        samples = [s for c in clients for s in c.samples[kind]]
        total += len(samples)
        if not samples:
            print(f"{label:<28} no requests completed")
            continue
        median, p95 = _percentiles(samples)
        print(
            f"{label:<28} n={len(samples):<5} {len(samples) / elapsed:7.1f} req/s   "
            f"median {median * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms"
        )
    print(f"{'all requests':<28} n={total:<5} {total / elapsed:7.1f} req/s")
    errors = [e for c in clients for e in c.errors]
    if errors:
        print(f"{len(errors)} errors, e.g. {errors[:3]}")


if __name__ == "__main__":
    main()
