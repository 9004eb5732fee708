"""The league's REST API: clubs and their members, players, partnerships, rule sets,
seasons, divisions, tournaments, entries, rounds and tables.

Views parse input, call one service or selector and shape the output; who may do
what is ``league.policy`` (through ``league.api.permissions``), and every queryset
comes from it so lists never show what the caller may not see.
"""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext_lazy as _
from django.views.defaults import bad_request, page_not_found, server_error
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from league.api import filters
from league.api.errors import RETRY_AFTER_SECONDS, database_unavailable, is_database_away
from league.api.negotiation import FormatIsAFilter
from league.api.parsers import RequestTooLarge
from league.api.permissions import (
    ROLE_MANAGE,
    CanManage,
    ClubWriteScope,
    IsOrganiserOrReadOnly,
    IsSuperuserOrReadOnly,
    WriteScopePermission,
    club_for_write,
    require_tournament_role,
)
from league.api.serializers import (
    ClubSerializer,
    DivisionSerializer,
    EntrySerializer,
    EntryUpdateSerializer,
    MembershipSerializer,
    PartnershipSerializer,
    PlayerSerializer,
    RoundSerializer,
    RoundUpdateSerializer,
    RuleSetCopySerializer,
    RuleSetSerializer,
    SeasonSerializer,
    TableSerializer,
    TournamentSerializer,
    WithdrawSerializer,
)
from league.models import (
    Club,
    Division,
    Entry,
    Membership,
    Partnership,
    Player,
    Round,
    RuleSet,
    Season,
    Seat,
    Table,
    TableResultSide,
    Tournament,
)
from league.selectors import (
    clubs_organised_by,
    divisions_managed_by,
    entries_visible_to,
    memberships_managed_by,
    memberships_visible_to,
    partnerships_editable_by,
    players_editable_by,
    players_enterable_in,
    players_with_contact_for,
    rounds_visible_to,
    rule_sets_managed_by,
    seasons_managed_by,
    tables_visible_to,
    tournaments_visible_to,
)
from league.services.clubs import (
    club_create,
    membership_add,
    membership_remove,
    rule_set_copy,
)
from league.services.records import (
    entry_delete,
    record_create,
    record_delete,
    record_update,
    round_delete,
    table_delete,
    tournament_create,
    tournament_update,
)
from league.services.registration import (
    entry_create,
    entry_withdraw,
    partnership_create,
    partnership_update,
    player_create,
)
from league.services.rounds import (
    SeatSpec,
    round_close,
    round_create,
    round_publish,
    table_add,
    tournament_duplicate,
)

NO_BODY = None


class LeagueViewSet(viewsets.ModelViewSet):  # type: ignore[type-arg]
    """A model viewset whose writes go through services (``create_row``/``update_row``/
    ``delete_row``) instead of ``serializer.save()``."""

    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]

    def create_row(self, data: dict[str, Any]) -> Any:
        return record_create(model=self.get_queryset().model, fields=data)

    def update_row(self, instance: Any, data: dict[str, Any]) -> Any:
        return record_update(instance=instance, fields=data)

    def delete_row(self, instance: Any) -> None:
        record_delete(instance=instance)

    def perform_create(self, serializer: serializers.BaseSerializer[Any]) -> None:
        serializer.instance = self.create_row(dict(serializer.validated_data))

    def perform_update(self, serializer: serializers.BaseSerializer[Any]) -> None:
        serializer.instance = self.update_row(serializer.instance, dict(serializer.validated_data))

    def perform_destroy(self, instance: Any) -> None:
        self.delete_row(instance)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response = super().update(request, *args, **kwargs)
        # Re-read so that annotations (e.g. contact visibility) apply to the answer.
        instance = self.get_object()
        response.data = self.get_serializer(instance).data
        return response


# --- Clubs and their members -----------------------------------------------------------


