"""Sending one player's mail of a published round and recording what came of it.

``notification_send`` sends and records the attempt (the error, when the backend
raised); ``notification_fail`` marks it failed for good once the task's tries are spent.
The mail is queued by ``entrants.services.announce``.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.utils import timezone

from entrants.messages import seat_mail
from entrants.models import Notification
from league.models import Seat

log = logging.getLogger(__name__)


def _seat_of(notification: Notification) -> Seat | None:
    application = notification.application
    assert application.entry_id is not None
    seats = Seat.objects.filter(
        entry_id=application.entry_id, table__round_id=notification.round_id
    ).select_related("table__round__tournament", "player")
    return seats.order_by("number").first()


def notification_send(*, notification_id: int) -> Notification:
    """Send one notification's mail now; raises what the mail backend raised, after
    recording the attempt and the error."""
    notification = Notification.objects.select_related("application").get(pk=notification_id)
    if notification.status == Notification.Status.SENT:
        return notification
    seat = _seat_of(notification)
    notification.attempts_count += 1
    if seat is None:  # re-paired since: nothing to tell
        notification.status = Notification.Status.FAILED
        notification.last_error = "no seat in this round"
        notification.save(update_fields=["attempts_count", "status", "last_error"])
        return notification
    subject, body = seat_mail(seat=seat, language=notification.application.language)
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [notification.email])
    except Exception as exc:
        notification.last_error = f"{type(exc).__name__}: {exc}"[:2000]
        notification.save(update_fields=["attempts_count", "last_error"])
        raise
    notification.status = Notification.Status.SENT
    notification.sent_at = timezone.now()
    notification.last_error = ""
    notification.save(update_fields=["attempts_count", "status", "sent_at", "last_error"])
    return notification


def notification_fail(*, notification_id: int) -> None:
    """Mark a notification failed for good (its tries are spent)."""
    Notification.objects.filter(pk=notification_id).exclude(status=Notification.Status.SENT).update(
        status=Notification.Status.FAILED
    )
