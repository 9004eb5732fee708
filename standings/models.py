"""Stored standings: one ``Standings`` per tournament, season or division, with its
freshness, and its ranked ``StandingsRow`` rows, written by ``standings.services``.

The tables keep the names they had when they lived in ``league`` (``league_standings``,
``league_standingsrow``), so that moving the models kept every row.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from league.models import Division, Entry, Partnership, Player, Season, Tournament
from standings.maths import TIEBREAKS


class Standings(models.Model):
    """The computed standings of one tournament, season or division, and their freshness.

    ``requested_version`` is bumped in the same transaction as every change that
    affects them: that is the durable dirty mark a refresh (or the sweep) clears.
    ``computed_version`` is the version the stored rows were computed from; a
    computation writes only when its version is newer, so an older run never
    overwrites a newer one. ``is_queued`` coalesces bursts: while a refresh is
    queued and not yet started, further requests only bump the version.
    """

    class EntrantKind(models.TextChoices):
        ENTRY = "entry", _("Entry")
        PLAYER = "player", _("Player")
        PARTNERSHIP = "partnership", _("Partnership")

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="standings"
    )
    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="standings"
    )
    division = models.OneToOneField(
        Division, on_delete=models.CASCADE, null=True, blank=True, related_name="standings"
    )
    entrant_kind = models.CharField(
        _("ranked"), max_length=12, choices=EntrantKind.choices, default=EntrantKind.ENTRY
    )
    tiebreaks = models.JSONField(_("tiebreak order used"), default=list, blank=True)
    requested_version = models.PositiveBigIntegerField(_("requested version"), default=0)
    computed_version = models.PositiveBigIntegerField(_("computed version"), default=0)
    is_queued = models.BooleanField(_("refresh queued"), default=False)
    requested_at = models.DateTimeField(_("requested at"), null=True, blank=True)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    compute_ms = models.PositiveIntegerField(_("computation time (ms)"), default=0)
    computed_count = models.PositiveIntegerField(_("times computed"), default=0)
    is_provisional = models.BooleanField(_("provisional"), default=False)

    class Meta:
        db_table = "league_standings"
        verbose_name = _("standings")
        verbose_name_plural = _("standings")
        constraints = [
            models.CheckConstraint(
                condition=Q(tournament__isnull=False, season__isnull=True, division__isnull=True)
                | Q(tournament__isnull=True, season__isnull=False, division__isnull=True)
                | Q(tournament__isnull=True, season__isnull=True, division__isnull=False),
                name="standings_one_scope",
            ),
        ]
        indexes = [
            models.Index(
                fields=["requested_at"],
                condition=Q(requested_version__gt=F("computed_version")),
                name="standings_dirty_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{_('standings')}: {self.tournament or self.division or self.season}"

    @property
    def is_dirty(self) -> bool:
        """True while a change is not yet reflected in the stored rows."""
        return self.requested_version > self.computed_version


class StandingsRow(models.Model):
    """One ranked entrant of a ``Standings``: the record, every tiebreak value, and
    why it stands above the next row (``separation``).

    A tiebreak's value reads as an attribute named by its key (``row.buchholz``), and
    a points value in half-points as ``row.points_scored_x2``, as the records count.
    """

    standings = models.ForeignKey(Standings, on_delete=models.CASCADE, related_name="rows")
    position = models.PositiveIntegerField(_("position"))
    rank = models.PositiveIntegerField(_("rank"))
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    partnership = models.ForeignKey(
        Partnership, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    name = models.CharField(_("name"), max_length=160)
    match_points = models.DecimalField(_("match points"), max_digits=12, decimal_places=4)
    tables_played = models.PositiveIntegerField(_("played"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    ties = models.PositiveIntegerField(_("ties"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    byes_count = models.PositiveIntegerField(_("byes"), default=0)
    # Every registered tiebreak's value by key, as an exact decimal string (null where
    # it never ranked the row), so that a new tiebreak needs no new column.
    tiebreak_values = models.JSONField(_("tiebreak values"), default=dict, blank=True)
    is_withdrawn = models.BooleanField(_("withdrawn"), default=False)
    withdrawn_round = models.PositiveSmallIntegerField(
        _("withdrew in round"), null=True, blank=True
    )
    playing_tables = models.JSONField(_("tables in play"), default=list, blank=True)
    separation = models.JSONField(_("why above the next row"), default=dict, blank=True)

    class Meta:
        db_table = "league_standingsrow"
        ordering = ["standings", "position"]
        verbose_name = _("standings row")
        verbose_name_plural = _("standings rows")
        constraints = [
            models.UniqueConstraint(
                fields=["standings", "position"], name="standingsrow_unique_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.name}"

    def __getattr__(self, name: str) -> Any:
        # Only reached for names the model does not have, so fields are never shadowed;
        # private names stay out (copying and pickling probe for them).
        if not name.startswith("_"):
            if name in TIEBREAKS:
                return self.tiebreak_value(name)
            if name.endswith("_x2") and name[:-3] in TIEBREAKS:
                value = self.tiebreak_value(name[:-3])
                return None if value is None else int(value * 2)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def tiebreak_value(self, key: str) -> Decimal | None:
        """The stored value of one tiebreak (``None`` if it never ranked this row, or
        the row was computed before the tiebreak existed)."""
        found = self.tiebreak_values.get(key)
        return None if found is None else Decimal(found)
