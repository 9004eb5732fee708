"""Celery tasks of matches: thin wrappers that call one service.

Score entry itself needs no task: every write is synchronous and judged by the
engine at once; the standings refresh after a result is league's own (it hooks
``table_result_record``).
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from matches.services.idempotency import idempotent_requests_purge
from matches.services.offline import device_sends_purge

#: How long a resend can still be recognised: far longer than any phone retries.
IDEMPOTENCY_KEEP = timedelta(days=2)


@shared_task(name="matches.idempotent_requests_purge")
def idempotent_requests_purge_task() -> int:
    """Forget idempotency keys (the API's, and those of hands sent from a phone's queue)
    older than two days; returns how many went."""
    before = timezone.now() - IDEMPOTENCY_KEEP
    return idempotent_requests_purge(before=before) + device_sends_purge(before=before)
