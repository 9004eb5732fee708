"""The league's data: who plays (players, partnerships), under which rules (rule sets),
when (seasons, divisions, tournaments, rounds) and where (tables and their seats), and
what came of it (table results).

Vocabulary (docs/rules.md): a *side* is one player, or a partnership at four-player tables;
seats 0+2 and 1+3 are partners. A *round* is a tournament round (Indonesian UI:
*putaran*); a match is played at a table until a side reaches its target.

Rules that must always hold are database constraints, not only form checks. Points
that can be halves (the three-player split, docs/rules.md R20) are stored as integer
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

from allfives import DEFAULT_BLOCKED_AWARD, DEFAULT_HAND_SIZES, DEFAULT_TARGETS, Rules, side_of

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
        """The side this seat plays for, named by its lowest seat (R2)."""
        return side_of(self.number, player_count)


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