class ClubViewSet(LeagueViewSet):
    """Clubs. Everyone reads; the superuser founds a club, its organisers change it."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    ordering_fields = ["name", "id"]
    ordering = ["name"]

    def get_permissions(self) -> list[BasePermission]:
        if self.action in ("create", "destroy"):
            return [IsSuperuserOrReadOnly()]
        return [ClubWriteScope()]

    def get_write_queryset(self) -> QuerySet[Club]:
        return clubs_organised_by(user=self.request.user)

    def create_row(self, data: dict[str, Any]) -> Club:
        return club_create(name=data["name"], city=data.get("city", ""))


class MembershipViewSet(LeagueViewSet):
    """Club memberships: who organises and who keeps the score for a club. Members see
    their clubs' memberships; a club's organisers add, change and end them."""

    serializer_class = MembershipSerializer
    permission_classes = [ClubWriteScope]
    ordering_fields = ["club", "role", "id"]
    ordering = ["club", "role", "id"]

    def get_queryset(self) -> QuerySet[Membership]:
        return memberships_visible_to(user=self.request.user).select_related("user", "club")

    def get_write_queryset(self) -> QuerySet[Membership]:
        return memberships_managed_by(user=self.request.user)

    def create_row(self, data: dict[str, Any]) -> Membership:
        club = club_for_write(self.request, club=data["club"])
        assert club is not None
        return membership_add(club=club, user=data["user"], role=data["role"])

    def update_row(self, instance: Membership, data: dict[str, Any]) -> Membership:
        if "club" in data and data["club"].pk != instance.club_id:
            raise exceptions.ValidationError({"club": [_("A membership stays in its club.")]})
        if "user" in data and data["user"].pk != instance.user_id:
            raise exceptions.ValidationError({"user": [_("A membership stays with its user.")]})
        return membership_add(
            club=instance.club, user=instance.user, role=data.get("role", instance.role)
        )

    def delete_row(self, instance: Membership) -> None:
        membership_remove(membership=instance)


# --- Rules, seasons, divisions (a club's organisers write its own; everyone reads) ------


@extend_schema_view(
    copy=extend_schema(request=RuleSetCopySerializer, responses={201: RuleSetSerializer}),
)
class RuleSetViewSet(LeagueViewSet):
    """Rule sets: targets and tiles dealt per player count, and the blocked-hand award.
    The shared rule sets (no club) are read-only; a club's organisers write its own, and
    copy any rule set into their club (``…/{id}/copy/``) to change it there."""

    queryset = RuleSet.objects.all()
    serializer_class = RuleSetSerializer
    permission_classes = [ClubWriteScope]
    ordering_fields = ["name", "id"]
    ordering = ["name"]

    def get_permissions(self) -> list[BasePermission]:
        if self.action == "copy":
            # Any rule set may be copied; the copy's club is checked by club_for_write.
            return [IsOrganiserOrReadOnly()]
        return [ClubWriteScope()]

    @action(detail=True, methods=["post"])
    def copy(self, request: Request, pk: str | None = None) -> Response:
        """A club's own copy of this rule set."""
        source = self.get_object()
        form = RuleSetCopySerializer(data=request.data)
        form.is_valid(raise_exception=True)
        club = club_for_write(request, club=form.validated_data.get("club"))
        if club is None:
            raise exceptions.ValidationError({"club": [_("Say which club this is for.")]})
        copy = rule_set_copy(rule_set=source, club=club, name=form.validated_data.get("name", ""))
        return Response(RuleSetSerializer(copy).data, status=status.HTTP_201_CREATED)

    def get_write_queryset(self) -> QuerySet[RuleSet]:
        return rule_sets_managed_by(user=self.request.user)

    def create_row(self, data: dict[str, Any]) -> RuleSet:
        data["club"] = club_for_write(self.request, club=data.get("club"))
        return super().create_row(data)  # type: ignore[no-any-return]

    def update_row(self, instance: RuleSet, data: dict[str, Any]) -> RuleSet:
        if "club" in data:
            data["club"] = club_for_write(self.request, club=data["club"])
        return super().update_row(instance, data)  # type: ignore[no-any-return]


class SeasonViewSet(LeagueViewSet):
    """Seasons: their club, dates, rule set and status. Everyone reads; the club's
    organisers write."""

    queryset = Season.objects.select_related("rule_set")
    serializer_class = SeasonSerializer
    permission_classes = [ClubWriteScope]
    filterset_class = filters.SeasonFilter
    ordering_fields = ["starts_on", "name", "id"]
    ordering = ["-starts_on", "name"]

    def get_write_queryset(self) -> QuerySet[Season]:
        return seasons_managed_by(user=self.request.user)

    def create_row(self, data: dict[str, Any]) -> Season:
        fallback = getattr(data.get("rule_set"), "club", None)
        data["club"] = club_for_write(self.request, club=data.get("club"), fallback=fallback)
        return super().create_row(data)  # type: ignore[no-any-return]

    def update_row(self, instance: Season, data: dict[str, Any]) -> Season:
        if "club" in data:
            data["club"] = club_for_write(self.request, club=data["club"])
        return super().update_row(instance, data)  # type: ignore[no-any-return]


