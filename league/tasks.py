"""Celery tasks of the league: thin wrappers that take ids and call one service.

Tasks are enqueued with ``league.dispatch.task_enqueue_on_commit`` so a worker never
sees a row that is later rolled back.
"""

from __future__ import annotations

from celery import shared_task

from league.ratings.services import rating_apply_match, ratings_catch_up


@shared_task(name="league.rating_apply_match")
def rating_apply_match_task(table_id: int) -> int:
    """Rate one table's (new, corrected or cleared) result; returns matches rated."""
    return rating_apply_match(table_id=table_id).matches_count


@shared_task(name="league.ratings_catch_up")
def ratings_catch_up_task() -> int:
    """The sweep: rate whatever a lost task missed; returns matches rated."""
    report = ratings_catch_up()
    return 0 if report is None else report.matches_count
