"""Rule sets, seasons and divisions in the organisers' admin."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from league.models import (
    Division,
    RuleSet,
    Season,
)


@admin.register(RuleSet)
class RuleSetAdmin(SimpleHistoryAdmin):
    list_display = ["name", "target_2", "target_3", "target_4", "blocked_award"]
    search_fields = ["name"]
    fieldsets = [
        (None, {"fields": ["name", "description", "blocked_award"]}),
        (_("Targets"), {"fields": ["target_2", "target_3", "target_4"]}),
        (_("Tiles dealt"), {"fields": ["hand_size_2", "hand_size_3", "hand_size_4"]}),
    ]


class DivisionInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Division
    extra = 0


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "starts_on", "ends_on", "rule_set", "status"]
    list_filter = ["status", "rule_set"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ("name",)}
    inlines = [DivisionInline]


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "season", "order", "promotion_count", "relegation_count"]
    list_filter = ["season"]
    search_fields = ["name", "season__name"]