class DivisionViewSet(LeagueViewSet):
    """Divisions (tiers) of a season, with their promotion and relegation places."""

    queryset = Division.objects.all()
    serializer_class = DivisionSerializer
    permission_classes = [ClubWriteScope]
    filterset_class = filters.DivisionFilter
    ordering_fields = ["order", "name", "id"]
    ordering = ["season", "order", "name"]

    def get_write_queryset(self) -> QuerySet[Division]:
        return divisions_managed_by(user=self.request.user)

    def _season_check(self, data: dict[str, Any]) -> None:
        if "season" in data:
            club_for_write(self.request, club=data["season"].club)

    def create_row(self, data: dict[str, Any]) -> Division:
        self._season_check(data)
        return super().create_row(data)  # type: ignore[no-any-return]

    def update_row(self, instance: Division, data: dict[str, Any]) -> Division:
        self._season_check(data)
        return super().update_row(instance, data)  # type: ignore[no-any-return]


# --- Players and partnerships -----------------------------------------------------------


class PlayerViewSet(LeagueViewSet):
    """Players. Email and phone are private: shown only to the organisers of the player's
    home club (and the superuser), never to the public nor to a host club."""

    serializer_class = PlayerSerializer
    filterset_class = filters.PlayerFilter
    ordering_fields = ["name", "club", "id"]
    ordering = ["name", "id"]

    def get_permissions(self) -> list[BasePermission]:
        if self.action == "destroy":
            return [IsSuperuserOrReadOnly()]
        return [IsOrganiserOrReadOnly(), WriteScopePermission()]

    def get_queryset(self) -> QuerySet[Player]:
        contact = players_with_contact_for(user=self.request.user).filter(pk=OuterRef("pk"))
        return Player.objects.annotate(contact_visible=Exists(contact))

    def get_write_queryset(self) -> QuerySet[Player]:
        return players_editable_by(user=self.request.user)

    def create_row(self, data: dict[str, Any]) -> Player:
        data["home_club"] = club_for_write(self.request, club=data.get("home_club"), register=True)
        is_active = data.pop("is_active", True)
        player = player_create(**data)
        if not is_active:
            player = record_update(instance=player, fields={"is_active": False})
        return self.get_queryset().get(pk=player.pk)

    def update_row(self, instance: Player, data: dict[str, Any]) -> Player:
        if "home_club" in data:
            data["home_club"] = club_for_write(self.request, club=data["home_club"])
        return super().update_row(instance, data)  # type: ignore[no-any-return]


class PartnershipViewSet(LeagueViewSet):
    """Partnerships: two players who play together at four-player tables."""

    serializer_class = PartnershipSerializer
    filterset_class = filters.PartnershipFilter
    ordering_fields = ["name", "id"]
    ordering = ["name"]

    def get_permissions(self) -> list[BasePermission]:
        if self.action == "destroy":
            return [IsSuperuserOrReadOnly()]
        return [IsOrganiserOrReadOnly(), WriteScopePermission()]

    def get_queryset(self) -> QuerySet[Partnership]:
        return Partnership.objects.select_related("player_a", "player_b").prefetch_related(
            "seasons"
        )

    def get_write_queryset(self) -> QuerySet[Partnership]:
        return partnerships_editable_by(user=self.request.user)

    def create_row(self, data: dict[str, Any]) -> Partnership:
        editable = players_editable_by(user=self.request.user).filter(
            pk__in=[data["player_a"].pk, data["player_b"].pk]
        )
        if editable.count() != 2:
            raise exceptions.PermissionDenied(_("You may pair only your clubs' players."))
        seasons = data.pop("seasons", None)
        is_active = data.pop("is_active", True)
        partnership = partnership_create(
            player_a=data["player_a"], player_b=data["player_b"], name=data.get("name", "")
        )
        if seasons is not None or not is_active:
            extra: dict[str, Any] = {"is_active": is_active}
            if seasons is not None:
                extra["seasons"] = seasons
            partnership = record_update(instance=partnership, fields=extra)
        return partnership

    def update_row(self, instance: Partnership, data: dict[str, Any]) -> Partnership:
        return partnership_update(partnership=instance, fields=data)


# --- Tournaments and entries ------------------------------------------------------------


