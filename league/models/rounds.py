"""Rounds of a tournament, their tables and seats, and what came of each table (its
result, side by side, in integer half-points).
"""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from allfives import side_of
from league.models.base import TimeStamped
from league.models.people import Player
from league.models.tournaments import Entry, Tournament


class Round(TimeStamped):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        FINISHED = "finished", _("Finished")

    class Stage(models.TextChoices):
        """How the round's tables are drawn: by the tournament's format (paired), or by
        a knockout bracket, whose winners advance to the next round's tables."""

        PAIRED = "paired", _("Paired by the format")
        KNOCKOUT = "knockout", _("Knockout")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    stage = models.CharField(_("stage"), max_length=10, choices=Stage.choices, default=Stage.PAIRED)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    # The round clock (docs/rules.md R24), when the rule set has a time limit.
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    time_called_at = models.DateTimeField(_("time called at"), null=True, blank=True)
    pairing_seed = models.PositiveIntegerField(_("pairing seed"), null=True, blank=True)
    quality = models.JSONField(_("pairing quality report"), default=dict, blank=True)
    byes = models.ManyToManyField(Entry, blank=True, related_name="bye_rounds")
    history = HistoricalRecords(m2m_fields=[byes])

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "published", "finished"]),
                name="round_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(stage__in=["paired", "knockout"]), name="round_stage_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {_('round')} {self.number}"

    @property
    def is_public(self) -> bool:
        return self.status != self.Status.DRAFT

    @property
    def is_knockout(self) -> bool:
        return self.stage == self.Stage.KNOCKOUT


class Table(TimeStamped):
    """One table of a round: its seats, the target that applies, and later its result."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table number"), validators=[MinValueValidator(1)])
    player_count = models.PositiveSmallIntegerField(
        _("players"), validators=[MinValueValidator(2), MaxValueValidator(4)]
    )
    target = models.PositiveIntegerField(_("target"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    cost = models.JSONField(_("why this table"), default=dict, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
            models.CheckConstraint(
                condition=Q(player_count__gte=2, player_count__lte=4),
                name="table_player_count_2_to_4",
            ),
            models.CheckConstraint(condition=Q(target__gt=0), name="table_target_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} — {_('table')} {self.number}"


class Seat(models.Model):
    """A player's seat at a table (0 to 3, clockwise; seats 0+2 and 1+3 are partners)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    number = models.PositiveSmallIntegerField(
        _("seat"), validators=[MinValueValidator(0), MaxValueValidator(3)]
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="seats", verbose_name=_("entry")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_once"),
            models.CheckConstraint(
                condition=Q(number__gte=0, number__lte=3), name="seat_number_0_to_3"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} — {_('seat')} {self.number + 1}: {self.player}"  # people count from 1

    def side(self, player_count: int) -> int:
        """The side this seat plays for, named by its lowest seat (R2)."""
        return side_of(self.number, player_count)


class ResultKind(models.TextChoices):
    """How a table's result came about: played hand by hand, or recorded without hands."""

    PLAYED = "played", _("Played")
    FORFEIT = "forfeit", _("Walkover")
    DOUBLE_FORFEIT = "double_forfeit", _("Double walkover")
    AGREED = "agreed", _("Agreed score")


class TableResult(TimeStamped):
    """What came of a table's match: handed over by score entry as plain values, or
    recorded by an organiser without hands (a forfeit, a double forfeit, an agreed score)."""

    Kind = ResultKind

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="result", verbose_name=_("table")
    )
    finished_at = models.DateTimeField(_("finished at"))
    hands_count = models.PositiveSmallIntegerField(_("hands played"), default=0)
    is_tie = models.BooleanField(_("tie"), default=False)
    kind = models.CharField(
        _("kind of result"), max_length=14, choices=ResultKind.choices, default=ResultKind.PLAYED
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-finished_at"]
        verbose_name = _("table result")
        verbose_name_plural = _("table results")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=ResultKind.values), name="tableresult_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{_('result')}: {self.table}"

    @property
    def is_forfeit(self) -> bool:
        """A forfeit or a double forfeit: nobody played, so nothing is rated (ratings)."""
        return self.kind in (ResultKind.FORFEIT, ResultKind.DOUBLE_FORFEIT)

    @property
    def has_hands(self) -> bool:
        """The result came from hands played and recorded."""
        return self.kind == ResultKind.PLAYED


class TableResultSide(models.Model):
    """One side's line of a table result: points in half-points, placing, hands won."""

    result = models.ForeignKey(TableResult, on_delete=models.CASCADE, related_name="sides")
    side = models.PositiveSmallIntegerField(_("side"), validators=[MaxValueValidator(3)])
    points_x2 = models.PositiveIntegerField(_("points (half-points)"))
    placing = models.PositiveSmallIntegerField(_("placing"), validators=[MinValueValidator(1)])
    hands_won = models.PositiveSmallIntegerField(_("hands won"), default=0)
    is_winner = models.BooleanField(_("winner"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["result", "side"]
        verbose_name = _("result side")
        verbose_name_plural = _("result sides")
        constraints = [
            models.UniqueConstraint(fields=["result", "side"], name="resultside_unique_side"),
            models.CheckConstraint(
                condition=Q(placing__gte=1, placing__lte=3), name="resultside_placing_1_to_3"
            ),
            models.CheckConstraint(condition=Q(side__lte=3), name="resultside_side_0_to_3"),
        ]

    def __str__(self) -> str:
        return f"{self.result} — {_('side')} {self.side}"

    @property
    def points(self) -> Decimal:
        return Decimal(self.points_x2) / 2
