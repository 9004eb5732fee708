"""Who plays: players, and fixed partnerships of two players (partners sit at seats 0+2
or 1+3 of a four-player table, docs/rules.md R2).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from league.models.base import TimeStamped
from league.models.clubs import Club
from league.models.seasons import Season


class Player(TimeStamped):
    """A person who plays. Contact fields are private: only the organisers of the home club
    (and the superuser) see them."""

    name = models.CharField(_("name"), max_length=120)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    club = models.CharField(
        _("club (as written)"),
        max_length=120,
        blank=True,
        help_text=_("Free text shown on pages; the home club decides who manages the player."),
    )
    home_club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("home club"),
    )
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