@extend_schema_view(
    duplicate=extend_schema(request=None, responses={201: TournamentSerializer}),
)
class TournamentViewSet(LeagueViewSet):
    """Tournaments. The public sees every tournament that is not a draft; organisers and
    scorekeepers also see their own drafts."""

    serializer_class = TournamentSerializer
    filterset_class = filters.TournamentFilter
    content_negotiation_class = FormatIsAFilter  # ?format= is the tournament's format
    tournament_field = ""
    ordering_fields = ["starts_on", "name", "id"]
    ordering = ["-starts_on", "name"]

    def get_permissions(self) -> list[BasePermission]:
        if self.action == "create":
            return [IsOrganiserOrReadOnly()]
        if self.action == "destroy":
            return [IsSuperuserOrReadOnly()]
        return [CanManage()]

    def get_queryset(self) -> QuerySet[Tournament]:
        return tournaments_visible_to(user=self.request.user).select_related("season")

    def create_row(self, data: dict[str, Any]) -> Tournament:
        fallback = getattr(data.get("season"), "club", None)
        data["club"] = club_for_write(
            self.request, club=data.get("club"), fallback=fallback, register=True
        )
        return tournament_create(created_by=self.request.user, fields=data)

    def update_row(self, instance: Tournament, data: dict[str, Any]) -> Tournament:
        if "club" in data:
            data["club"] = club_for_write(self.request, club=data["club"])
        return tournament_update(tournament=instance, fields=data)

    @action(detail=True, methods=["post"])
    def duplicate(self, request: Request, pk: str | None = None) -> Response:
        """A new draft tournament with this one's settings, organisers and scorekeepers."""
        copy = tournament_duplicate(tournament=self.get_object())
        return Response(TournamentSerializer(copy).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    update=extend_schema(request=EntryUpdateSerializer, responses=EntrySerializer),
    partial_update=extend_schema(request=EntryUpdateSerializer, responses=EntrySerializer),
    withdraw=extend_schema(request=WithdrawSerializer, responses=EntrySerializer),
)
class EntryViewSet(LeagueViewSet):
    """Entries: who plays in a tournament. Organisers register, seed and withdraw."""

    filterset_class = filters.EntryFilter
    permission_classes = [CanManage]
    tournament_field = "tournament"
    ordering_fields = ["seed", "id"]
    ordering = ["tournament", "seed", "id"]

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        if self.action in ("update", "partial_update"):
            return EntryUpdateSerializer
        if self.action == "withdraw":
            return WithdrawSerializer
        return EntrySerializer

    def get_queryset(self) -> QuerySet[Entry]:
        return entries_visible_to(user=self.request.user).select_related("player", "partnership")

    def create_row(self, data: dict[str, Any]) -> Entry:
        tournament: Tournament = data["tournament"]
        require_tournament_role(self.request, tournament_id=tournament.pk, role=ROLE_MANAGE)
        enterable = players_enterable_in(user=self.request.user, tournament=tournament)
        for player in _players_of(data):
            if not enterable.filter(pk=player.pk).exists():
                raise exceptions.PermissionDenied(
                    _(
                        "%(who)s plays for another club, and this tournament is not open to "
                        "visitors."
                    )
                    % {"who": player}
                )
        return entry_create(
            tournament=tournament,
            player=data.get("player"),
            partnership=data.get("partnership"),
            seed=data.get("seed"),
        )

    def delete_row(self, instance: Entry) -> None:
        entry_delete(entry=instance)

    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Withdraw the entry from a round on (default: the next round); never paired again."""
        entry = self.get_object()
        body = WithdrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = entry_withdraw(entry=entry, round_number=body.validated_data.get("round_number"))
        return Response(EntrySerializer(entry).data)


def _players_of(data: dict[str, Any]) -> list[Player]:
    partnership = data.get("partnership")
    if partnership is not None:
        return list(partnership.players)
    return [data["player"]] if data.get("player") is not None else []


# --- Rounds and tables ------------------------------------------------------------------


@extend_schema_view(
    update=extend_schema(request=RoundUpdateSerializer, responses=RoundSerializer),
    partial_update=extend_schema(request=RoundUpdateSerializer, responses=RoundSerializer),
    publish=extend_schema(request=None, responses=RoundSerializer),
    close=extend_schema(request=None, responses=RoundSerializer),
)
class RoundViewSet(LeagueViewSet):
    """Rounds. Draft rounds (pairings not yet announced) are seen by organisers only."""

    filterset_class = filters.RoundFilter
    permission_classes = [CanManage]
    tournament_field = "tournament"
    ordering_fields = ["number", "id"]
    ordering = ["tournament", "number"]

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        if self.action in ("update", "partial_update"):
            return RoundUpdateSerializer
        return RoundSerializer

    def get_queryset(self) -> QuerySet[Round]:
        return rounds_visible_to(user=self.request.user).prefetch_related("byes")

    def create_row(self, data: dict[str, Any]) -> Round:
        tournament: Tournament = data["tournament"]
        require_tournament_role(self.request, tournament_id=tournament.pk, role=ROLE_MANAGE)
        round_ = round_create(tournament=tournament, number=data.get("number"))
        if data.get("starts_at") is not None:
            round_ = record_update(instance=round_, fields={"starts_at": data["starts_at"]})
        return round_

    def delete_row(self, instance: Round) -> None:
        round_delete(round=instance)

    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str | None = None) -> Response:
        """Announce a draft round's tables."""
        return Response(RoundSerializer(round_publish(round=self.get_object())).data)

    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """Close a published round once every table has finished."""
        return Response(RoundSerializer(round_close(round=self.get_object())).data)


