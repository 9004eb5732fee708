"""Celery tasks of standings: thin wrappers that take ids and call one service.

Refreshes are coalesced by ``standings.services.requests``; the beat sweep catches up on
refreshes the broker never delivered.
"""

from __future__ import annotations

from celery import shared_task

from standings.services.refresh import (
    division_standings_refresh,
    season_standings_refresh,
    standings_refresh,
    standings_sweep,
)


@shared_task(name="standings.standings_refresh")
def standings_refresh_task(tournament_id: int) -> bool:
    """Recompute a tournament's standings; True when rows were written (False: a run
    as new or newer had stored them already)."""
    return standings_refresh(tournament_id=tournament_id)


@shared_task(name="standings.season_standings_refresh")
def season_standings_refresh_task(season_id: int) -> bool:
    """Recompute a season's table from all its tournaments and league nights."""
    return season_standings_refresh(season_id=season_id)


@shared_task(name="standings.division_standings_refresh")
def division_standings_refresh_task(division_id: int) -> bool:
    """Recompute a division's table from its tournaments and league nights."""
    return division_standings_refresh(division_id=division_id)


@shared_task(name="standings.standings_sweep")
def standings_sweep_task() -> int:
    """Catch up on standings left dirty (a refresh the broker never delivered)."""
    return standings_sweep()
