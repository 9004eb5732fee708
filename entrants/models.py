"""Sign-up settings per tournament, applications, the players' private links, the mail
sent to them, and the organiser's presence rule per round.

An application keeps what the player gave privately (full name, email, phone): only the
organisers of the tournament see it. What the public pages show is the player's name, or
only the nickname when the player chose so (``listed_as``).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.models import Entry, Player, Round, Tournament


class SignUp(models.Model):
    """A tournament's sign-up, as its organiser opens it."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="signup", verbose_name=_("tournament")
    )
    is_open = models.BooleanField(
        _("open"), default=False, help_text=_("Players may apply between the times below.")
    )
    opens_at = models.DateTimeField(_("opens at"), null=True, blank=True)
    closes_at = models.DateTimeField(_("closes at"), null=True, blank=True)
    cap = models.PositiveSmallIntegerField(
        _("places"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("How many entries the tournament takes; empty means no limit."),
    )
    has_waiting_list = models.BooleanField(
        _("waiting list"),
        default=True,
        help_text=_("When the places are taken, further applications wait for one to free."),
    )

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        constraints = [
            models.CheckConstraint(
                condition=Q(opens_at__isnull=True)
                | Q(closes_at__isnull=True)
                | Q(closes_at__gt=models.F("opens_at")),
                name="signup_closes_after_it_opens",
            ),
        ]

    def __str__(self) -> str:
        return str(self.tournament)


class ListedAs(models.TextChoices):
    NAME = "name", _("My name")
    NICKNAME = "nickname", _("My nickname only")


class ApplicationStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for approval")
    WAITING = "waiting", _("On the waiting list")
    APPROVED = "approved", _("Approved")
    DECLINED = "declined", _("Declined")


class Application(models.Model):
    """A player's (or a pair's) request to play in a tournament, and what came of it."""

    Status = ApplicationStatus
    ListedAs = ListedAs

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="applications",
        verbose_name=_("tournament"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    name = models.CharField(_("full name (private)"), max_length=120)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    email = models.EmailField(_("email (private)"), blank=True)
    phone = models.CharField(_("phone (private)"), max_length=40, blank=True)
    club_name = models.CharField(_("club (as written)"), max_length=120, blank=True)
    listed_as = models.CharField(
        _("listed publicly as"), max_length=10, choices=ListedAs.choices, default=ListedAs.NAME
    )
    may_email = models.BooleanField(_("may be emailed"), default=False)
    partner_name = models.CharField(_("partner's full name (private)"), max_length=120, blank=True)
    partner_nickname = models.CharField(_("partner's nickname"), max_length=60, blank=True)
    partner_listed_as = models.CharField(
        _("partner listed publicly as"),
        max_length=10,
        choices=ListedAs.choices,
        default=ListedAs.NAME,
    )
    language = models.CharField(_("language"), max_length=10, default="id")
    #: The club's record of the player (or partner), when the private lookup found one.
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("known player"),
    )
    partner = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("known partner"),
    )
    entry = models.OneToOneField(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="application",
        verbose_name=_("entry"),
    )
    created_at = models.DateTimeField(_("applied at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("application")
        verbose_name_plural = _("applications")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=ApplicationStatus.values), name="application_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status="approved") | Q(entry__isnull=False),
                name="application_approved_has_entry",
            ),
        ]

    def __str__(self) -> str:
        if self.partner_name:
            return f"{self.name} & {self.partner_name}"
        return self.name

    @property
    def public_name(self) -> str:
        """How the applicant is listed on public pages."""
        return public_name(self.name, self.nickname, self.listed_as)

    @property
    def partner_public_name(self) -> str:
        return public_name(self.partner_name, self.partner_nickname, self.partner_listed_as)


def public_name(name: str, nickname: str, listed_as: str) -> str:
    """A nickname-only listing shows the nickname; otherwise the name."""
    return nickname if listed_as == ListedAs.NICKNAME and nickname else name


class PlayerLink(models.Model):
    """An application's private link: whoever holds it sees and checks in the entry.

    Only the SHA-256 of the key is stored, so the table does not give links away; an
    organiser revokes a lost link (``revoked_at``) and issues a new one.
    """

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="links", verbose_name=_("application")
    )
    key_hash = models.CharField(_("key (hashed)"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["application", "-created_at"]
        verbose_name = _("player link")
        verbose_name_plural = _("player links")
        constraints = [
            models.UniqueConstraint(
                fields=["application"],
                condition=Q(revoked_at__isnull=True),
                name="playerlink_one_active_per_application",
            ),
        ]

    def __str__(self) -> str:
        return str(self.application)


class NotificationStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class Notification(models.Model):
    """One mail telling a player their table and seat in a published round."""

    Status = NotificationStatus

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="+", verbose_name=_("round")
    )
    application = models.ForeignKey(
        Application,
        on_delete=models.CASCADE,
        related_name="notifications",
        verbose_name=_("application"),
    )
    email = models.EmailField(_("email"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    attempts_count = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]
        verbose_name = _("mail to a player")
        verbose_name_plural = _("mail to players")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "application"], name="notification_once_per_round"
            ),
            models.CheckConstraint(
                condition=Q(status__in=NotificationStatus.values),
                name="notification_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.application} — {self.round}"


class RoundPresence(models.Model):
    """The organiser's choice for one round: seat checked-in entries only, or everyone."""

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, related_name="presence", verbose_name=_("round")
    )
    is_checked_in_only = models.BooleanField(_("pair checked-in entries only"), default=False)

    class Meta:
        verbose_name = _("presence rule")
        verbose_name_plural = _("presence rules")

    def __str__(self) -> str:
        return str(self.round)


class RoundDay(Round):
    """A round as the organiser runs it on the day: who is missing, the presence rule,
    the WhatsApp texts per table (an admin page of its own)."""

    class Meta:
        proxy = True
        verbose_name = _("round on the day")
        verbose_name_plural = _("rounds on the day")
