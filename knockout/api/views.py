"""The knockout in the API: one read-only JSON document per tournament with each
bracket (the main bracket, then the plate) round by round, every match with its
entries, seeds, points, state and who advanced, and the third-place match.

The view reads ``knockout.selectors.bracket_public`` and shapes it; the serializers
describe the document for the OpenAPI schema. Points are exact decimal strings.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from knockout.selectors import BracketView, MatchView, bracket_public

STATES = ["waiting", "bye", "drafted", "playing", "finished", "tied", "decided"]


class BracketSlotSerializer(serializers.Serializer):  # type: ignore[type-arg]
    entry_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    points = serializers.CharField(allow_null=True)
    is_winner = serializers.BooleanField()


class BracketMatchSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["bracket", "third"])
    bracket_round = serializers.IntegerField()
    position = serializers.IntegerField()
    round_number = serializers.IntegerField(allow_null=True)
    table_number = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=STATES)
    decided_by = serializers.ChoiceField(choices=["", "played", "bye", "seed", "extra_hand"])
    slots = BracketSlotSerializer(many=True)


class BracketRoundSerializer(serializers.Serializer):  # type: ignore[type-arg]
    bracket_round = serializers.IntegerField()
    name = serializers.CharField()
    round_number = serializers.IntegerField()
    matches = BracketMatchSerializer(many=True)


class BracketSerializer(serializers.Serializer):  # type: ignore[type-arg]
    section = serializers.ChoiceField(choices=["main", "plate"])
    name = serializers.CharField()
    entries_per_table = serializers.IntegerField()
    seeded_from = serializers.ChoiceField(choices=["standings", "ratings", "losers"])
    rounds = BracketRoundSerializer(many=True)
    third_place = BracketMatchSerializer(allow_null=True)
    winner = BracketSlotSerializer(allow_null=True)


class KnockoutSerializer(serializers.Serializer):  # type: ignore[type-arg]
    tournament = serializers.CharField()
    brackets = BracketSerializer(many=True)


def _match(match: MatchView) -> dict[str, Any]:
    return {
        "id": match.id,
        "kind": match.kind,
        "bracket_round": match.round_index,
        "position": match.position,
        "round_number": match.round_number,
        "table_number": match.table_number,
        "state": match.state,
        "decided_by": match.decided_by,
        "slots": [
            {
                "entry_id": s.entry_id,
                "name": s.name,
                "seed": s.seed,
                "points": None if s.points is None else format(s.points.normalize(), "f"),
                "is_winner": s.is_winner,
            }
            for s in match.slots
        ],
    }


def _bracket(bracket: BracketView) -> dict[str, Any]:
    champion = bracket.champion
    return {
        "section": bracket.section,
        "name": bracket.label,
        "entries_per_table": bracket.per_table,
        "seeded_from": bracket.seeded_from,
        "rounds": [
            {
                "bracket_round": r.index,
                "name": r.name,
                "round_number": r.round_number,
                "matches": [_match(m) for m in r.matches],
            }
            for r in bracket.rounds
        ],
        "third_place": None if bracket.third_place is None else _match(bracket.third_place),
        "winner": None
        if champion is None
        else {
            "entry_id": champion.entry_id,
            "name": champion.name,
            "seed": champion.seed,
            "points": None if champion.points is None else format(champion.points.normalize(), "f"),
            "is_winner": True,
        },
    }


class TournamentBracketView(APIView):
    """A tournament's knockout brackets (404 without a public knockout)."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournament_bracket", responses=KnockoutSerializer)
    def get(self, request: Request, slug: str) -> Response:
        found = bracket_public(slug=slug)
        if found is None:
            raise Http404
        tournament, brackets = found
        return Response(
            {"tournament": tournament.slug, "brackets": [_bracket(b) for b in brackets]}
        )
