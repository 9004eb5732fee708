"""Progress of a pairing run (idle, queued, running i of n, done, failed), recorded and read.

It is kept in the Django cache under one key per round, so it works with eager tasks and
with Redis alike, whether or not Celery has a result backend; the admin's progress bar
and the API's progress endpoint read it back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from django.core.cache import cache

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a round is paired."""

ProgressState = Literal["idle", "queued", "running", "done", "failed"]

PROGRESS_TIMEOUT = 24 * 60 * 60
"""Seconds a progress record is kept (long after any pairing run ends)."""


def _progress_key(round_id: int) -> str:
    return f"league:round-pair-progress:{round_id}"


def round_pair_progress(*, round_id: int) -> dict[str, Any]:
    """The latest progress of pairing a round: state, done, total and a message."""
    found = cache.get(_progress_key(round_id))
    if not isinstance(found, dict):
        return {"state": "idle", "done": 0, "total": 0, "message": ""}
    return found


def round_pair_progress_record(
    *, round_id: int, state: ProgressState, done: int = 0, total: int = 0, message: str = ""
) -> None:
    """Record how far pairing a round has got (read back by ``round_pair_progress``)."""
    cache.set(
        _progress_key(round_id),
        {"state": state, "done": done, "total": total, "message": message},
        PROGRESS_TIMEOUT,
    )
