"""Standings in the API: one read-only JSON document per tournament, season and
division, with every tiebreak value and, for each row, why it stands above the next.

The views read the stored rows (``standings.selectors``) and shape them; the
serializers describe the document for the OpenAPI schema. Numbers that can have
decimals are exact decimal strings ("7.5"); ``?sort=`` orders the rows as on the page.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.models import Division
from standings.display import row_values, separation_text, tiebreak_label
from standings.models import Standings, StandingsRow
from standings.selectors import (
    division_with_standings,
    season_with_standings,
    sortable_columns,
    standings_cache_key,
    standings_rows,
    standings_sort_key,
    standings_zone,
    tournament_with_standings,
)


class SeparationSerializer(serializers.Serializer):  # type: ignore[type-arg]
    next_entrant_id = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=["tiebreak", "shared_rank", "withdrawal"])
    tiebreak = serializers.CharField(allow_null=True)
    tiebreak_label = serializers.CharField()
    upper_value = serializers.CharField()
    lower_value = serializers.CharField()
    text = serializers.CharField()


class StandingsRowSerializer(serializers.Serializer):  # type: ignore[type-arg]
    position = serializers.IntegerField()
    rank = serializers.IntegerField()
    entrant_id = serializers.IntegerField()
    name = serializers.CharField()
    values = serializers.DictField(child=serializers.CharField())
    is_withdrawn = serializers.BooleanField()
    withdrawn_round = serializers.IntegerField(allow_null=True)
    playing_tables = serializers.ListField(child=serializers.IntegerField())
    zone = serializers.ChoiceField(choices=["", "promotion", "relegation"])
    below = SeparationSerializer(allow_null=True)


class StandingsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    scope = serializers.ChoiceField(choices=["tournament", "season", "division"])
    name = serializers.CharField()
    entrant_kind = serializers.CharField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    computed_at = serializers.DateTimeField(allow_null=True)
    computed_version = serializers.IntegerField()
    is_provisional = serializers.BooleanField()
    is_stale = serializers.BooleanField()
    sort = serializers.CharField()
    rows = StandingsRowSerializer(many=True)


SORT_PARAMETER = OpenApiParameter(
    "sort",
    str,
    description="A column, '-' first for descending: " + ", ".join(sortable_columns()),
)


class TournamentStandingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournament_standings",
        responses=StandingsSerializer,
        parameters=[SORT_PARAMETER],
    )
    def get(self, request: Request, slug: str) -> Response:
        try:
            tournament, standings = tournament_with_standings(slug=slug)
        except ObjectDoesNotExist:
            raise Http404 from None
        return Response(_document(request, "tournament", tournament.name, standings, None))


class SeasonStandingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="season_standings", responses=StandingsSerializer, parameters=[SORT_PARAMETER]
    )
    def get(self, request: Request, slug: str) -> Response:
        try:
            season, standings = season_with_standings(slug=slug)
        except ObjectDoesNotExist:
            raise Http404 from None
        return Response(_document(request, "season", season.name, standings, None))


class DivisionStandingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="division_standings",
        responses=StandingsSerializer,
        parameters=[SORT_PARAMETER],
    )
    def get(self, request: Request, slug: str, division_id: int) -> Response:
        try:
            division, standings = division_with_standings(season_slug=slug, division_id=division_id)
        except ObjectDoesNotExist:
            raise Http404 from None
        return Response(_document(request, "division", str(division), standings, division))


def _document(
    request: Request,
    scope: str,
    name: str,
    standings: Standings | None,
    division: Division | None,
) -> dict[str, Any]:
    column, descending = standings_sort_key(sort=request.query_params.get("sort"))
    sort = f"{'-' if descending else ''}{column}"
    if standings is None or standings.computed_at is None:
        return _shaped(scope, name, None, [], sort)
    # Shaped once per stored version, language and order; the key changes with the rows.
    key = standings_cache_key(
        standings=standings, variant=f"api:{get_language()}:{sort}", division=division
    )
    document = cache.get(key)
    if document is None:
        rows = _shaped_rows(standings_rows(standings=standings, sort=sort), division)
        document = _shaped(scope, name, standings, rows, sort)
        cache.set(key, document, timeout=3600)
    return {**document, "name": name, "is_stale": standings.is_dirty}  # these change apart


def _shaped_rows(rows: list[StandingsRow], division: Division | None) -> list[dict[str, Any]]:
    by_position = {row.position: row for row in rows}
    count = len(rows)
    shaped = []
    for row in rows:
        below = None
        following = by_position.get(row.position + 1)
        if row.separation and following is not None:
            below = {
                "next_entrant_id": _entrant_id(following),
                "reason": row.separation.get("reason"),
                "tiebreak": row.separation.get("tiebreak"),
                "tiebreak_label": tiebreak_label(row.separation.get("tiebreak")),
                "upper_value": row.separation.get("upper", ""),
                "lower_value": row.separation.get("lower", ""),
                "text": separation_text(
                    separation=row.separation, upper=row.name, lower=following.name
                ),
            }
        shaped.append(
            {
                "position": row.position,
                "rank": row.rank,
                "entrant_id": _entrant_id(row),
                "name": row.name,
                "values": row_values(row),
                "is_withdrawn": row.is_withdrawn,
                "withdrawn_round": row.withdrawn_round,
                "playing_tables": row.playing_tables,
                "zone": standings_zone(division=division, position=row.position, count=count),
                "below": below,
            }
        )
    return shaped


def _shaped(
    scope: str, name: str, standings: Standings | None, rows: list[dict[str, Any]], sort: str
) -> dict[str, Any]:
    return {
        "scope": scope,
        "name": name,
        "entrant_kind": standings.entrant_kind if standings else "",
        "tiebreaks": list(standings.tiebreaks) if standings else [],
        "computed_at": standings.computed_at if standings else None,
        "computed_version": standings.computed_version if standings else 0,
        "is_provisional": bool(standings and standings.is_provisional),
        "is_stale": bool(standings and standings.is_dirty),
        "sort": sort,
        "rows": rows,
    }


def _entrant_id(row: Any) -> int:
    return int(row.entry_id or row.player_id or row.partnership_id)
