"""Celery tasks of entrants: thin wrappers that call one service."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from entrants.services.notifications import notification_fail, notification_send

#: Tries after the first, and the first pause (doubling each time) before a retry.
MAIL_RETRIES = 4
MAIL_BACKOFF_SECONDS = 30


@shared_task(bind=True, name="entrants.notification_send", max_retries=MAIL_RETRIES)
def notification_send_task(self: Any, notification_id: int) -> Any:
    """Send one player's mail; a failure is retried with backoff, the last one recorded.

    The retry is asked for explicitly (not ``autoretry_for``) so that the last failure
    is recorded and swallowed instead of raised into whoever published the round. Run
    eagerly (no broker), the retry is handed back for ``apply`` to run at once: raised,
    the eager run would propagate it."""
    try:
        notification_send(notification_id=notification_id)
    except Exception as exc:
        if self.request.retries >= self.max_retries:
            notification_fail(notification_id=notification_id)
            return None
        countdown = MAIL_BACKOFF_SECONDS * 2**self.request.retries
        return self.retry(exc=exc, countdown=countdown, throw=not self.request.is_eager)
    return None
