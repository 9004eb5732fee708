"""Telling players their table and seat when a round is published.

``round_published_notify`` (a ``league.hooks`` publish listener) records one
``Notification`` per checked-in player who gave an email and agreed to mail, and after
the commit queues ``notification_send_task`` for each; the task retries a failure with
growing pauses and, after the last try, leaves the notification *failed* with its
error, for the organiser to see and queue again (``notifications_retry``). It lives
apart from the sending because it imports the task module, which imports that.
"""

from __future__ import annotations

import functools

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from entrants.models import Application, Notification
from entrants.tasks import notification_send_task
from league.dispatch import task_enqueue_on_commit
from league.models import Round


def _queue(ids: list[int]) -> None:
    for notification_id in ids:
        task_enqueue_on_commit(
            notification_send_task,
            notification_id,
            on_failure=functools.partial(_broker_refused, notification_id),
        )


def _broker_refused(notification_id: int) -> None:
    Notification.objects.filter(pk=notification_id, status=Notification.Status.QUEUED).update(
        status=Notification.Status.FAILED, last_error=_("The task queue refused the mail.")
    )


def round_published_notify(round: Round) -> None:
    """Record the mail owed for ``round`` and queue it once the publication commits."""
    applications = Application.objects.filter(
        tournament_id=round.tournament_id,
        status=Application.Status.APPROVED,
        may_email=True,
        entry__is_checked_in=True,
        entry__seats__table__round=round,
    ).exclude(email="")
    created = [
        Notification.objects.get_or_create(
            round=round, application=application, defaults={"email": application.email}
        )[0]
        for application in applications.distinct()
    ]
    _queue([n.pk for n in created if n.status == Notification.Status.QUEUED])


def notifications_retry(*, notifications: QuerySet[Notification]) -> int:
    """Queue failed notifications again (the organiser's action); returns how many."""
    ids = list(notifications.filter(status=Notification.Status.FAILED).values_list("pk", flat=True))
    Notification.objects.filter(pk__in=ids).update(status=Notification.Status.QUEUED)
    _queue(ids)
    return len(ids)
