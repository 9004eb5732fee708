"""Celery tasks of the league: thin wrappers that take ids and call one service.

Tasks are enqueued with ``league.dispatch.task_enqueue_on_commit`` so a worker never
sees a row that is later rolled back.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.backends.base import DisabledBackend

from league.ratings.services import rating_apply_match, ratings_catch_up
from league.services.pairing import round_pair_run
from league.standings.services import (
    division_standings_refresh,
    season_standings_refresh,
    standings_refresh,
    standings_sweep,
)


@shared_task(name="league.rating_apply_match")
def rating_apply_match_task(table_id: int) -> int:
    """Rate one table's (new, corrected or cleared) result; returns matches rated."""
    return rating_apply_match(table_id=table_id).matches_count


@shared_task(name="league.ratings_catch_up")
def ratings_catch_up_task() -> int:
    """The sweep: rate whatever a lost task missed; returns matches rated."""
    report = ratings_catch_up()
    return 0 if report is None else report.matches_count


# Standings (issue 6): refreshes coalesced by league.standings.services, and the sweep.


@shared_task(name="league.standings_refresh")
def standings_refresh_task(tournament_id: int) -> bool:
    """Recompute a tournament's standings; True when rows were written (False: a run
    as new or newer had stored them already)."""
    return standings_refresh(tournament_id=tournament_id)


@shared_task(name="league.season_standings_refresh")
def season_standings_refresh_task(season_id: int) -> bool:
    """Recompute a season's table from all its tournaments and league nights."""
    return season_standings_refresh(season_id=season_id)


@shared_task(name="league.division_standings_refresh")
def division_standings_refresh_task(division_id: int) -> bool:
    """Recompute a division's table from its tournaments and league nights."""
    return division_standings_refresh(division_id=division_id)


@shared_task(name="league.standings_sweep")
def standings_sweep_task() -> int:
    """Catch up on standings left dirty (a refresh the broker never delivered)."""
    return standings_sweep()


# Pairing (issue 7): pair a draft round; progress goes to the cache (and to the result
# backend when there is one), so the admin and the API can show it.


@shared_task(bind=True, name="league.round_pair")
def round_pair_task(
    self: Any, round_id: int, seed: int | None = None, language: str | None = None
) -> dict[str, Any]:
    """Pair a draft round (``seed``: None for the recorded one); returns the quality report,
    or ``{"error": message}`` when the organiser has something to fix."""

    def backend_progress(done: int, total: int) -> None:
        if not self.request.is_eager and not isinstance(self.backend, DisabledBackend):
            self.update_state(state="PROGRESS", meta={"done": done, "total": total})

    return round_pair_run(
        round_id=round_id, seed=seed, language=language, on_progress=backend_progress
    )
