"""Standings computed from the database: credit, byes, withdrawals, tables in play,
seasons and divisions, and the refresh protocol (dirty mark, enqueue after commit,
coalescing, no overwrite by an older computation, broker down and the sweep)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from celery.canvas import Signature
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from config.celery_app import app as celery_app
from league.models import Division, TableResult, TableResultSide, Tournament
from league.services.results import table_status_set
from standings.models import Standings, StandingsRow
from standings.selectors import standings_compute
from standings.services.refresh import (
    division_standings_refresh,
    season_standings_refresh,
    standings_refresh,
    standings_sweep,
    standings_write,
)
from standings.services.requests import standings_refresh_request
from tests.factories import SeasonFactory, TournamentFactory
from tests.standings.conftest import League

pytestmark = pytest.mark.django_db


def rows_of(standings: Standings) -> list[StandingsRow]:
    return list(standings.rows.order_by("position"))


def tournament_rows(league: League) -> list[StandingsRow]:
    standings_refresh(tournament_id=league.tournament.pk)
    return rows_of(Standings.objects.get(tournament=league.tournament))


def summary(rows: list[StandingsRow]) -> list[tuple[int, str, Decimal]]:
    return [(row.rank, row.name, row.match_points) for row in rows]


# Computing from the league's records


def test_a_recorded_result_refreshes_the_standings_after_commit(
    league: League, django_capture_on_commit_callbacks: Any
) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    with django_capture_on_commit_callbacks(execute=True):
        league.play(1, [ani, budi], [250, 120], hands=[7, 4])
    standings = Standings.objects.get(tournament=league.tournament)
    assert not standings.is_dirty and standings.computed_count == 1
    rows = rows_of(standings)
    assert summary(rows) == [(1, "Ani", Decimal(2)), (2, "Budi", Decimal(0))]
    assert (rows[0].wins, rows[0].hands_won, rows[0].points_scored_x2) == (1, 7, 500)
    assert rows[0].separation == {
        "reason": "tiebreak",
        "tiebreak": "match_points",
        "upper": "2",
        "lower": "0",
    }


def test_the_refresh_waits_for_the_commit_and_leaves_a_dirty_mark_until_then(
    league: League, django_capture_on_commit_callbacks: Any
) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        league.play(1, [ani, budi], [250, 120])
    standings = Standings.objects.get(tournament=league.tournament)
    # The mark is committed with the result; nothing is computed before the commit.
    assert standings.is_dirty and standings.is_queued and not standings.rows.exists()
    assert callbacks, "the refresh must be enqueued on commit"
    for callback in callbacks:
        callback()
    standings.refresh_from_db()
    assert not standings.is_dirty and not standings.is_queued
    assert standings.rows.count() == 2


def test_three_player_splits_keep_half_points_and_share_placing_points(league: League) -> None:
    ani, budi, citra = league.entry("Ani"), league.entry("Budi"), league.entry("Citra")
    # R20/R22: a split of 15 carries Ani and Budi to the target together: a tie.
    league.play(1, [ani, budi, citra], [207.5, 207.5, 95])
    rows = tournament_rows(league)
    assert [(r.name, r.match_points, r.points_scored_x2, r.ties) for r in rows[:2]] == [
        ("Ani", Decimal(2), 415, 1),
        ("Budi", Decimal(2), 415, 1),
    ]
    assert rows[0].points_scored == Decimal("207.5")


def test_fixed_partnership_tournaments_rank_partnerships(db: Any) -> None:
    league = League(
        TournamentFactory(format=Tournament.Format.FIXED_PARTNERSHIP, tiebreaks=["match_points"])
    )
    merpati, elang = league.partnership_entry("Merpati"), league.partnership_entry("Elang")
    # Seats 0+2 and 1+3 are partners (R2).
    league.play(1, [merpati, elang, merpati, elang], [200, 140])
    rows = tournament_rows(league)
    assert summary(rows) == [(1, "Merpati", Decimal(2)), (2, "Elang", Decimal(0))]
    assert [row.entry_id for row in rows] == [merpati.pk, elang.pk]
    assert rows[0].tables_played == 1  # one partnership credited once, not per partner


def test_rotating_partner_tournaments_credit_each_player_with_the_sides_result(
    league: League,
) -> None:
    a, b, c, d = (league.entry(n) for n in ("Ani", "Budi", "Citra", "Dewi"))
    league.play(1, [a, b, c, d], [200, 150])  # Ani+Citra beat Budi+Dewi
    league.play(2, [a, c, b, d], [90, 200])  # Budi+Ani lose to Citra+Dewi
    rows = {row.name: row for row in tournament_rows(league)}
    assert {n: r.match_points for n, r in rows.items()} == {
        "Ani": 2,
        "Budi": 0,
        "Citra": 4,
        "Dewi": 2,
    }
    assert rows["Ani"].points_scored_x2 == 2 * (200 + 90)


def test_mixed_table_sizes_keep_each_entrants_target_share(league: League) -> None:
    a, b, c, d, e, f, g = (league.entry(n) for n in "ABCDEFG")
    league.play(1, [a, b, c], [150, 100, 30], target=150)  # three players to 150
    league.play(1, [d, e, f, g], [200, 100], target=200)  # two partnerships to 200
    rows = {row.name: row for row in tournament_rows(league)}
    assert rows["A"].target_share == Decimal(1)
    assert rows["B"].target_share == Decimal("0.6667")  # 100 / 150
    assert rows["E"].target_share == Decimal("0.5")  # 100 / 200, credited to E and G
    assert rows["G"].target_share == Decimal("0.5")


def test_byes_give_the_tournaments_bye_points_and_are_counted(league: League) -> None:
    Tournament.objects.filter(pk=league.tournament.pk).update(points_bye=Decimal("1.5"))
    ani, budi, citra = league.entry("Ani"), league.entry("Budi"), league.entry("Citra")
    table = league.play(1, [ani, budi], [250, 0])
    table.round.byes.add(citra)
    citra_row = next(r for r in tournament_rows(league) if r.name == "Citra")
    assert (citra_row.match_points, citra_row.byes_count, citra_row.tables_played) == (
        Decimal("1.5"),
        1,
        0,
    )


def test_withdrawn_entries_keep_their_results_and_are_flagged(league: League) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi", is_withdrawn=True, withdrawn_round=2)
    league.play(1, [ani, budi], [100, 250])
    rows = tournament_rows(league)
    assert [(r.name, r.is_withdrawn, r.withdrawn_round) for r in rows] == [
        ("Budi", True, 2),
        ("Ani", False, None),
    ]


def test_tables_in_play_make_standings_provisional_and_are_shown(league: League) -> None:
    ani, budi, citra, dewi = (league.entry(n) for n in ("Ani", "Budi", "Citra", "Dewi"))
    league.play(1, [ani, budi], [250, 100])
    playing = league.table(2, [ani, citra])
    table_status_set(table_id=playing.pk, status="playing")
    league.table(2, [budi, dewi])  # scheduled, not started: not shown
    rows = {row.name: row for row in tournament_rows(league)}
    standings = Standings.objects.get(tournament=league.tournament)
    assert standings.is_provisional
    assert rows["Ani"].playing_tables == [playing.number]
    assert rows["Citra"].playing_tables == [playing.number] and rows["Citra"].tables_played == 0
    assert rows["Budi"].playing_tables == []
    assert rows["Ani"].match_points == 2  # the match in play counts for nothing yet


def test_the_organisers_tiebreak_order_and_seed_decide_and_are_recorded(league: League) -> None:
    Tournament.objects.filter(pk=league.tournament.pk).update(
        tiebreaks=["match_points", "points_scored", "lot"], seed=4242
    )
    a, b, c, d = (league.entry(n) for n in ("Ani", "Budi", "Citra", "Dewi"))
    league.play(1, [a, b], [250, 100])
    league.play(1, [c, d], [250, 100])
    rows = tournament_rows(league)
    standings = Standings.objects.get(tournament=league.tournament)
    assert standings.tiebreaks == ["match_points", "points_scored", "lot"]
    assert rows[0].separation["tiebreak"] == "lot"
    assert rows[0].lot > rows[1].lot  # the recorded draw decided, higher first


# Seasons and divisions


def test_season_and_division_tables_aggregate_tournaments_with_their_own_scoring(
    db: Any,
) -> None:
    season = SeasonFactory()
    division = Division.objects.create(season=season, name="Utama")
    first = League(TournamentFactory(season=season, division=division))
    second = League(TournamentFactory(season=season, division=division, points_win=Decimal(3)))
    other = League(TournamentFactory(season=season))  # same season, no division
    ani, budi = first.entry("Ani"), first.entry("Budi")
    first.play(1, [ani, budi], [250, 10])
    citra = second.entry("Citra")
    second.play(1, [second.entry_for(ani), citra], [250, 40])  # a win worth 3 here
    dewi = other.entry("Dewi")
    other.play(1, [dewi, other.entry_for(budi)], [250, 0])

    assert season_standings_refresh(season_id=season.pk)
    season_table = Standings.objects.get(season=season)
    assert season_table.entrant_kind == "player"
    # Ani 2 + 3; Citra above Budi on target share (40/250 against (10 + 0)/500).
    assert summary(rows_of(season_table)) == [
        (1, "Ani", Decimal(5)),
        (2, "Dewi", Decimal(2)),
        (3, "Citra", Decimal(0)),
        (4, "Budi", Decimal(0)),
    ]
    assert rows_of(season_table)[0].player_id == ani.player_id

    assert division_standings_refresh(division_id=division.pk)
    division_rows = rows_of(Standings.objects.get(division=division))
    assert [r.name for r in division_rows] == ["Ani", "Citra", "Budi"]  # Dewi is not in it


def test_a_season_of_fixed_partnership_tournaments_ranks_partnerships(db: Any) -> None:
    season = SeasonFactory()
    league = League(TournamentFactory(season=season, format=Tournament.Format.FIXED_PARTNERSHIP))
    merpati, elang = league.partnership_entry("Merpati"), league.partnership_entry("Elang")
    league.play(1, [merpati, elang, merpati, elang], [200, 20])
    season_standings_refresh(season_id=season.pk)
    standings = Standings.objects.get(season=season)
    assert standings.entrant_kind == "partnership"
    assert [(r.name, r.partnership_id) for r in rows_of(standings)] == [
        ("Merpati", merpati.partnership_id),
        ("Elang", elang.partnership_id),
    ]


# The refresh protocol


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """Standings refreshes handed to the broker (recorded, not run)."""
    sent: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def apply_async(self: Signature, args: Any = (), kwargs: Any = None, **options: Any) -> None:
        sent.append((self.name, tuple(self.args), dict(self.options)))

    monkeypatch.setattr(Signature, "apply_async", apply_async)
    return sent


def test_a_burst_of_results_queues_one_refresh_per_scope(
    db: Any, published: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    season = SeasonFactory()
    league = League(TournamentFactory(season=season))
    entries = [league.entry(f"P{n}") for n in range(24)]
    # Twelve tables finish within seconds, each in its own transaction.
    for n in range(12):
        with django_capture_on_commit_callbacks(execute=True):
            league.play(1, entries[2 * n : 2 * n + 2], [250, 5 * n])
    assert sorted((name, args) for name, args, _options in published) == [
        ("standings.season_standings_refresh", (season.pk,)),
        ("standings.standings_refresh", (league.tournament.pk,)),
    ]
    assert all(options["countdown"] > 0 for _name, _args, options in published)
    standings = Standings.objects.get(tournament=league.tournament)
    assert standings.requested_version == 12 and standings.is_queued

    # The queued refresh runs once and covers all twelve.
    assert standings_refresh(tournament_id=league.tournament.pk)
    standings.refresh_from_db()
    assert (standings.computed_version, standings.computed_count) == (12, 1)
    assert standings.rows.filter(match_points=2).count() == 12

    # A result after the refresh started queues exactly one more.
    with django_capture_on_commit_callbacks(execute=True):
        standings_refresh_request(tournament_id=league.tournament.pk)
    assert [args for name, args, _o in published if name == "standings.standings_refresh"] == [
        (league.tournament.pk,),
        (league.tournament.pk,),
    ]


def test_an_older_computation_never_overwrites_a_newer_one(league: League) -> None:
    ani, budi, citra = league.entry("Ani"), league.entry("Budi"), league.entry("Citra")
    league.play(1, [ani, budi], [250, 100])
    standings = Standings.objects.get(tournament=league.tournament)
    older = standings_compute(standings_id=standings.pk)
    league.play(2, [citra, ani], [250, 100])  # a newer result: version 2
    newer = standings_compute(standings_id=standings.pk)
    assert (older.version, newer.version) == (1, 2)

    # The newer run stores first; the older one, finishing late, is refused.
    assert standings_write(computation=newer)
    assert not standings_write(computation=older)
    standings.refresh_from_db()
    assert standings.computed_version == 2
    assert {r.name: r.match_points for r in rows_of(standings)}["Citra"] == 2


def test_a_refresh_is_idempotent(league: League) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    league.play(1, [ani, budi], [250, 100])
    assert standings_refresh(tournament_id=league.tournament.pk)
    first = [(r.position, r.name, r.match_points) for r in tournament_rows(league)]
    # Same version again: nothing to write, rows as they were.
    assert not standings_refresh(tournament_id=league.tournament.pk)
    again = rows_of(Standings.objects.get(tournament=league.tournament))
    assert [(r.position, r.name, r.match_points) for r in again] == first
    assert Standings.objects.get(tournament=league.tournament).computed_count == 1


def _unreachable_broker() -> str:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now: connections are refused
    return f"redis://127.0.0.1:{port}/0"


@contextmanager
def broker_down() -> Iterator[None]:
    """Celery really publishing (not eager) to a broker that refuses connections."""
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.broker_url
    conf.task_always_eager, conf.broker_url = False, _unreachable_broker()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    try:
        yield
    finally:
        conf.task_always_eager, conf.broker_url = saved
        celery_app._pool = None
        celery_app.amqp._producer_pool = None


def test_broker_down_keeps_the_result_and_the_dirty_mark_and_the_sweep_catches_up(
    league: League, django_capture_on_commit_callbacks: Any
) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    with broker_down(), django_capture_on_commit_callbacks(execute=True):
        league.play(1, [ani, budi], [250, 100])
    # The result is saved and marked; the refresh could not be queued.
    assert TableResult.objects.filter(table__round__tournament=league.tournament).exists()
    standings = Standings.objects.get(tournament=league.tournament)
    assert standings.is_dirty and not standings.is_queued and not standings.rows.exists()
    assert Standings.objects.get(season=league.tournament.season).is_dirty

    # A minute later the broker is back; beat runs the sweep, which recomputes what was
    # left dirty.
    Standings.objects.update(requested_at=F("requested_at") - timedelta(minutes=1))
    assert settings.CELERY_BEAT_SCHEDULE["standings-sweep"]["task"] == "standings.standings_sweep"
    assert celery_app.tasks["standings.standings_sweep"].delay().get() == 2  # tournament, season
    standings.refresh_from_db()
    assert not standings.is_dirty
    assert [r.name for r in rows_of(standings)] == ["Ani", "Budi"]
    assert standings_sweep(grace=timedelta(0)) == 0  # nothing left to do


def test_the_sweep_leaves_fresh_marks_to_their_queued_refresh(league: League) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    league.play(1, [ani, budi], [250, 100])  # marked now; its task is due within seconds
    assert standings_sweep() == 0
    assert Standings.objects.get(tournament=league.tournament).is_dirty


def test_the_sweep_recovers_a_lost_refresh_while_requests_keep_coming(league: League) -> None:
    ani, budi, citra = league.entry("Ani"), league.entry("Budi"), league.entry("Citra")
    league.play(1, [ani, budi], [250, 100])
    standings_refresh(tournament_id=league.tournament.pk)
    # A refresh is queued and lost (a worker died); results keep arriving, each one
    # seeing the queue flag and only bumping the version.
    league.play(2, [citra, ani], [250, 100])
    Standings.objects.filter(tournament=league.tournament).update(
        computed_at=F("computed_at") - timedelta(minutes=5)
    )
    league.play(3, [citra, budi], [250, 100])
    standings = Standings.objects.get(tournament=league.tournament)
    assert standings.is_queued and standings.is_dirty
    assert standings.requested_at is not None
    assert standings.requested_at > timezone.now() - timedelta(seconds=30)

    assert standings_sweep() >= 1
    standings.refresh_from_db()
    assert not standings.is_dirty and not standings.is_queued
    assert rows_of(standings)[0].name == "Citra"


def test_the_sweep_backfills_results_that_reached_the_database_another_way(
    league: League,
) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    table = league.table(1, [ani, budi])
    result = TableResult.objects.create(table=table, finished_at=timezone.now())
    TableResultSide.objects.bulk_create(
        [
            TableResultSide(result=result, side=0, points_x2=500, placing=1),
            TableResultSide(result=result, side=1, points_x2=80, placing=2),
        ]
    )
    assert not Standings.objects.exists()
    assert standings_sweep(grace=timedelta(0)) == 2  # tournament and season
    rows = rows_of(Standings.objects.get(tournament=league.tournament))
    assert summary(rows) == [(1, "Ani", Decimal(2)), (2, "Budi", Decimal(0))]


def test_a_correction_replaces_the_rows(
    league: League, django_capture_on_commit_callbacks: Any
) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    with django_capture_on_commit_callbacks(execute=True):
        table = league.play(1, [ani, budi], [250, 100])
    with django_capture_on_commit_callbacks(execute=True):
        league.result(table, [100, 250])  # the organiser corrects the result
    rows = rows_of(Standings.objects.get(tournament=league.tournament))
    assert summary(rows) == [(1, "Budi", Decimal(2)), (2, "Ani", Decimal(0))]


def test_refresh_request_inside_a_rolled_back_transaction_enqueues_nothing(
    league: League, published: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        standings_refresh_request(tournament_id=league.tournament.pk)
        raise RuntimeError("rolled back")
    assert published == []
    assert not Standings.objects.filter(tournament=league.tournament, is_queued=True).exists()
