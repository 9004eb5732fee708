"""Matches in the organisers' admin: read-only, with a link to the scorekeeper's page.

Hands are never edited here: every change to a hand must go through the engine
(the scorekeeper's page or the API), so the admin shows matches, hands and their
history without add, change or delete.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from league.admin.base import HistoryAdmin, ReadOnlyPermissions, TournamentRowsAdmin
from matches.models import Hand, Match, TableLink
from matches.selectors import table_links_missing
from matches.services.concurrency import StaleVersionError
from matches.services.lifecycle import match_void
from matches.services.links import table_links_reissue, table_links_revoke


class ReadOnlyAdmin(ReadOnlyPermissions, TournamentRowsAdmin, HistoryAdmin):
    """Viewable by organisers of the match's tournament; never written here."""


class HandInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Hand
    fields = (
        "number",
        "mode",
        "leader",
        "end",
        "hand_winner",
        "points_x2",
        "totals_x2",
        "confirmed_at",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "status",
        "entry_mode",
        "target",
        "totals_x2",
        "hands_count",
        "scorekeeper_link",
    )
    list_filter = ("status", "entry_mode", "tournament")
    search_fields = ("table__round__tournament__name",)
    inlines = [HandInline]
    readonly_fields = ("scorekeeper_link",)
    actions = ["void_matches"]

    @admin.action(description=_("Void the selected matches"))
    def void_matches(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        voided = 0
        for match in queryset:
            try:
                match_void(match=match, user=request.user)
            except (PermissionDenied, StaleVersionError) as exc:
                self.message_user(request, f"{match}: {exc}", messages.ERROR)
            else:
                voided += 1
        if voided:
            self.message_user(
                request,
                _("%(n)d matches voided; their round may be paired again.") % {"n": voided},
                messages.SUCCESS,
            )

    @admin.display(description=_("scorekeeper's page"))
    def scorekeeper_link(self, obj: Match) -> str:
        url = reverse("matches:scorekeeper", kwargs={"match_id": obj.pk})
        return format_html('<a href="{}">{}</a>', url, _("Open"))


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    tournament_path = "match__tournament"
    list_display = ("__str__", "mode", "end", "points_x2", "totals_x2", "recorded_by", "updated_at")
    list_filter = ("mode", "end")


@admin.register(TableLink)
class TableLinkAdmin(ReadOnlyAdmin):
    """The tables' private scoring links: revoke a lost or shared card's links, or
    reissue a table's links (then print its card again from the round)."""

    tournament_path = "table__round__tournament"
    list_display = ("table", "side_number", "created_at", "revoked_at", "opens")
    list_filter = ("table__round__tournament", "table__round", "revoked_at")
    list_select_related = ("table__round__tournament",)
    actions = ["revoke", "reissue"]

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Filtered to a table without working links (the desk's "Table links"), the list
        says how to get them and links to that table's card with links."""
        table_id = request.GET.get("table__id__exact", "")
        table = None
        if table_id.isdigit():
            table = table_links_missing(user=request.user, table_id=int(table_id))
        if table is not None:
            extra_context = {
                **(extra_context or {}),
                "links_missing_table": table,
                "links_missing_card_url": reverse(
                    "matches:table_card_with_links",
                    args=[table.round.tournament.slug, table.round.number, table.number],
                ),
            }
        return super().changelist_view(request, extra_context)

    @admin.display(description=_("side"))
    def side_number(self, obj: TableLink) -> int:
        return obj.side + 1

    @admin.display(description=_("link"))
    def opens(self, obj: TableLink) -> str:
        if obj.revoked_at is not None:
            return "—"
        url = obj.get_absolute_url()
        return format_html('<a href="{}">{}</a>', url, _("Open"))

    @admin.action(description=_("Revoke the selected links"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[TableLink]) -> None:
        try:
            count = table_links_revoke(links=list(queryset), user=request.user)
        except PermissionDenied as exc:
            self.message_user(request, str(exc), messages.ERROR)
            return
        self.message_user(request, _("%(n)d links revoked.") % {"n": count}, messages.SUCCESS)

    @admin.action(description=_("Reissue the links of the selected links' tables"))
    def reissue(self, request: HttpRequest, queryset: QuerySet[TableLink]) -> None:
        tables = {link.table_id: link.table for link in queryset}
        try:
            for table in tables.values():
                table_links_reissue(table=table, user=request.user)
        except PermissionDenied as exc:
            self.message_user(request, str(exc), messages.ERROR)
            return
        self.message_user(
            request,
            _("New links issued for %(n)d tables: print their cards again.") % {"n": len(tables)},
            messages.SUCCESS,
        )
