"""What pairing stores of its own: the latest request to pair each round.

A pairing task can arrive late: Celery hands a task out again when the worker that
took it died, once the broker's visibility timeout passes, and by then the organiser
may have asked again, edited the new draft by hand or published the round. Each
request gets a fresh ``token`` that its task carries; the task pairs only while its
token is the round's latest and not yet answered, so a late or repeated delivery
changes nothing (``pairing.services.pairing.round_pair``).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class PairingRequest(models.Model):
    """The latest request to pair a round, and whether a task has answered it."""

    round = models.OneToOneField(
        "league.Round",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="pairing_request",
        verbose_name=_("round"),
    )
    token = models.UUIDField(_("request token"))
    requested_at = models.DateTimeField(_("requested at"))
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("pairing request")
        verbose_name_plural = _("pairing requests")

    def __str__(self) -> str:
        return f"{self.round_id}: {self.token}"
