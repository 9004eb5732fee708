"""A database that accepts connections and never answers: /readyz says so within 3 s.

Without a connect timeout the probe hung until gunicorn's worker timeout (30 s) and
answered 500. The server here is a real gunicorn on production settings whose
DATABASE_URL points at a TCP listener that accepts and stays silent.
"""

from __future__ import annotations

import pytest

from tests.faults.conftest import Processes, get, percentiles, service_env

pytestmark = pytest.mark.faults

READY_WITHIN_SECONDS = 3.0


def test_readyz_answers_503_within_three_seconds_against_a_silent_database(
    processes: Processes, silent_listener: int
) -> None:
    # Given a server whose database accepts connections and never answers
    base = processes.server(
        service_env(
            database_url=f"postgres://kelipatan@127.0.0.1:{silent_listener}/kelipatan",
            redis_url="",
        )
    )
    # When the readiness probe is asked a few times in a row
    answers = [get(base + "/readyz", timeout=30) for _ in range(3)]
    print("\n/readyz, silent database:", percentiles([a.seconds for a in answers]))
    # Then each answer is 503, says the database is the problem, and comes within 3 s
    for answer in answers:
        assert answer.status == 503, answer.body
        assert answer.json()["checks"]["database"]["ok"] is False
        assert answer.seconds < READY_WITHIN_SECONDS, f"/readyz took {answer.seconds:.2f}s"
    # And the process itself is still alive
    assert get(base + "/healthz").status == 200


def test_a_page_gives_up_on_a_silent_database_after_the_connect_timeout(
    processes: Processes, silent_listener: int
) -> None:
    # Given a server whose database accepts connections and never answers
    base = processes.server(
        service_env(
            database_url=f"postgres://kelipatan@127.0.0.1:{silent_listener}/kelipatan",
            redis_url="",
            DATABASE_CONNECT_TIMEOUT="2",
        )
    )
    # When a page that reads the database is asked for
    answer = get(base + "/tournaments/", timeout=60)
    print(f"\n/tournaments/, silent database: {answer.status} in {answer.seconds:.2f}s")
    # Then it fails after the connect timeout instead of hanging the worker
    assert answer.status >= 500
    assert answer.seconds < 10, f"the page took {answer.seconds:.2f}s"
