"""Matches and their hands, as entered and as the rules engine judged them.

A *match* is played at a league table (or, as a friendly, between registered
players with no table) until a side reaches its target (docs/rules.md R22). Each
*hand* keeps two things side by side: the scoresheet hand exactly as the
scorekeeper entered it (docs/scoresheet.md, tally or tile-by-tile) and the engine's
verdict on it (points per side, end-of-hand bonus, how it ended, who won it, who
leads next). Nothing in the verdict is ever typed in: every write replays the whole
match through ``allfives.replay`` and stores what it says. A hand's *events* (each
move or scoring play) are kept as rows for statistics and the public pages.

Points are integer half-points (``*_x2``): the three-player split (R20) makes
halves real. ``version`` increases on every write: a write that carries a stale
version is refused (two scorekeepers can never both win). Every change to a match
or a hand is kept in its history (who, when, before and after).
"""

from __future__ import annotations

import base64
import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from league.models import EntryMode, Player, RuleSet, Table, Tournament


class MatchStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class HandMode(models.TextChoices):
    TALLY = "tally", _("Tally")
    TILES = "tiles", _("Tile by tile")


class HandEnd(models.TextChoices):
    DOMINO = "domino", _("Domino")
    BLOCKED = "blocked", _("Blocked")
    TARGET = "target", _("Target reached")


