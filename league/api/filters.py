"""Query filters of the league API (django-filter).

Foreign keys are filtered by id with a plain integer filter, not a model choice: a
model choice would answer "does not exist" for a hidden row and so reveal that it
does exist. The querysets are already limited to what the caller may see.

Every filter keeps to what the schema declares, and refuses the rest with 400 rather
than quietly ignoring it: a boolean is ``true`` or ``false``, an id is a whole number
in its range (the range is in the schema, see ``league.api.schema``), and a parameter
that is given must have a value (``?season=`` is refused; leave it out to mean all).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _
from django_filters import filters as plain_filters
from django_filters import rest_framework as filters

from league.models import Division, Entry, Partnership, Player, Round, Season, Table, Tournament


class StrictBooleanField(forms.Field):
    """``true`` or ``false``, the words OpenAPI sends for a boolean; nothing else.
    (django-filter's widgets read any other word as "no filter".)"""

    widget = forms.TextInput

    def to_python(self, value: Any) -> bool | None:
        if value in (None, ""):
            return None
        if value in ("true", "false"):
            return bool(value == "true")
        raise ValidationError(_("Enter true or false."), code="invalid")


class BooleanFilter(plain_filters.BooleanFilter):
    field_class = StrictBooleanField


class FilterSet(filters.FilterSet):
    """django-filter's FilterSet, refusing empty values and booleans other than the
    two words."""

    FILTER_DEFAULTS = {
        **filters.FilterSet.FILTER_DEFAULTS,
        models.BooleanField: {"filter_class": BooleanFilter},
    }

    def is_valid(self) -> bool:
        valid = bool(super().is_valid())
        for name in self.filters:
            if name in self.data and self.data.get(name) == "" and name not in self.form.errors:
                self.form.add_error(
                    name,
                    ValidationError(_("Give a value, or leave the parameter out."), code="blank"),
                )
                valid = False
        return valid


class IdFilter(filters.Filter):
    field_class = forms.IntegerField

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


class PlayerFilter(FilterSet):
    name = filters.CharFilter(field_name="name", lookup_expr="icontains", max_length=120)
    club = filters.CharFilter(field_name="club", lookup_expr="iexact", max_length=120)

    class Meta:
        model = Player
        fields = ["name", "club", "is_active"]


class PartnershipFilter(FilterSet):
    player = IdFilter(method="filter_player")
    season = IdFilter(field_name="seasons")

    class Meta:
        model = Partnership
        fields = ["player", "season", "is_active"]

    def filter_player(self, queryset: QuerySet[Partnership], name: str, value: int) -> QuerySet:  # type: ignore[type-arg]
        return queryset.filter(Q(player_a_id=value) | Q(player_b_id=value))


class SeasonFilter(FilterSet):
    class Meta:
        model = Season
        fields = ["status"]


class DivisionFilter(FilterSet):
    season = IdFilter(field_name="season_id")

    class Meta:
        model = Division
        fields = ["season"]


class TournamentFilter(FilterSet):
    season = IdFilter(field_name="season_id")
    division = IdFilter(field_name="division_id")
    name = filters.CharFilter(field_name="name", lookup_expr="icontains", max_length=160)

    class Meta:
        model = Tournament
        fields = ["status", "format", "table_size", "season", "division", "name"]


class EntryFilter(FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    player = IdFilter(field_name="player_id")
    partnership = IdFilter(field_name="partnership_id")

    class Meta:
        model = Entry
        fields = ["tournament", "player", "partnership", "is_withdrawn", "is_checked_in"]


class RoundFilter(FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    number = IdFilter(field_name="number", max_value=1000)

    class Meta:
        model = Round
        fields = ["tournament", "status", "number"]


class TableFilter(FilterSet):
    round = IdFilter(field_name="round_id")
    tournament = IdFilter(field_name="round__tournament_id")
    player = IdFilter(method="filter_player")
    player_count = IdFilter(field_name="player_count", min_value=2, max_value=4)

    class Meta:
        model = Table
        fields = ["round", "tournament", "status", "player_count", "player"]

    def filter_player(self, queryset: QuerySet[Table], name: str, value: int) -> QuerySet[Table]:
        return queryset.filter(seats__player_id=value).distinct()
