"""Remembering the first response to a request sent with an ``Idempotency-Key``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from matches.models import IdempotentRequest


def idempotent_request_store(
    *,
    key: str,
    user: Any,
    endpoint: str,
    request_hash: str,
    status_code: int,
    body: Any,
) -> IdempotentRequest:
    """Keep a response; raises ``IntegrityError`` if the key was stored meanwhile."""
    return IdempotentRequest.objects.create(
        key=key,
        user=user,
        endpoint=endpoint,
        request_hash=request_hash,
        status_code=status_code,
        body=body,
    )


def idempotent_requests_purge(*, before: datetime) -> int:
    """Forget keys older than ``before`` (resends come within minutes, not days)."""
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=before).delete()
    return deleted