class Match(models.Model):
    """One match: at a league table, or a friendly between registered players."""

    Status = MatchStatus
    EntryMode = EntryMode

    table = models.OneToOneField(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="match",
        verbose_name=_("table"),
    )
    # The table's tournament, repeated so that permission checks need no joins;
    # empty for a friendly match.
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="matches",
        verbose_name=_("tournament"),
    )
    # Friendly matches only: the rule set chosen when it was created.
    rule_set = models.ForeignKey(
        RuleSet,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches",
        verbose_name=_("rule set"),
    )
    player_count = models.PositiveSmallIntegerField(
        _("players"), validators=[MinValueValidator(2), MaxValueValidator(4)]
    )
    #: The engine's ``"rules"`` object (docs/scoresheet.md), fixed when the match is created;
    #: the target for this player count is the table's.
    rules = models.JSONField(_("rules"), default=dict)
    target = models.PositiveIntegerField(_("target"))
    entry_mode = models.CharField(
        _("score entry mode"), max_length=5, choices=EntryMode.choices, default=EntryMode.TALLY
    )
    requires_confirmation = models.BooleanField(_("opponents confirm each hand"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=MatchStatus.choices, default=MatchStatus.SCHEDULED
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    #: The engine's verdict on the whole match: totals per side in half-points.
    totals_x2 = models.JSONField(_("totals (half-points)"), default=dict)
    winners = models.JSONField(_("winning sides"), default=list)
    is_tie = models.BooleanField(_("tie"), default=False)
    next_leader = models.PositiveSmallIntegerField(_("next leader"), null=True, blank=True)
    hands_count = models.PositiveSmallIntegerField(_("hands"), default=0)
    #: The round clock (docs/rules.md R24): time was called while this many hands had
    #: been begun, so the match ends once that hand is complete; None while not called.
    time_called_after = models.PositiveSmallIntegerField(
        _("time called after hand"), null=True, blank=True
    )
    time_called_at = models.DateTimeField(_("time called at"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    history = HistoricalRecords(excluded_fields=["updated_at"])

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=Q(player_count__gte=2, player_count__lte=4),
                name="match_player_count_2_to_4",
            ),
            models.CheckConstraint(condition=Q(target__gt=0), name="match_target_positive"),
            models.CheckConstraint(
                condition=Q(status__in=MatchStatus.values), name="match_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(entry_mode__in=EntryMode.values), name="match_entry_mode_valid"
            ),
            # A league match belongs to its table's tournament; a friendly has neither.
            models.CheckConstraint(
                condition=Q(table__isnull=True, tournament__isnull=True)
                | Q(table__isnull=False, tournament__isnull=False),
                name="match_table_and_tournament_together",
            ),
        ]

    def __str__(self) -> str:
        if self.table_id is not None:
            return str(self.table)
        return str(_("Friendly match %(id)s") % {"id": self.pk})

    @property
    def is_friendly(self) -> bool:
        return self.table_id is None

    @property
    def is_finished(self) -> bool:
        return self.status == MatchStatus.FINISHED

    def total_x2(self, side: int) -> int:
        return int(self.totals_x2.get(str(side), 0))


class MatchSeat(models.Model):
    """Who sits where at a friendly match (league matches use the table's seats)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="friendly_seats")
    number = models.PositiveSmallIntegerField(
        _("seat"), validators=[MinValueValidator(0), MaxValueValidator(3)]
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="friendly_seats", verbose_name=_("player")
    )

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="matchseat_unique_number"),
            models.UniqueConstraint(fields=["match", "player"], name="matchseat_player_once"),
            models.CheckConstraint(
                condition=Q(number__gte=0, number__lte=3), name="matchseat_number_0_to_3"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} — {_('seat')} {self.number}: {self.player}"


#: Crockford's base 32, lower case: digits and letters without i, l, o and u, the
#: characters a person reading a printed card could take for others.
KEY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
_FROM_BASE32 = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", KEY_ALPHABET)
#: What a person may type for a character of a key: either case, o for 0, i or l for 1.
_TYPED = str.maketrans("oil", "011", " -")
KEY_BYTES = 20
#: A key's length: five bits a character.
KEY_LENGTH = KEY_BYTES * 8 // 5
KEY_GROUP = 4


def table_link_key_new() -> str:
    """A new table link key: 160 random bits (``secrets``) in 32 characters of
    :data:`KEY_ALPHABET`."""
    return base64.b32encode(secrets.token_bytes(KEY_BYTES)).decode().translate(_FROM_BASE32)


def table_link_key_typed(typed: str) -> str:
    """The key a person meant by what they typed from a card: spaces and dashes dropped,
    lower case, o read as 0 and i or l as 1."""
    return typed.strip().lower().translate(_TYPED)


class TableLink(models.Model):
    """A table's private scoring link for one side (one seat at two- and three-player
    tables): whoever holds it scores that table as that side, without an account.

    The key is 160 random bits (``secrets``), printed as a QR code on the table card and
    as a link to type, in groups of four characters none of which looks like another
    (:data:`KEY_ALPHABET`); what is typed is read leniently (:func:`table_link_key_typed`).
    Keys issued before that alphabet (URL-safe base 64) still open their table. A link
    works while the table's round is published and its match can still change; an
    organiser revokes it (``revoked_at``) and issues a new one. Revoked links are kept,
    so the history can still name who scored through them.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="links", verbose_name=_("table")
    )
    side = models.PositiveSmallIntegerField(_("side"), validators=[MaxValueValidator(3)])
    key = models.CharField(_("key"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["table", "side", "-created_at"]
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "side"],
                condition=Q(revoked_at__isnull=True),
                name="tablelink_one_active_per_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} — {_('side')} {self.side + 1}"

    def get_absolute_url(self) -> str:
        """The link's address: the table's scoring page opens from it."""
        return reverse("matches:table_link", args=[self.printed_key])

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def printed_key(self) -> str:
        """The key as cards print it: in groups of four joined by dashes (a key of the old
        alphabet, which may hold dashes itself, as it is)."""
        if len(self.key) != KEY_LENGTH or any(c not in KEY_ALPHABET for c in self.key):
            return self.key
        return "-".join(self.key[i : i + KEY_GROUP] for i in range(0, KEY_LENGTH, KEY_GROUP))


class Hand(models.Model):
    """One hand of a match: the entry as typed and the engine's verdict on it."""

    Mode = HandMode
    End = HandEnd

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("hand"), validators=[MinValueValidator(1)])
    mode = models.CharField(_("entry mode"), max_length=5, choices=HandMode.choices)
    #: The docs/scoresheet.md hand object exactly as entered.
    entry = models.JSONField(_("entry"))
    # The engine's verdict.
    leader = models.PositiveSmallIntegerField(_("leader"))
    end = models.CharField(_("end"), max_length=8, choices=HandEnd.choices)
    hand_winner = models.JSONField(_("hand winner (seats)"), default=list)
    points_x2 = models.JSONField(_("points per side (half-points)"), default=dict)
    bonus_x2 = models.JSONField(_("end-of-hand points per side (half-points)"), default=dict)
    totals_x2 = models.JSONField(_("totals after this hand (half-points)"), default=dict)
    plays = models.JSONField(_("scoring of each play"), default=list)
    next_leader = models.PositiveSmallIntegerField(_("next leader"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    # Who scored through a table's link: the side that recorded the hand, the side that
    # confirmed it, and who made this row's latest change (what its history shows).
    recorded_via = models.ForeignKey(
        TableLink,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded through link"),
    )
    confirmed_via = models.ForeignKey(
        TableLink,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed through link"),
    )
    changed_via = models.ForeignKey(
        TableLink,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed through link"),
    )
    #: The other side said the hand is wrong: the organiser settles it.
    disputed_at = models.DateTimeField(_("disputed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = HistoricalRecords(excluded_fields=["updated_at"])

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(condition=Q(mode__in=HandMode.values), name="hand_mode_valid"),
            models.CheckConstraint(condition=Q(end__in=HandEnd.values), name="hand_end_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.match} — {_('hand')} {self.number}"

    @property
    def is_confirmed(self) -> bool:
        return self.confirmed_at is not None

    @property
    def is_disputed(self) -> bool:
        return self.disputed_at is not None


class HandEvent(models.Model):
    """One recorded event of a hand: a tile laid, drawn or a pass (tile-by-tile), or a
    scoring play (tally), with the count and the points the engine gave it."""

    class Kind(models.TextChoices):
        PLAY = "play", _("Tile laid")
        DRAW = "draw", _("Draw")
        PASS = "pass", _("Pass")
        SCORE = "score", _("Scoring play")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="events")
    index = models.PositiveSmallIntegerField(_("index"))
    seat = models.PositiveSmallIntegerField(_("seat"), validators=[MaxValueValidator(3)])
    kind = models.CharField(_("kind"), max_length=5, choices=Kind.choices)
    tile = models.CharField(_("tile"), max_length=3, blank=True)
    end = models.CharField(_("end"), max_length=1, blank=True)
    count = models.PositiveSmallIntegerField(_("count"), null=True, blank=True)
    points = models.PositiveSmallIntegerField(_("points"), default=0)

    class Meta:
        ordering = ["hand", "index"]
        verbose_name = _("hand event")
        verbose_name_plural = _("hand events")
        constraints = [
            models.UniqueConstraint(fields=["hand", "index"], name="handevent_unique_index"),
            models.CheckConstraint(
                condition=Q(kind__in=["play", "draw", "pass", "score"]),
                name="handevent_kind_valid",
            ),
            models.CheckConstraint(condition=Q(points__lte=35), name="handevent_points_max_35"),
        ]

    def __str__(self) -> str:
        return f"{self.hand} #{self.index}"


class IdempotentRequest(models.Model):
    """The first response to a POST sent with an ``Idempotency-Key`` header.

    A resend with the same key, user and endpoint gets this response back and
    records nothing again (a flaky phone network resends).
    """

    key = models.CharField(_("key"), max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    endpoint = models.CharField(_("endpoint"), max_length=200)
    request_hash = models.CharField(_("request hash"), max_length=64)
    status_code = models.PositiveSmallIntegerField(_("status code"))
    body: Any = models.JSONField(_("response body"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotent request")
        verbose_name_plural = _("idempotent requests")
        constraints = [
            models.UniqueConstraint(
                fields=["key", "user", "endpoint"], name="idempotentrequest_unique_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.endpoint} {self.key}"


class DeviceSend(models.Model):
    """A hand a scoring device sent from its queue, under the key the device gave it
    when the hand was entered (offline, perhaps): a resend of the key gets this answer
    back and records nothing again."""

    key = models.CharField(_("key"), max_length=64, unique=True)
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="device_sends", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("hand"))
    request_hash = models.CharField(_("request hash"), max_length=64)
    status_code = models.PositiveSmallIntegerField(_("status code"))
    body: Any = models.JSONField(_("response body"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("hand sent by a device")
        verbose_name_plural = _("hands sent by devices")

    def __str__(self) -> str:
        return f"{self.match_id} #{self.number} {self.key}"


class DeviceQueue(models.Model):
    """What a scoring device last said about its queue of hands waiting to be sent:
    how many, and since when it has been offline (the oldest one's entry time)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="device_queues", verbose_name=_("match")
    )
    device = models.CharField(_("device"), max_length=64)
    queued_count = models.PositiveSmallIntegerField(_("hands waiting"), default=0)
    offline_since = models.DateTimeField(_("offline since"), null=True, blank=True)
    reported_at = models.DateTimeField(_("reported at"))

    class Meta:
        verbose_name = _("device queue")
        verbose_name_plural = _("device queues")
        constraints = [
            models.UniqueConstraint(fields=["match", "device"], name="devicequeue_unique_device"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.device}: {self.queued_count}"
