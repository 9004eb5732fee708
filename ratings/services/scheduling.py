"""Scheduling rating updates: a changed table result queues its re-rating after commit.

Registered as a ``league.hooks`` result listener (``RatingsConfig.ready``), so the league
never imports ratings. The task runs ``ratings.services.rating.rating_apply_match``; if
the broker is away the beat sweep (``ratings_catch_up``) rates what was missed.
"""

from __future__ import annotations

import logging

from league.dispatch import task_enqueue_on_commit
from ratings.tasks import rating_apply_match_task

logger = logging.getLogger(__name__)


def ratings_schedule_after_result(*, table_id: int) -> None:
    """Enqueue the rating update for a table once the current transaction commits."""

    def on_failure() -> None:
        logger.warning("ratings for table %s wait for the catch-up sweep", table_id)

    task_enqueue_on_commit(rating_apply_match_task, table_id, on_failure=on_failure)


def ratings_result_listener(table_id: int, is_result: bool) -> None:
    """The ``league.hooks`` listener: only a changed result (not a status) is re-rated."""
    if is_result:
        ratings_schedule_after_result(table_id=table_id)
