"""Knockout brackets: a bracket (the main one, or the plate of the first round's losers),
its seeded entrants, its matches by round and position, and who sits at each match.

A bracket's round ``r`` is played in the tournament's round ``first_round_number + r -
1``; each match played at a table points to that table, and keeps who advanced from it
and how (played, a bye, the tie rule's seed, or the extra hand the organiser recorded).
The rules that make and fill brackets are in ``knockout.services``; the pure bracket in
``pairing.algorithms.knockout``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.models import Entry, Table, TimeStamped, Tournament


class Bracket(TimeStamped):
    class Section(models.TextChoices):
        MAIN = "main", _("Main bracket")
        PLATE = "plate", _("Plate")

    class Source(models.TextChoices):
        STANDINGS = "standings", _("Standings")
        RATINGS = "ratings", _("Ratings")
        FIRST_ROUND_LOSERS = "losers", _("First-round losers")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="brackets", verbose_name=_("tournament")
    )
    section = models.CharField(_("section"), max_length=5, choices=Section.choices)
    seeded_from = models.CharField(_("seeded from"), max_length=9, choices=Source.choices)
    after_round = models.PositiveSmallIntegerField(_("seeded after round"), null=True, blank=True)
    per_table = models.PositiveSmallIntegerField(_("entries per table"))
    field_count = models.PositiveSmallIntegerField(_("entries"))
    first_round_number = models.PositiveSmallIntegerField(_("first round"))
    has_third_place = models.BooleanField(_("third-place match"), default=False)
    has_plate = models.BooleanField(_("plate for first-round losers"), default=False)

    class Meta:
        ordering = ["tournament", "section"]
        verbose_name = _("bracket")
        verbose_name_plural = _("brackets")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "section"], name="bracket_one_per_section"
            ),
            models.CheckConstraint(condition=Q(per_table__in=[2, 3]), name="bracket_per_table"),
            models.CheckConstraint(condition=Q(field_count__gte=2), name="bracket_field_two"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.get_section_display()}"


class BracketEntrant(models.Model):
    """An entry in a bracket, with its seed (1 the strongest)."""

    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="entrants")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="bracket_places")
    seed = models.PositiveSmallIntegerField(_("seed"))

    class Meta:
        ordering = ["bracket", "seed"]
        verbose_name = _("bracket entrant")
        verbose_name_plural = _("bracket entrants")
        constraints = [
            models.UniqueConstraint(fields=["bracket", "entry"], name="bracketentrant_once"),
            models.UniqueConstraint(fields=["bracket", "seed"], name="bracketentrant_seed_once"),
        ]

    def __str__(self) -> str:
        return f"{self.seed}. {self.entry}"


class Decision(models.TextChoices):
    PENDING = "", _("Not decided")
    PLAYED = "played", _("Won at the table")
    BYE = "bye", _("Bye")
    SEED = "seed", _("Tie: the higher seed advances")
    EXTRA_HAND = "extra_hand", _("Tie: won the extra hand")


class BracketMatch(models.Model):
    """One table's place in a bracket: a round, a position down it, who sits there."""

    class Kind(models.TextChoices):
        BRACKET = "bracket", _("Bracket")
        THIRD_PLACE = "third", _("Third place")

    Decision = Decision

    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="matches")
    kind = models.CharField(_("kind"), max_length=7, choices=Kind.choices, default=Kind.BRACKET)
    round_index = models.PositiveSmallIntegerField(_("bracket round"))
    position = models.PositiveSmallIntegerField(_("position"))
    table = models.OneToOneField(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="bracket_match",
        verbose_name=_("table"),
    )
    winner = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="bracket_wins",
        verbose_name=_("advances"),
    )
    decided_by = models.CharField(
        _("decided by"), max_length=10, choices=Decision.choices, blank=True, default=""
    )

    class Meta:
        ordering = ["bracket", "kind", "round_index", "position"]
        verbose_name = _("bracket match")
        verbose_name_plural = _("bracket matches")
        constraints = [
            models.UniqueConstraint(
                fields=["bracket", "kind", "round_index", "position"],
                name="bracketmatch_unique_place",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True, decided_by="")
                | (Q(winner__isnull=False) & ~Q(decided_by="")),
                name="bracketmatch_winner_decided",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.THIRD_PLACE:
            return f"{self.bracket} — {self.get_kind_display()}"
        return f"{self.bracket} — {self.round_index}.{self.position + 1}"


class BracketSlot(models.Model):
    """An entry's place at a bracket match (0 for the better seed)."""

    match = models.ForeignKey(BracketMatch, on_delete=models.CASCADE, related_name="slots")
    place = models.PositiveSmallIntegerField(_("place"))
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="bracket_slots")

    class Meta:
        ordering = ["match", "place"]
        verbose_name = _("bracket slot")
        verbose_name_plural = _("bracket slots")
        constraints = [
            models.UniqueConstraint(fields=["match", "place"], name="bracketslot_place_once"),
            models.UniqueConstraint(fields=["match", "entry"], name="bracketslot_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.entry}"
