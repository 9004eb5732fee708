"""Celery tasks of pairing: a thin wrapper that takes a round's id and calls one service.

Progress goes to the cache (and to the result backend when there is one), so that the
admin and the API can show it.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.backends.base import DisabledBackend

from pairing.services.pairing import round_pair_run


@shared_task(bind=True, name="pairing.round_pair")
def round_pair_task(
    self: Any,
    round_id: int,
    seed: int | None = None,
    language: str | None = None,
    request: str | None = None,
) -> dict[str, Any]:
    """Pair a draft round (``seed``: None for the recorded one) for the pairing request
    with token ``request``; returns the quality report, ``{"error": message}`` when the
    organiser has something to fix, or ``{"superseded": True}`` when a newer request
    (or an earlier delivery of this one) has been answered instead."""

    def backend_progress(done: int, total: int) -> None:
        if not self.request.is_eager and not isinstance(self.backend, DisabledBackend):
            self.update_state(state="PROGRESS", meta={"done": done, "total": total})

    return round_pair_run(
        round_id=round_id,
        seed=seed,
        language=language,
        request=request,
        on_progress=backend_progress,
    )