class TableViewSet(
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,  # type: ignore[type-arg]
):
    """Tables with their seats and result. A draft round's tables are the organisers' only.
    Organisers add and remove tables of draft rounds (pairing by hand)."""

    serializer_class = TableSerializer
    filterset_class = filters.TableFilter
    permission_classes = [CanManage]
    tournament_field = "round__tournament"
    ordering_fields = ["number", "id"]
    ordering = ["round", "number"]

    def get_queryset(self) -> QuerySet[Table]:
        return (
            tables_visible_to(user=self.request.user)
            .select_related("round", "result")
            .prefetch_related(
                Prefetch("seats", queryset=Seat.objects.select_related("player")),
                Prefetch("result__sides", queryset=TableResultSide.objects.order_by("side")),
            )
        )

    def perform_create(self, serializer: serializers.BaseSerializer[Any]) -> None:
        data = serializer.validated_data
        round_: Round = data["round"]
        require_tournament_role(self.request, tournament_id=round_.tournament_id, role=ROLE_MANAGE)
        try:
            table = table_add(
                round=round_,
                number=data["number"],
                seats=[
                    SeatSpec(number=s["number"], entry_id=s["entry"].pk, player_id=s["player"].pk)
                    for s in data["seats"]
                ],
            )
        except DjangoValidationError as exc:
            if getattr(exc, "code", None) != "round_published":
                raise
            raise exceptions.ValidationError({"round": exc.messages}, code=exc.code) from exc
        serializer.instance = self.get_queryset().get(pk=table.pk)

    def perform_destroy(self, instance: Table) -> None:
        table_delete(table=instance)


def _envelope(status_code: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(
        {"ok": False, "error": {"code": code, "message": message}}, status=status_code
    )


def api_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: the error envelope for paths under /api/, the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return _envelope(404, "not_found", str(_("Not found.")))
    return page_not_found(request, exception)


def api_bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: what Django refuses before the API sees it, in the envelope under
    /api/. A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is 413, as the API's own limit is."""
    if not request.path.startswith("/api/"):
        return bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
        return _envelope(413, "too_large", str(RequestTooLarge.default_detail))
    return _envelope(400, "bad_request", str(_("The request could not be understood.")))


def api_server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: 503 with Retry-After when the database is away (the envelope under
    /api/, a page in the visitor's language elsewhere), else 500. Django calls it while
    handling the exception."""
    is_api = request.path.startswith("/api/")
    if is_database_away(sys.exception()):
        return database_unavailable() if is_api else _page_unavailable(request)
    if is_api:
        return _envelope(500, "server_error", str(_("Something went wrong on our side.")))
    return server_error(request)


def _page_unavailable(request: HttpRequest) -> HttpResponse:
    """The site's 503 page. It is rendered from a template that extends nothing, with no
    request and so no context processors: no session, user or other lookup can reach the
    database that just failed. Its language is the URL's, as every page's is."""
    language = getattr(request, "LANGUAGE_CODE", None) or (
        translation.get_language_from_path(request.path_info) or settings.LANGUAGE_CODE
    )
    with translation.override(language):
        html = loader.render_to_string("503.html", {"retry_url": request.get_full_path()})
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Content-Language"] = language
    # A proxy must not go on serving the outage once the database is back.
    add_never_cache_headers(response)
    return response
