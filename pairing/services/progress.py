"""Progress of a pairing run (idle, queued, running i of n, done, failed), recorded and read.

It is kept in the Django cache under one key per round, so it works with eager tasks and
with Redis alike, whether or not Celery has a result backend; the admin's progress bar
and the API's progress endpoint read it back. Each record also holds when it was
written and the request it answers (``pairing.models.PairingRequest``): a task writes
only the progress of the request it answers, never over a newer one's; and a run whose
progress has not moved for longer than a task can live (its worker died; the broker's
visibility timeout, ``CELERY_VISIBILITY_TIMEOUT``) reads as failed, so the organiser
pairs again instead of watching "running" for an hour.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a round is paired."""

ProgressState = Literal["idle", "queued", "running", "done", "failed"]

PROGRESS_TIMEOUT = 24 * 60 * 60
"""Seconds a progress record is kept (long after any pairing run ends)."""

ACTIVE_STATES = ("queued", "running")


def _progress_key(round_id: int) -> str:
    return f"league:round-pair-progress:{round_id}"


def round_pair_progress_stale_after() -> float:
    """Seconds after which a queued or running pairing that has not moved has failed."""
    return float(settings.CELERY_VISIBILITY_TIMEOUT)


def round_pair_progress(*, round_id: int) -> dict[str, Any]:
    """The latest progress of pairing a round: state, done, total and a message."""
    found = cache.get(_progress_key(round_id))
    if not isinstance(found, dict):
        return {"state": "idle", "done": 0, "total": 0, "message": ""}
    progress = {key: found[key] for key in ("state", "done", "total", "message")}
    written_at = found.get("at")
    if (
        progress["state"] in ACTIVE_STATES
        and isinstance(written_at, int | float)
        and time.time() - written_at > round_pair_progress_stale_after()
    ):
        progress["state"] = "failed"
        progress["message"] = _(
            "The pairing stopped: the worker running it was lost. Pair the round again."
        )
    return progress


def round_pair_progress_record(
    *,
    round_id: int,
    state: ProgressState,
    done: int = 0,
    total: int = 0,
    message: str = "",
    request: str | None = None,
    is_new_request: bool = False,
) -> None:
    """Record how far pairing a round has got (read back by ``round_pair_progress``).

    With ``request`` (the token of the request being answered) the record is written
    only while no newer request has recorded its own progress; ``is_new_request``
    (the request itself, being made) replaces whatever was recorded."""
    key = _progress_key(round_id)
    if request is not None and not is_new_request:
        current = cache.get(key)
        if isinstance(current, dict) and current.get("request") not in (None, request):
            return
    cache.set(
        key,
        {
            "state": state,
            "done": done,
            "total": total,
            "message": message,
            "at": time.time(),
            "request": request,
        },
        PROGRESS_TIMEOUT,
    )
