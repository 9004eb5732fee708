"""Shared pieces of the league's models: the player counts a table can have and the
created/updated timestamps every row keeps.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

PLAYER_COUNTS = (2, 3, 4)


class TimeStamped(models.Model):
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        abstract = True
