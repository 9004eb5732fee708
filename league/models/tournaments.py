"""Tournaments (format, table size, scoring, tiebreaks, organisers and scorekeepers) and
their entries: one player, or one partnership, and the players each entry fields.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.models.base import TimeStamped
from league.models.clubs import Club
from league.models.people import Partnership, Player
from league.models.rules import RuleSet
from league.models.seasons import Division, Season


class TournamentFormat(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin")
    SWISS = "swiss", _("Swiss")
    FIXED_PARTNERSHIP = "fixed_partnership", _("Fixed partnerships")
    ROTATING_PARTNER = "rotating_partner", _("Rotating-partner individual")
    LEAGUE_NIGHT = "league_night", _("League night")


class TableSize(models.TextChoices):
    TWO = "2", _("2 players")
    THREE = "3", _("3 players")
    FOUR = "4", _("4 players")
    MIXED = "3-4", _("Mixed 3 and 4 players")


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    REGISTRATION = "registration", _("Registration")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class EntryMode(models.TextChoices):
    TALLY = "tally", _("Tally (scoring plays)")
    TILES = "tiles", _("Tile by tile")


class Tournament(TimeStamped):
    Format = TournamentFormat
    TableSize = TableSize
    Status = TournamentStatus
    EntryMode = EntryMode

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=180, unique=True)
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("host club"),
    )
    accepts_visitors = models.BooleanField(
        _("open to players of other clubs"),
        default=False,
        help_text=_(
            "Visiting players may be entered; their contact details stay with their own club."
        ),
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("season"),
    )
    division = models.ForeignKey(
        Division,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("division"),
    )
    rule_set = models.ForeignKey(
        RuleSet,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("rule set"),
        help_text=_("Leave empty to use the season's rule set."),
    )
    format = models.CharField(
        _("format"), max_length=20, choices=Format.choices, default=Format.SWISS
    )
    table_size = models.CharField(
        _("table size"), max_length=3, choices=TableSize.choices, default=TableSize.TWO
    )
    rounds_count = models.PositiveSmallIntegerField(
        _("number of rounds"), default=5, validators=[MinValueValidator(1)]
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=160, blank=True)
    entry_mode = models.CharField(
        _("score entry mode"), max_length=5, choices=EntryMode.choices, default=EntryMode.TALLY
    )
    requires_confirmation = models.BooleanField(_("opponents confirm each hand"), default=False)
    allow_byes = models.BooleanField(_("allow byes"), default=True)
    # Scoring of a table (standings): match points for a win, a tie and a loss at
    # two-sided tables, by placing at three-player tables, and for a bye.
    points_win = models.DecimalField(
        _("match points for a win"), max_digits=4, decimal_places=1, default=Decimal(2)
    )
    points_tie = models.DecimalField(
        _("match points for a tie"), max_digits=4, decimal_places=1, default=Decimal(1)
    )
    points_loss = models.DecimalField(
        _("match points for a loss"), max_digits=4, decimal_places=1, default=Decimal(0)
    )
    placing_points_3 = models.JSONField(
        _("match points by placing at three-player tables"),
        default=list,
        blank=True,
        help_text=_("First, second, third; empty means 3, 1, 0."),
    )
    points_bye = models.DecimalField(
        _("match points for a bye"), max_digits=4, decimal_places=1, default=Decimal(2)
    )
    tiebreaks = models.JSONField(
        _("tiebreak order"),
        default=list,
        blank=True,
        help_text=_("Empty means the default order for the format."),
    )
    seed = models.PositiveIntegerField(
        _("random seed"),
        default=0,
        help_text=_("Recorded seed for pairings and the drawing of lots."),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="organised_tournaments",
        verbose_name=_("organisers"),
    )
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="scored_tournaments",
        verbose_name=_("scorekeepers"),
    )
    history = HistoricalRecords(m2m_fields=[organisers, scorekeepers])

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=Q(rounds_count__gte=1), name="tournament_rounds"),
            models.CheckConstraint(
                condition=Q(rule_set__isnull=False) | Q(season__isnull=False),
                name="tournament_has_rules",
            ),
            models.CheckConstraint(
                condition=Q(format__in=TournamentFormat.values), name="tournament_format_valid"
            ),
            models.CheckConstraint(
                condition=Q(table_size__in=TableSize.values), name="tournament_table_size_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=TournamentStatus.values), name="tournament_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:tournament", kwargs={"slug": self.slug})

    @property
    def effective_rule_set(self) -> RuleSet:
        """The tournament's own rule set, else its season's."""
        if self.rule_set_id is not None:
            return self.rule_set  # type: ignore[return-value]
        assert self.season is not None  # guaranteed by tournament_has_rules
        return self.season.rule_set

    @property
    def is_partnership_format(self) -> bool:
        return self.format == self.Format.FIXED_PARTNERSHIP


class Entry(TimeStamped):
    """A player, or a partnership in fixed-partnership formats, registered in a tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("player"),
    )
    partnership = models.ForeignKey(
        Partnership,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("partnership"),
    )
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    is_withdrawn = models.BooleanField(_("withdrawn"), default=False)
    withdrawn_round = models.PositiveSmallIntegerField(
        _("withdrew in round"), null=True, blank=True
    )
    is_checked_in = models.BooleanField(_("checked in"), default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "seed", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(partnership__isnull=True))
                | (Q(player__isnull=True) & Q(partnership__isnull=False)),
                name="entry_player_xor_partnership",
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(player__isnull=False),
                name="entry_one_per_player",
            ),
            models.UniqueConstraint(
                fields=["tournament", "partnership"],
                condition=Q(partnership__isnull=False),
                name="entry_one_per_partnership",
            ),
            models.CheckConstraint(
                condition=Q(is_withdrawn=True) | Q(withdrawn_round__isnull=True),
                name="entry_withdrawn_round_only_when_withdrawn",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        if self.partnership_id is not None:
            return str(self.partnership)
        return str(self.player)


class EntryMember(models.Model):
    """Who an entry puts at the tables: the player, or both partners.

    The tournament is repeated here so that one unique constraint keeps a player
    out of two entries (or two partnerships) of the same tournament.
    """

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("entry member")
        verbose_name_plural = _("entry members")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entrymember_player_once_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.entry}"
