"""Sending Celery tasks safely from web requests.

Tasks are enqueued only after the surrounding transaction commits (a worker must
never see a row that is later rolled back), and a dead or silent broker never
fails or hangs the request that triggered it: the publish fails within the short
broker timeouts set in ``config/settings/base.py`` and the failure is logged and
reported to the caller's ``on_failure`` (which typically leaves a dirty mark for
the periodic sweep to catch up on).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)


def task_send(task: Any, *args: Any, **kwargs: Any) -> bool:
    """Publish ``task`` now; True when the broker took it (or it ran eagerly)."""
    try:
        task.apply_async(args=args, kwargs=kwargs)
    except Exception:  # kombu/redis raise many types; any of them means "not queued"
        logger.warning("could not enqueue %s%r: broker unavailable", task.name, args, exc_info=True)
        return False
    return True


def task_enqueue_on_commit(
    task: Any,
    *args: Any,
    on_failure: Callable[[], None] | None = None,
    **kwargs: Any,
) -> None:
    """Publish ``task`` once the current transaction commits (at once outside one)."""

    def send() -> None:
        if not task_send(task, *args, **kwargs) and on_failure is not None:
            on_failure()

    transaction.on_commit(send, robust=True)
