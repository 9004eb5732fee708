"""The league's data: who plays (players, partnerships), under which rules (rule sets),
when (seasons, divisions, tournaments, rounds) and where (tables and their seats), and
what came of it (table results).

Vocabulary (RULES.md): a *side* is one player, or a partnership at four-player tables;
seats 0+2 and 1+3 are partners. A *round* is a tournament round (Indonesian UI:
*putaran*); a match is played at a table until a side reaches its target.

Rules that must always hold are database constraints, not only form checks. Points
that can be halves (the three-player split, RULES.md R20) are stored as integer
half-points (``points_x2``). ``league`` never imports ``matches``: a finished match is
handed here as plain values (``league.services.results.table_result_record``).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from allfives import DEFAULT_BLOCKED_AWARD, DEFAULT_HAND_SIZES, DEFAULT_TARGETS, Rules

PLAYER_COUNTS = (2, 3, 4)


class TimeStamped(models.Model):
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        abstract = True


class Player(TimeStamped):
    """A person who plays. Contact fields are private: never shown publicly."""

    name = models.CharField(_("name"), max_length=120)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    email = models.EmailField(_("email (private)"), blank=True)
    phone = models.CharField(_("phone (private)"), max_length=40, blank=True)
    is_active = models.BooleanField(_("active"), default=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.name} ({self.nickname})" if self.nickname else self.name

    def get_absolute_url(self) -> str:
        return reverse("league:player", kwargs={"slug": self.slug})


class BlockedAward(models.TextChoices):
    OPPONENTS = "opponents", _("Opponents' pips")
    DIFFERENCE = "difference", _("Difference in pips")


class RuleSet(TimeStamped):
    """Named rules: a target and a hand size per player count, and the blocked award.

    The defaults are the engine's (``allfives.DEFAULT_*``), so they live in one place.
    """

    name = models.CharField(_("name"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True)
    target_2 = models.PositiveIntegerField(_("target, 2 players"), default=DEFAULT_TARGETS[2])
    target_3 = models.PositiveIntegerField(_("target, 3 players"), default=DEFAULT_TARGETS[3])
    target_4 = models.PositiveIntegerField(_("target, 4 players"), default=DEFAULT_TARGETS[4])
    hand_size_2 = models.PositiveSmallIntegerField(
        _("tiles dealt, 2 players"), default=DEFAULT_HAND_SIZES[2]
    )
    hand_size_3 = models.PositiveSmallIntegerField(
        _("tiles dealt, 3 players"), default=DEFAULT_HAND_SIZES[3]
    )
    hand_size_4 = models.PositiveSmallIntegerField(
        _("tiles dealt, 4 players"), default=DEFAULT_HAND_SIZES[4]
    )
    blocked_award = models.CharField(
        _("blocked hand award"),
        max_length=12,
        choices=BlockedAward.choices,
        default=DEFAULT_BLOCKED_AWARD,
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        constraints = [
            models.CheckConstraint(
                condition=Q(target_2__gt=0) & Q(target_3__gt=0) & Q(target_4__gt=0),
                name="ruleset_targets_positive",
            ),
            # Every player must be dealt a tile and the deal must fit in 28 tiles (R1, R3).
            models.CheckConstraint(
                condition=Q(hand_size_2__gte=1, hand_size_2__lte=14)
                & Q(hand_size_3__gte=1, hand_size_3__lte=9)
                & Q(hand_size_4__gte=1, hand_size_4__lte=7),
                name="ruleset_hand_sizes_fit_the_set",
            ),
            models.CheckConstraint(
                condition=Q(blocked_award__in=BlockedAward.values),
                name="ruleset_blocked_award_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def target_for(self, players: int) -> int:
        return int(getattr(self, f"target_{players}"))

    def to_rules(self) -> Rules:
        """The engine's view of this rule set."""
        return Rules(
            targets={n: self.target_for(n) for n in PLAYER_COUNTS},
            hand_sizes={n: int(getattr(self, f"hand_size_{n}")) for n in PLAYER_COUNTS},
            blocked_award="difference"
            if self.blocked_award == BlockedAward.DIFFERENCE
            else "opponents",
        )


class Season(TimeStamped):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

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


