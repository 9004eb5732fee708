"""Clubs and who belongs to them: a club owns its players, seasons, rule sets and
tournaments, and its members (organisers and scorekeepers) act for it. A user may belong
to several clubs. Who may do what follows from these rows (``league.policy``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from league.models.base import TimeStamped


class Club(TimeStamped):
    """A club: it runs competitions and is the home of its players."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    logo = models.ImageField(_("logo"), upload_to="clubs/", blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:club", kwargs={"slug": self.slug})


class MembershipRole(models.TextChoices):
    """What a membership lets a user do for the club (``league.policy`` decides).

    A *member* holds no club-wide right: they act only in the tournaments they are named
    on (as everyone did before clubs existed), see the contact details of their club's
    players entered there, and — when they organise — register the club's new players
    and tournaments.
    """

    ORGANISER = "organiser", _("Organiser")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")
    MEMBER = "member", _("Member (named tournaments only)")


class Membership(TimeStamped):
    """A user's role in one club: organisers manage everything the club owns,
    scorekeepers score its tournaments' matches, members act in the tournaments they
    are named on."""

    Role = MembershipRole

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_memberships",
        verbose_name=_("user"),
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    role = models.CharField(_("role"), max_length=12, choices=MembershipRole.choices)

    class Meta:
        ordering = ["club", "role", "user"]
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="membership_once_per_club"),
            models.CheckConstraint(
                condition=Q(role__in=MembershipRole.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.club} ({self.get_role_display()})"
