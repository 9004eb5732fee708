"""Two refreshes of one tournament's standings at once, against PostgreSQL: the older
computation never overwrites the newer, and one version is written once.

SQLite serialises writers in one process, so there is no race to test there; these
tests skip on it with that reason.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from celery.canvas import Signature
from django.conf import settings
from django.db import connections

from standings.models import Standings
from standings.selectors import StandingsComputation
from standings.services import refresh as services
from tests.standings.conftest import League

# Decided before any database is set up, so a skipped test flushes nothing; the
# serialized rollback keeps the initial data (groups) in place for later tests.
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: SQLite serialises writers, there is no race to test",
    ),
    pytest.mark.django_db(transaction=True),
]

TIMEOUT = 20


@pytest.fixture(autouse=True)
def _requests_only_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    """Results mark the standings dirty, but no refresh runs unless a test starts one."""
    monkeypatch.setattr(Signature, "apply_async", lambda self, *a, **k: None)


def in_thread(target: Callable[[], Any], results: dict[str, Any], name: str) -> threading.Thread:
    def run() -> None:
        try:
            results[name] = target()
        except BaseException as error:  # surfaced by the test's assertions
            results[name] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread


def test_an_older_refresh_finishing_last_does_not_overwrite_a_newer_one(
    league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    ani, budi, citra = league.entry("Ani"), league.entry("Budi"), league.entry("Citra")
    league.play(1, [ani, budi], [250, 100])  # version 1
    computed = threading.Event()
    release = threading.Event()
    real_compute = services.standings_compute

    def slow_for_the_first(*, standings_id: int) -> StandingsComputation:
        computation = real_compute(standings_id=standings_id)
        if threading.current_thread().name == "older":
            computed.set()
            assert release.wait(TIMEOUT)  # held between computing and writing
        return computation

    monkeypatch.setattr(services, "standings_compute", slow_for_the_first)
    results: dict[str, Any] = {}
    tournament_id = league.tournament.pk

    # The older run has read version 1 and computed, but not written yet.
    older = in_thread(
        lambda: services.standings_refresh(tournament_id=tournament_id), results, "older"
    )
    assert computed.wait(TIMEOUT)
    # Meanwhile a new result arrives and a newer run computes and writes version 2.
    league.play(2, [citra, ani], [250, 0])
    newer = in_thread(
        lambda: services.standings_refresh(tournament_id=tournament_id), results, "newer"
    )
    newer.join(TIMEOUT)
    release.set()
    older.join(TIMEOUT)

    assert results == {"newer": True, "older": False}
    standings = Standings.objects.get(tournament=league.tournament)
    assert (standings.computed_version, standings.computed_count) == (2, 1)
    points = {row.name: row.match_points for row in standings.rows.all()}
    assert points == {"Ani": 2, "Budi": 0, "Citra": 2}


def test_two_refreshes_of_one_version_at_once_write_it_once(
    league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries = [league.entry(f"P{n}") for n in range(6)]
    for n in range(0, 6, 2):
        league.play(1, entries[n : n + 2], [250, 10 * n])
    both_computed = threading.Barrier(2, timeout=TIMEOUT)
    real_compute = services.standings_compute

    def in_step(*, standings_id: int) -> StandingsComputation:
        computation = real_compute(standings_id=standings_id)
        both_computed.wait()  # both hold the same version, then race to write
        return computation

    monkeypatch.setattr(services, "standings_compute", in_step)
    results: dict[str, Any] = {}
    tournament_id = league.tournament.pk
    threads = [
        in_thread(lambda: services.standings_refresh(tournament_id=tournament_id), results, name)
        for name in ("first", "second")
    ]
    for thread in threads:
        thread.join(TIMEOUT)

    assert sorted(results.values()) == [False, True]
    standings = Standings.objects.get(tournament=league.tournament)
    assert (standings.computed_version, standings.computed_count) == (3, 1)
    assert standings.rows.count() == 6
