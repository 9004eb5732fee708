"""Celery tasks of ratings: thin wrappers that take ids and call one service."""

from __future__ import annotations

from celery import shared_task

from ratings.services.rating import rating_apply_match, ratings_catch_up


@shared_task(name="ratings.rating_apply_match")
def rating_apply_match_task(table_id: int) -> int:
    """Rate one table's (new, corrected or cleared) result; returns matches rated."""
    return rating_apply_match(table_id=table_id).matches_count


@shared_task(name="ratings.ratings_catch_up")
def ratings_catch_up_task() -> int:
    """The sweep: rate whatever a lost task missed; returns matches rated."""
    report = ratings_catch_up()
    return 0 if report is None else report.matches_count
