"""Pairings in the API: a round's draw (tables with seats and each table's cost breakdown,
byes, the quality report, and for a draft the warnings about it), running the pairing
(organisers only: 202 with a progress URL; the work is done by ``round_pair_task``) and
its progress.

Who sees what follows ``league.selectors.rounds_visible_to``: the public sees published
and finished rounds only; a draft round is its organisers' (anyone else gets 404).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from league.api.permissions import CanManage
from league.models import Round
from league.selectors import rounds_visible_to
from pairing.services.progress import round_pair_progress
from pairing.services.readback import RoundDraw, round_draw
from pairing.services.requests import round_pair_request


class SeatSerializer(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class TableCostSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """Every field or none: an empty object for a table made by hand."""

    score_gap = serializers.CharField(
        required=False, help_text='Largest match-point gap, exact ("1/2").'
    )
    score_cost = serializers.CharField(required=False)
    rematches = serializers.IntegerField(required=False)
    partner_repeats = serializers.IntegerField(required=False)
    opponent_repeats = serializers.IntegerField(required=False)


class DrawTableSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    player_count = serializers.IntegerField()
    target = serializers.IntegerField()
    status = serializers.CharField()
    cost = TableCostSerializer(help_text="Empty for a table made by hand.")
    seats = SeatSerializer(many=True)


class QualitySerializer(serializers.Serializer):  # type: ignore[type-arg]
    """Every field, or an empty object for a round the service did not pair."""

    table_count = serializers.IntegerField(required=False)
    bye_count = serializers.IntegerField(required=False)
    rematches = serializers.IntegerField(required=False)
    partner_repeats = serializers.IntegerField(required=False)
    opponent_repeats = serializers.IntegerField(required=False)
    largest_score_gap = serializers.CharField(required=False)
    score_cost = serializers.CharField(required=False)
    is_certified_optimal = serializers.BooleanField(required=False, allow_null=True)


class WarningSerializer(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    message = serializers.CharField()
    entries = serializers.ListField(child=serializers.IntegerField())
    table = serializers.IntegerField(allow_null=True)
    is_blocking = serializers.BooleanField()


class ByeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    entry = serializers.IntegerField()
    name = serializers.CharField()


class DrawSerializer(serializers.Serializer):  # type: ignore[type-arg]
    round = serializers.IntegerField()
    tournament = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    pairing_seed = serializers.IntegerField(allow_null=True)
    quality = QualitySerializer(help_text="Empty until the service has paired the round.")
    tables = DrawTableSerializer(many=True)
    byes = ByeSerializer(many=True)
    warnings = WarningSerializer(many=True, help_text="A draft's problems; empty once published.")
    progress_url = serializers.CharField()


class ProgressSerializer(serializers.Serializer):  # type: ignore[type-arg]
    state = serializers.ChoiceField(choices=["idle", "queued", "running", "done", "failed"])
    done = serializers.IntegerField()
    total = serializers.IntegerField()
    message = serializers.CharField(allow_blank=True)


class PairRequestSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, help_text="Empty: the recorded seed."
    )


def _draw_json(draw: RoundDraw, progress_url: str) -> dict[str, Any]:
    round = draw.round
    return {
        "round": round.pk,
        "tournament": round.tournament_id,
        "number": round.number,
        "status": round.status,
        "pairing_seed": round.pairing_seed,
        "quality": draw.quality,
        "tables": [
            {
                "id": t.id,
                "number": t.number,
                "player_count": t.player_count,
                "target": t.target,
                "status": t.status,
                "cost": t.cost,
                "seats": [
                    {
                        "number": s.number,
                        "entry": s.entry_id,
                        "player": s.player_id,
                        "name": s.player_name,
                    }
                    for s in t.seats
                ],
            }
            for t in draw.tables
        ],
        "byes": [{"entry": entry_id, "name": name} for entry_id, name in draw.byes],
        "warnings": [
            {
                "code": p.code,
                "message": p.message,
                "entries": list(p.entry_ids),
                "table": p.table_number,
                "is_blocking": p.is_blocking,
            }
            for p in draw.problems
        ],
        "progress_url": progress_url,
    }


class RoundPairingViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    """A round's draw, running its pairing, and the pairing's progress."""

    permission_classes = [CanManage]
    tournament_field = "tournament"
    lookup_url_kwarg = "round_id"
    serializer_class = DrawSerializer

    def get_queryset(self) -> Any:
        return rounds_visible_to(user=self.request.user).select_related("tournament")

    def _progress_url(self, round: Round) -> str:
        return self.request.build_absolute_uri(
            reverse("api-round-pairing-progress", kwargs={"round_id": round.pk})
        )

    @extend_schema(responses=DrawSerializer, summary="A round's draw with its quality report")
    def draw(self, request: Request, round_id: int) -> Response:
        round = self.get_object()
        return Response(_draw_json(round_draw(round=round), self._progress_url(round)))

    @extend_schema(
        request=PairRequestSerializer,
        responses={
            202: inline_serializer(
                "PairingQueued",
                {"ok": serializers.BooleanField(), "progress_url": serializers.CharField()},
            )
        },
        summary="Pair a draft round (organisers): runs in the background",
    )
    def pair(self, request: Request, round_id: int) -> Response:
        round = self.get_object()
        body = PairRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        round_pair_request(round=round, seed=body.validated_data.get("seed"))
        url = self._progress_url(round)
        return Response(
            {"ok": True, "progress_url": url},
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": url},
        )

    @extend_schema(responses=ProgressSerializer, summary="How far pairing a round has got")
    def progress(self, request: Request, round_id: int) -> Response:
        round = self.get_object()
        return Response(round_pair_progress(round_id=round.pk))