class Partnership(TimeStamped):
    """Two distinct players who play together at four-player tables."""

    name = models.CharField(_("name"), max_length=120)
    player_a = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player A")
    )
    player_b = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player B")
    )
    seasons = models.ManyToManyField(
        Season, blank=True, related_name="partnerships", verbose_name=_("seasons")
    )
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    is_active = models.BooleanField(_("active"), default=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("partnership")
        verbose_name_plural = _("partnerships")
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_a=F("player_b")), name="partnership_two_distinct_players"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:partnership", kwargs={"slug": self.slug})

    @property
    def players(self) -> tuple[Player, Player]:
        return (self.player_a, self.player_b)


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


class Round(TimeStamped):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
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
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {_('round')} {self.number}"

    @property
    def is_public(self) -> bool:
        return self.status != self.Status.DRAFT


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
        return f"{self.table} — {_('seat')} {self.number}: {self.player}"

    def side(self, player_count: int) -> int:
        """The side this seat plays for, named by its lowest seat (SCORESHEET.md)."""
        return self.number % 2 if player_count == 4 else self.number


class TableResult(TimeStamped):
    """What came of a table's match, handed over by score entry as plain values."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="result", verbose_name=_("table")
    )
    finished_at = models.DateTimeField(_("finished at"))
    hands_count = models.PositiveSmallIntegerField(_("hands played"), default=0)
    is_tie = models.BooleanField(_("tie"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-finished_at"]
        verbose_name = _("table result")
        verbose_name_plural = _("table results")

    def __str__(self) -> str:
        return f"{_('result')}: {self.table}"


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


# ---------------------------------------------------------------------------------------
# Standings (issue 6): materialised standings rows, written by league.standings.services.
# This section is appended and kept at the end of the file.
# ---------------------------------------------------------------------------------------


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
    why it stands above the next row (``separation``)."""

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
    points_scored_x2 = models.PositiveIntegerField(_("points scored (half-points)"), default=0)
    points_difference_x2 = models.IntegerField(_("points difference (half-points)"), default=0)
    target_share = models.DecimalField(_("target share"), max_digits=7, decimal_places=4)
    head_to_head = models.DecimalField(
        _("head-to-head"), max_digits=12, decimal_places=4, null=True, blank=True
    )
    buchholz = models.DecimalField(_("Buchholz"), max_digits=14, decimal_places=4)
    median_buchholz = models.DecimalField(_("median-Buchholz"), max_digits=14, decimal_places=4)
    sonneborn_berger = models.DecimalField(_("Sonneborn-Berger"), max_digits=14, decimal_places=4)
    table_mates_strength = models.DecimalField(
        _("strength of table-mates"), max_digits=12, decimal_places=4
    )
    hands_won = models.PositiveIntegerField(_("hands won"), default=0)
    lot = models.PositiveBigIntegerField(_("lot"), default=0)
    is_withdrawn = models.BooleanField(_("withdrawn"), default=False)
    withdrawn_round = models.PositiveSmallIntegerField(
        _("withdrew in round"), null=True, blank=True
    )
    playing_tables = models.JSONField(_("tables in play"), default=list, blank=True)
    separation = models.JSONField(_("why above the next row"), default=dict, blank=True)

    class Meta:
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

    @property
    def points_scored(self) -> Decimal:
        return Decimal(self.points_scored_x2) / 2

    @property
    def points_difference(self) -> Decimal:
        return Decimal(self.points_difference_x2) / 2


# ---------------------------------------------------------------------------------------
# Ratings (issue 10): OpenSkill ratings across seasons, kept in step with table results by
# league.ratings.services (the maths is league.ratings.maths). Appended; keep at the end.
# A rated match is ordered by (finished_at, table id): ``RatingEvent.at`` is the result's
# finished_at. Ratings are floats on purpose: they are estimates, not points.
# ---------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------
# API tokens (issue 9): keys for programs, stored hashed. Appended at the end of the file.
# ---------------------------------------------------------------------------------------


class ApiToken(models.Model):
    """A key a program sends as ``Authorization: Token <key>`` (or ``Bearer <key>``).

    Only the key's SHA-256 is stored: the key itself is shown once, when it is
    created, and cannot be read back. ``key_prefix`` (the first characters) lets a
    person tell their tokens apart. A revoked token is kept (for the record) and
    never authenticates again.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=80)
    key_prefix = models.CharField(_("key starts with"), max_length=12, editable=False)
    key_hash = models.CharField(_("key hash (SHA-256)"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.key_prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
