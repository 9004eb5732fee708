"""Marking standings dirty and queueing their refresh: the first half of the refresh
protocol described in ``standings.services.refresh``.

``standings_refresh_request`` runs inside the transaction that changed a result; it is
registered as a ``league.hooks`` result listener (``StandingsConfig.ready``), so the
league never imports standings.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.utils import timezone

from league.dispatch import task_enqueue_on_commit
from league.models import Table, Tournament
from standings import tasks
from standings.models import Standings
from standings.services.refresh import standings_get_or_create

#: Seconds a queued refresh waits, so that a burst of results is computed once.
REFRESH_COUNTDOWN_SECONDS = {"tournament": 2, "season": 5, "division": 5}


def standings_refresh_request(*, tournament_id: int) -> None:
    """Mark a tournament's standings, and its season's and division's, as needing a
    refresh, and queue the refreshes after commit (call it inside the writing transaction)."""
    scopes = Tournament.objects.filter(pk=tournament_id).values_list("season_id", "division_id")
    season_id, division_id = scopes.get()
    _request(standings_get_or_create(tournament_id=tournament_id), "tournament", tournament_id)
    if division_id is not None:
        _request(standings_get_or_create(division_id=division_id), "division", division_id)
    if season_id is not None:
        _request(standings_get_or_create(season_id=season_id), "season", season_id)


def standings_refresh_request_for_table(*, table_id: int) -> None:
    """``standings_refresh_request`` for the tournament a table belongs to."""
    tournament_id = (
        Table.objects.filter(pk=table_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is not None:
        standings_refresh_request(tournament_id=tournament_id)


def _request(standings: Standings, scope: str, scope_id: int) -> None:
    bump: dict[str, Any] = {
        "requested_version": F("requested_version") + 1,
        "requested_at": timezone.now(),
    }
    # Claiming the queue flag and bumping the version is one UPDATE: of all requests
    # made while no refresh is queued, exactly one wins the claim and enqueues.
    claimed = Standings.objects.filter(pk=standings.pk, is_queued=False).update(
        is_queued=True, **bump
    )
    if not claimed:
        Standings.objects.filter(pk=standings.pk).update(**bump)
        return
    task = {
        "tournament": tasks.standings_refresh_task,
        "season": tasks.season_standings_refresh_task,
        "division": tasks.division_standings_refresh_task,
    }[scope]
    signature = task.s(scope_id).set(countdown=REFRESH_COUNTDOWN_SECONDS[scope])

    def release() -> None:
        # Not queued after all: let the next request try again; the sweep has the mark.
        Standings.objects.filter(pk=standings.pk).update(is_queued=False)

    task_enqueue_on_commit(signature, on_failure=release)


def standings_result_listener(table_id: int, is_result: bool) -> None:
    """The ``league.hooks`` listener: results and tables in play both show in standings."""
    standings_refresh_request_for_table(table_id=table_id)


def standings_ranking_listener(tournament_id: int) -> None:
    """The ``league.hooks`` listener: new points or a new tiebreak order re-rank the table."""
    standings_refresh_request(tournament_id=tournament_id)
