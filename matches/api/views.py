"""The matches API: read a match (state, scoresheet, history), create one, record,
correct, delete and confirm hands, import a whole scoresheet, and start, finish,
reopen or switch a match's entry mode.

Each view parses input, calls one service or selector and shapes the output (the
selectors' JSON state). Writes carry the match's ``version`` (stale: HTTP 409 with
the current state) and honour ``Idempotency-Key``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.plumbing import build_array_type
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from allfives import winner_json
from league.models import Player, RuleSet, Table
from matches.api.idempotency import idempotent
from matches.api.serializers import (
    HandCorrectSerializer,
    HandRecordSerializer,
    MatchCreateSerializer,
    ModeSerializer,
    VersionSerializer,
)
from matches.models import Match
from matches.selectors import (
    match_can_score,
    match_document,
    match_get,
    match_history,
    match_state,
    matches_list,
    table_can_score,
)
from matches.services.hands import hand_confirm, hand_correct, hand_delete, hand_record
from matches.services.lifecycle import (
    match_finish,
    match_for_table,
    match_friendly_create,
    match_import,
    match_mode_set,
    match_reopen,
    match_start,
)


def _match(request: Request, match_id: int) -> Match:
    try:
        return match_get(match_id=match_id, user=request.user)
    except Match.DoesNotExist:
        raise Http404 from None


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:  # type: ignore[type-arg]
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _state(match: Match, code: int = status.HTTP_200_OK) -> Response:
    return Response(match_state(match=match), status=code)


class MatchListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=list[dict[str, Any]])  # a list of match summaries
    def get(self, request: Request) -> Response:
        tournament = request.query_params.get("tournament")
        qs = matches_list(
            user=request.user,
            tournament_id=int(tournament) if tournament and tournament.isdigit() else None,
            status=request.query_params.get("status"),
        )[:200]
        return Response(
            [
                {
                    "id": m.pk,
                    "version": m.version,
                    "status": m.status,
                    "table": m.table_id,
                    "tournament": m.tournament_id,
                    "players": m.player_count,
                    "target": m.target,
                    "totals_x2": m.totals_x2,
                    "winner": winner_json(m.winners),
                    "hands_count": m.hands_count,
                }
                for m in qs
            ]
        )

    @extend_schema(request=MatchCreateSerializer, responses={201: dict})
    @idempotent
    def post(self, request: Request) -> Response:
        data = _valid(MatchCreateSerializer, request.data)
        if "table" in data:
            table = get_object_or_404(Table.objects.select_related("round"), pk=data["table"])
            if not table_can_score(user=request.user, table=table):
                raise PermissionDenied
            match = match_for_table(table=table)
        else:
            players = list(Player.objects.filter(pk__in=data["players"]))
            by_id = {p.pk: p for p in players}
            if len(by_id) != len(set(data["players"])):
                raise Http404
            match = match_friendly_create(
                players=[by_id[pk] for pk in data["players"]],
                rule_set=get_object_or_404(RuleSet, pk=data["rule_set"]),
                user=request.user,
                entry_mode=data["entry_mode"],
                target=data.get("target"),
            )
        return _state(match, status.HTTP_201_CREATED)


class MatchView(APIView):
    @extend_schema(responses=dict)
    def get(self, request: Request, match_id: int) -> Response:
        return _state(_match(request, match_id))


class MatchScoresheetView(APIView):
    @extend_schema(responses=dict)
    def get(self, request: Request, match_id: int) -> Response:
        return Response(match_document(match=_match(request, match_id)))

    @extend_schema(request=dict, responses={201: dict})
    @idempotent
    def post(self, request: Request, match_id: int) -> Response:
        match = _match(request, match_id)
        raw = request.query_params.get("version")
        version = int(raw) if raw is not None and raw.isdigit() else None
        # the service refuses anything that is not a scoresheet object
        document = cast(Mapping[str, Any], request.data)
        match = match_import(match=match, document=document, version=version, user=request.user)
        return _state(match, status.HTTP_201_CREATED)


#: The history is a list of changes, oldest first.
HISTORY = OpenApiResponse(
    response=build_array_type({"type": "object", "additionalProperties": {}}),
    description="The match's changes: who, when, what before and after.",
)


class MatchHistoryView(APIView):
    """Who changed what and when: for the match's scorekeepers and organisers."""

    anonymous_reads = False  # the schema must not offer it without credentials

    @extend_schema(responses=HISTORY)
    def get(self, request: Request, match_id: int) -> Response:
        match = _match(request, match_id)
        if not match_can_score(user=request.user, match=match):
            raise PermissionDenied
        return Response(match_history(match=match))


class HandListView(APIView):
    @extend_schema(request=HandRecordSerializer, responses={201: dict})
    @idempotent
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(HandRecordSerializer, request.data)
        match = hand_record(
            match=_match(request, match_id),
            number=data["number"],
            hand=data["hand"],
            version=data["version"],
            user=request.user,
        )
        return _state(match, status.HTTP_201_CREATED)


class HandView(APIView):
    @extend_schema(request=HandCorrectSerializer, responses=dict)
    @idempotent
    def put(self, request: Request, match_id: int, number: int) -> Response:
        data = _valid(HandCorrectSerializer, request.data)
        match = hand_correct(
            match=_match(request, match_id),
            number=number,
            hand=data["hand"],
            version=data["version"],
            user=request.user,
        )
        return _state(match)

    @extend_schema(responses=dict)
    @idempotent
    def delete(self, request: Request, match_id: int, number: int) -> Response:
        data = _valid(VersionSerializer, request.query_params or request.data)
        match = hand_delete(
            match=_match(request, match_id),
            number=number,
            version=data["version"],
            user=request.user,
        )
        return _state(match)


class HandConfirmView(APIView):
    @extend_schema(request=VersionSerializer, responses=dict)
    @idempotent
    def post(self, request: Request, match_id: int, number: int) -> Response:
        data = _valid(VersionSerializer, request.data)
        match = hand_confirm(
            match=_match(request, match_id),
            number=number,
            version=data["version"],
            user=request.user,
        )
        return _state(match)


class MatchActionView(APIView):
    """``start``, ``finish`` and ``reopen``: a version, nothing else."""

    action: Any = None

    @extend_schema(request=VersionSerializer, responses=dict)
    @idempotent
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(VersionSerializer, request.data)
        match = type(self).action(
            match=_match(request, match_id), version=data["version"], user=request.user
        )
        return _state(match)


class MatchStartView(MatchActionView):
    action = staticmethod(match_start)


class MatchFinishView(MatchActionView):
    action = staticmethod(match_finish)


class MatchReopenView(MatchActionView):
    action = staticmethod(match_reopen)


class MatchModeView(APIView):
    @extend_schema(request=ModeSerializer, responses=dict)
    @idempotent
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(ModeSerializer, request.data)
        match = match_mode_set(
            match=_match(request, match_id),
            entry_mode=data["entry_mode"],
            version=data["version"],
            user=request.user,
        )
        return _state(match)
