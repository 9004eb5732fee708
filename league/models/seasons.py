"""Seasons and their divisions: the long competitions that tournaments and league nights
belong to.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from league.models.base import TimeStamped
from league.models.clubs import Club
from league.models.rules import RuleSet


class Season(TimeStamped):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seasons",
        verbose_name=_("club"),
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    rule_set = models.ForeignKey(
        RuleSet, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("rule set")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:season", kwargs={"slug": self.slug})


class Division(TimeStamped):
    """A tier of a season; its table aggregates its tournaments and league nights."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=80)
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    promotion_count = models.PositiveSmallIntegerField(_("promotion places"), default=0)
    relegation_count = models.PositiveSmallIntegerField(_("relegation places"), default=0)

    class Meta:
        ordering = ["season", "order", "name"]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="division_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.season} — {self.name}"
