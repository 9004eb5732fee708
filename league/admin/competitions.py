"""Clubs and their members, rule sets, seasons and divisions in the organisers' admin.

A club's organisers manage its own rows; the shared rule sets (no club) are read-only
to them — a club copies one to change it (the "copy into my club" action).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from league.admin.base import ClubScopedAdmin, HistoryAdmin
from league.models import (
    Club,
    Division,
    Membership,
    RuleSet,
    Season,
)
from league.selectors import (
    clubs_organised_by,
    divisions_managed_by,
    memberships_managed_by,
    rule_sets_managed_by,
    rule_sets_usable_by,
    seasons_managed_by,
    user_is_superuser,
)
from league.services.clubs import membership_add, membership_remove, rule_set_copy


class MembershipInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Membership
    extra = 0
    fields = ["user", "role"]


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]
    prepopulated_fields = {"slug": ("name",)}
    club_field = ""

    def change_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return clubs_organised_by(user=request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return user_is_superuser(user=request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_is_superuser(user=request.user)


@admin.register(Membership)
class MembershipAdmin(ClubScopedAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]

    def change_queryset(self, request: HttpRequest) -> QuerySet[Membership]:
        return memberships_managed_by(user=request.user)

    def save_model(self, request: HttpRequest, obj: Membership, form: Any, change: bool) -> None:
        if obj.club_id is None:
            raise ValidationError(_("Choose the club this belongs to."), code="club_required")
        saved = membership_add(club=obj.club, user=obj.user, role=obj.role)
        obj.pk = saved.pk
        obj._state.adding = False

    def delete_model(self, request: HttpRequest, obj: Membership) -> None:
        membership_remove(membership=obj)


@admin.register(RuleSet)
class RuleSetAdmin(ClubScopedAdmin, HistoryAdmin):
    list_display = ["name", "club", "target_2", "target_3", "target_4", "blocked_award"]
    list_filter = ["club"]
    search_fields = ["name"]
    actions = ["copy_into_club"]
    fieldsets = [
        (None, {"fields": ["name", "club", "description", "blocked_award"]}),
        (_("Targets"), {"fields": ["target_2", "target_3", "target_4"]}),
        (_("Tiles dealt"), {"fields": ["hand_size_2", "hand_size_3", "hand_size_4"]}),
        (_("Round clock"), {"fields": ["time_limit"]}),
        (_("Knockout"), {"fields": ["knockout_tie"]}),
        (
            _("Walkovers"),
            {"fields": ["forfeit_win_points", "forfeit_loss_points", "forfeit_points_count"]},
        ),
    ]

    def view_queryset(self, request: HttpRequest) -> QuerySet[RuleSet]:
        return rule_sets_usable_by(user=request.user)

    def change_queryset(self, request: HttpRequest) -> QuerySet[RuleSet]:
        return rule_sets_managed_by(user=request.user)

    @admin.action(description=_("Copy the selected rule sets into my club"))
    def copy_into_club(self, request: HttpRequest, queryset: QuerySet[RuleSet]) -> None:
        clubs = list(clubs_organised_by(user=request.user)[:2])
        if len(clubs) != 1:
            self.message_user(
                request,
                _("Copy from your club's page: you organise several clubs."),
                messages.ERROR,
            )
            return
        for rule_set in queryset:
            copy = rule_set_copy(rule_set=rule_set, club=clubs[0])
            self.message_user(request, _("Created %(r)s.") % {"r": copy}, messages.SUCCESS)


class DivisionInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Division
    extra = 0


@admin.register(Season)
class SeasonAdmin(ClubScopedAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "rule_set", "status"]
    list_filter = ["club", "status", "rule_set"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ("name",)}
    inlines = [DivisionInline]
    fields = ["club", "name", "slug", "starts_on", "ends_on", "rule_set", "status"]

    def change_queryset(self, request: HttpRequest) -> QuerySet[Season]:
        return seasons_managed_by(user=request.user)


@admin.register(Division)
class DivisionAdmin(ClubScopedAdmin):
    list_display = ["name", "season", "order", "promotion_count", "relegation_count"]
    list_filter = ["season"]
    search_fields = ["name", "season__name"]
    club_field = ""

    def change_queryset(self, request: HttpRequest) -> QuerySet[Division]:
        return divisions_managed_by(user=request.user)
