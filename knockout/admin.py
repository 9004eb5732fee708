"""Knockout brackets in the organisers' admin: read-only, for the organisers of the
bracket's tournament, with links to its desk and its public page.

A bracket is made, advanced, decided and taken back only through ``knockout.services``
(the desk and the API call them), so the admin shows brackets, their seeds and their
matches without add, change or delete.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from knockout.models import Bracket, BracketEntrant, BracketMatch
from league.admin.base import ReadOnlyPermissions, TournamentRowsAdmin


class BracketEntrantInline(ReadOnlyPermissions, admin.TabularInline):  # type: ignore[type-arg]
    model = BracketEntrant
    fields = ("seed", "entrant")
    readonly_fields = fields
    extra = 0
    ordering = ("seed",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs: QuerySet[Any] = super().get_queryset(request)
        return qs.select_related("entry__player", "entry__partnership")

    @admin.display(description=_("entry"))
    def entrant(self, obj: BracketEntrant) -> str:
        return obj.entry.display_name


class BracketMatchInline(ReadOnlyPermissions, admin.TabularInline):  # type: ignore[type-arg]
    model = BracketMatch
    fields = ("round_index", "place", "kind", "entrants", "table", "winner", "decided_by")
    readonly_fields = fields
    extra = 0
    ordering = ("kind", "round_index", "position")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs: QuerySet[Any] = super().get_queryset(request)
        return qs.select_related("table__round__tournament", "winner__player").prefetch_related(
            "slots__entry__player", "slots__entry__partnership"
        )

    @admin.display(description=_("position"))
    def place(self, obj: BracketMatch) -> int:
        """The match's place in its bracket round, counted from 1 as on the bracket page."""
        return obj.position + 1

    @admin.display(description=_("entrants"))
    def entrants(self, obj: BracketMatch) -> str:
        slots = sorted(obj.slots.all(), key=lambda s: s.place)
        return format_html_join(" — ", "{}", ((s.entry.display_name,) for s in slots))


@admin.register(Bracket)
class BracketAdmin(ReadOnlyPermissions, TournamentRowsAdmin):
    list_display = (
        "tournament",
        "section",
        "seeded_from",
        "field_count",
        "first_round_number",
        "has_third_place",
        "has_plate",
        "pages",
    )
    list_filter = ("section", "seeded_from")
    search_fields = ("tournament__name",)
    fields = (
        "tournament",
        "section",
        "seeded_from",
        "after_round",
        "per_table",
        "field_count",
        "first_round_number",
        "has_third_place",
        "has_plate",
        "pages",
    )
    readonly_fields = fields
    inlines = (BracketEntrantInline, BracketMatchInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).select_related("tournament")

    @admin.display(description=_("pages"))
    def pages(self, obj: Bracket) -> str:
        slug = obj.tournament.slug
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("desk:desk", args=[slug]),
            _("Tournament desk"),
            reverse("knockout:bracket", args=[slug]),
            _("Knockout bracket"),
        )
