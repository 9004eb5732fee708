"""Stored ratings: OpenSkill ratings across seasons, kept in step with table results by
``ratings.services`` (the maths is ``ratings.maths``).

A rated match is ordered by (finished_at, table id): ``RatingEvent.at`` is the result's
finished_at. Ratings are floats on purpose: they are estimates, not points. The tables
keep the names they had when they lived in ``league``.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.models import Partnership, Player, Season, Table


class RatingState(models.Model):
    """A current rating: the state after the subject's latest rated match."""

    mu = models.FloatField(_("mean skill (mu)"))
    sigma = models.FloatField(_("uncertainty (sigma)"))
    display = models.FloatField(_("rating"), help_text=_("Conservative: mu − 3 sigma."))  # noqa: RUF001
    matches_count = models.PositiveIntegerField(_("rated matches"), default=0)
    last_played_at = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        abstract = True


class PlayerRating(RatingState):
    """A player's current rating, rated in every table size they play."""

    player = models.OneToOneField(
        Player,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rating",
        verbose_name=_("player"),
    )

    class Meta:
        db_table = "league_playerrating"
        ordering = ["-display", "player"]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        indexes = [models.Index(fields=["-display"], name="playerrating_display_idx")]

    def __str__(self) -> str:
        return f"{self.player}: {self.display:.1f}"


class PartnershipRating(RatingState):
    """A fixed partnership's current rating as a unit (both sides fixed partnerships)."""

    partnership = models.OneToOneField(
        Partnership,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rating",
        verbose_name=_("partnership"),
    )

    class Meta:
        db_table = "league_partnershiprating"
        ordering = ["-display", "partnership"]
        verbose_name = _("partnership rating")
        verbose_name_plural = _("partnership ratings")

    def __str__(self) -> str:
        return f"{self.partnership}: {self.display:.1f}"


class RatingEvent(models.Model):
    """What one rated match did to one player's (or one partnership's) rating."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="rating_events", verbose_name=_("table")
    )
    # The player, partnership and season columns lead composite indexes (Meta), so
    # their own foreign-key indexes would only slow the bulk writes of a recompute.
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        db_index=False,
        related_name="rating_events",
        verbose_name=_("player"),
    )
    partnership = models.ForeignKey(
        Partnership,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        db_index=False,
        related_name="rating_events",
        verbose_name=_("partnership"),
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        db_index=False,
        related_name="+",
        verbose_name=_("season"),
    )
    at = models.DateTimeField(_("match finished at"))
    result_updated_at = models.DateTimeField(_("result version rated"))
    side = models.PositiveSmallIntegerField(_("side"), validators=[MaxValueValidator(3)])
    placing = models.PositiveSmallIntegerField(_("placing"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    display_after = models.FloatField(_("rating after"))
    expected = models.FloatField(_("predicted chance of finishing first"))

    class Meta:
        db_table = "league_ratingevent"
        ordering = ["at", "table_id", "id"]
        verbose_name = _("rating event")
        verbose_name_plural = _("rating events")
        constraints = [
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(partnership__isnull=True))
                | (Q(player__isnull=True) & Q(partnership__isnull=False)),
                name="ratingevent_player_xor_partnership",
            ),
            models.UniqueConstraint(
                fields=["table", "player"],
                condition=Q(player__isnull=False),
                name="ratingevent_once_per_player",
            ),
            models.UniqueConstraint(
                fields=["table", "partnership"],
                condition=Q(partnership__isnull=False),
                name="ratingevent_once_per_partnership",
            ),
            models.CheckConstraint(
                condition=Q(expected__gte=0, expected__lte=1), name="ratingevent_expected_0_to_1"
            ),
        ]
        indexes = [
            models.Index(fields=["at", "table"], name="ratingevent_order_idx"),
            models.Index(fields=["player", "at", "table"], name="ratingevent_player_idx"),
            models.Index(fields=["partnership", "at", "table"], name="ratingevent_partner_idx"),
            models.Index(fields=["season", "player"], name="ratingevent_season_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player or self.partnership} @ {self.table}: {self.display_after:.1f}"
