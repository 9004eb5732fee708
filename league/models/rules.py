"""Rule sets: the organisers' named choices of the engine's options (targets by player
count, hand sizes, the blocked award; docs/rules.md R3, R4, R20).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from allfives import DEFAULT_BLOCKED_AWARD, DEFAULT_HAND_SIZES, DEFAULT_TARGETS, Rules
from league.models.base import PLAYER_COUNTS, TimeStamped
from league.models.clubs import Club


class BlockedAward(models.TextChoices):
    OPPONENTS = "opponents", _("Opponents' pips")
    DIFFERENCE = "difference", _("Difference in pips")


class KnockoutTie(models.TextChoices):
    """How a tied table of a knockout round is decided (the pure rule lives in
    ``pairing.algorithms.knockout.TieRule``, with the same values)."""

    EXTRA_HAND = "extra_hand", _("One more hand, repeated while tied")
    HIGHER_SEED = "higher_seed", _("The higher seed advances")


class RuleSet(TimeStamped):
    """Named rules: a target and a hand size per player count, and the blocked award.

    The defaults are the engine's (``allfives.DEFAULT_*``), so they live in one place.
    """

    name = models.CharField(_("name"), max_length=80, unique=True)
    # No club: one of the rule sets shipped with the service, shared and read-only; a
    # club copies one to change it.
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rule_sets",
        verbose_name=_("club"),
        help_text=_("Empty for the shared rule sets shipped with the service."),
    )
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
    # Results without hands (league/services/results.py).
    forfeit_win_points = models.PositiveIntegerField(
        _("points for a forfeit win"),
        null=True,
        blank=True,
        help_text=_("The points credited to the side present; empty means the table's target."),
    )
    forfeit_loss_points = models.PositiveIntegerField(_("points for a forfeit loss"), default=0)
    forfeit_points_count = models.BooleanField(
        _("forfeit points count in tiebreaks"),
        default=False,
        help_text=_(
            "Count a forfeit's points in points scored, points difference, target share "
            "and hands won; otherwise a forfeit gives only its match points."
        ),
    )
    # The round clock (docs/rules.md R24).
    time_limit = models.PositiveSmallIntegerField(
        _("time limit per round (minutes)"),
        null=True,
        blank=True,
        help_text=_("Play to the target or until time is called; empty means no clock."),
    )
    knockout_tie = models.CharField(
        _("a tied knockout match"),
        max_length=12,
        choices=KnockoutTie.choices,
        default=KnockoutTie.EXTRA_HAND,
        help_text=_("How a knockout table that ends in a tie decides who advances."),
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
            models.CheckConstraint(
                condition=Q(time_limit__isnull=True) | Q(time_limit__gte=1),
                name="ruleset_time_limit_positive",
            ),
            models.CheckConstraint(
                condition=Q(knockout_tie__in=KnockoutTie.values),
                name="ruleset_knockout_tie_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_shared(self) -> bool:
        """A shipped rule set: every club uses it, nobody but the superuser changes it."""
        return self.club_id is None

    def target_for(self, players: int) -> int:
        return int(getattr(self, f"target_{players}"))

    def forfeit_points(self, *, target: int) -> tuple[int, int]:
        """The points of a forfeit's winner and loser at a table of this target."""
        win = target if self.forfeit_win_points is None else int(self.forfeit_win_points)
        return win, int(self.forfeit_loss_points)

    def to_rules(self) -> Rules:
        """The engine's view of this rule set."""
        return Rules(
            targets={n: self.target_for(n) for n in PLAYER_COUNTS},
            hand_sizes={n: int(getattr(self, f"hand_size_{n}")) for n in PLAYER_COUNTS},
            blocked_award="difference"
            if self.blocked_award == BlockedAward.DIFFERENCE
            else "opponents",
            time_limit=None if self.time_limit is None else int(self.time_limit),
        )
