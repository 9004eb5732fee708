"""Query filters of the league API (django-filter).

Foreign keys are filtered by id with a plain integer filter, not a model choice: a
model choice would answer "does not exist" for a hidden row and so reveal that it
does exist. The querysets are already limited to what the caller may see.
"""

from __future__ import annotations

from django import forms
from django.db.models import Q, QuerySet
from django_filters import rest_framework as filters

from league.models import Division, Entry, Partnership, Player, Round, Season, Table, Tournament


class IdFilter(filters.Filter):
    field_class = forms.IntegerField

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


class PlayerFilter(filters.FilterSet):
    name = filters.CharFilter(field_name="name", lookup_expr="icontains", max_length=120)
    club = filters.CharFilter(field_name="club", lookup_expr="iexact", max_length=120)

    class Meta:
        model = Player
        fields = ["name", "club", "is_active"]


class PartnershipFilter(filters.FilterSet):
    player = IdFilter(method="filter_player")
    season = IdFilter(field_name="seasons")

    class Meta:
        model = Partnership
        fields = ["player", "season", "is_active"]

    def filter_player(self, queryset: QuerySet[Partnership], name: str, value: int) -> QuerySet:  # type: ignore[type-arg]
        return queryset.filter(Q(player_a_id=value) | Q(player_b_id=value))


class SeasonFilter(filters.FilterSet):
    class Meta:
        model = Season
        fields = ["status"]


class DivisionFilter(filters.FilterSet):
    season = IdFilter(field_name="season_id")

    class Meta:
        model = Division
        fields = ["season"]


class TournamentFilter(filters.FilterSet):
    season = IdFilter(field_name="season_id")
    division = IdFilter(field_name="division_id")
    name = filters.CharFilter(field_name="name", lookup_expr="icontains", max_length=160)

    class Meta:
        model = Tournament
        fields = ["status", "format", "table_size", "season", "division", "name"]


class EntryFilter(filters.FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    player = IdFilter(field_name="player_id")
    partnership = IdFilter(field_name="partnership_id")

    class Meta:
        model = Entry
        fields = ["tournament", "player", "partnership", "is_withdrawn", "is_checked_in"]


class RoundFilter(filters.FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    number = IdFilter(field_name="number", max_value=1000)

    class Meta:
        model = Round
        fields = ["tournament", "status", "number"]


class TableFilter(filters.FilterSet):
    round = IdFilter(field_name="round_id")
    tournament = IdFilter(field_name="round__tournament_id")
    player = IdFilter(method="filter_player")
    player_count = IdFilter(field_name="player_count", min_value=2, max_value=4)

    class Meta:
        model = Table
        fields = ["round", "tournament", "status", "player_count", "player"]

    def filter_player(self, queryset: QuerySet[Table], name: str, value: int) -> QuerySet[Table]:
        return queryset.filter(seats__player_id=value).distinct()
