"""How league rows look in the API, and what a client may send.

Serializers only parse and shape: every write goes through a ``league.services``
function called by the view. Unknown fields in a body are refused (400, code
``unknown_field``) rather than silently dropped, so a client's typo never looks like
success. Contact details (``Player.email``/``phone``) are written by organisers and
read back only by callers allowed to see them (``players_with_contact_for``).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from league.hooks import tiebreaks_clean
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
    TableResult,
    TableResultSide,
    Tournament,
)
from league.services.rounds import seat_check

MAX_SEED = 100_000


class StrictFieldsMixin:
    """Refuse body fields the serializer does not know (read-only ones are ignored)."""

    refuses_unknown_fields = True  # the schema declares additionalProperties: false

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            known = set(self.fields)  # type: ignore[attr-defined]
            unknown = sorted(str(k) for k in data if k not in known)
            if unknown:
                raise serializers.ValidationError(
                    {
                        k: [ErrorDetail(str(_("Unknown field.")), code="unknown_field")]
                        for k in unknown
                    }
                )
            wrong = self._wrong_types(data)
            if wrong:
                raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)  # type: ignore[misc]

    def _wrong_types(self, data: Mapping[str, Any]) -> dict[str, list[ErrorDetail]]:
        # DRF reads 0 and "yes" as booleans and numbers as text; the schema says a
        # boolean is true or false and text is a string, and a body must keep to it.
        wrong: dict[str, list[ErrorDetail]] = {}
        for name, value in data.items():
            field = self.fields.get(name)  # type: ignore[attr-defined]
            if field is None or field.read_only or value is None:
                continue
            if isinstance(field, serializers.BooleanField) and not isinstance(value, bool):
                wrong[name] = [ErrorDetail(str(_("Must be true or false.")), code="invalid")]
            elif isinstance(field, serializers.CharField) and not isinstance(value, str):
                wrong[name] = [ErrorDetail(str(_("Must be text.")), code="invalid")]
        return wrong


class StrictModelSerializer(StrictFieldsMixin, serializers.ModelSerializer):  # type: ignore[type-arg]
    pass


class StrictSerializer(StrictFieldsMixin, serializers.Serializer):  # type: ignore[type-arg]
    pass


# --- Rules, seasons, divisions -----------------------------------------------------------


class RuleSetSerializer(StrictModelSerializer):
    class Meta:
        model = RuleSet
        fields = [
            "id",
            "name",
            "description",
            "target_2",
            "target_3",
            "target_4",
            "hand_size_2",
            "hand_size_3",
            "hand_size_4",
            "blocked_award",
            "knockout_tie",
            "club",
        ]
        extra_kwargs = {
            "club": {"required": False, "help_text": _("Empty for the shared rule sets.")},
            "description": {"max_length": 2000},
            **{f"target_{n}": {"min_value": 1, "max_value": 10_000} for n in (2, 3, 4)},
            "hand_size_2": {"min_value": 1, "max_value": 14},
            "hand_size_3": {"min_value": 1, "max_value": 9},
            "hand_size_4": {"min_value": 1, "max_value": 7},
        }


class RuleSetCopySerializer(StrictSerializer):
    """Copy a rule set (a shared one, say) into a club, to change it there."""

    club = serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(),
        required=False,
        help_text=_("The club the copy belongs to; your only club when left out."),
    )
    name = serializers.CharField(
        max_length=80, required=False, allow_blank=True, help_text=_("The copy's name.")
    )


class SeasonSerializer(StrictModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "club", "name", "slug", "starts_on", "ends_on", "rule_set", "status"]
        extra_kwargs = {"slug": {"required": False}, "club": {"required": False}}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        starts = attrs.get("starts_on", getattr(self.instance, "starts_on", None))
        ends = attrs.get("ends_on", getattr(self.instance, "ends_on", None))
        if starts and ends and ends < starts:
            raise serializers.ValidationError(
                {"ends_on": [_("A season ends on or after its first day.")]}
            )
        return attrs


class DivisionSerializer(StrictModelSerializer):
    class Meta:
        model = Division
        fields = ["id", "season", "name", "order", "promotion_count", "relegation_count"]
        extra_kwargs = {
            "order": {"max_value": 1000},
            "promotion_count": {"max_value": 1000},
            "relegation_count": {"max_value": 1000},
        }


# --- Clubs and their members -------------------------------------------------------------


class ClubSerializer(StrictModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city"]
        read_only_fields = ["slug"]


class MembershipSerializer(StrictModelSerializer):
    user = serializers.SlugRelatedField(
        slug_field="username",
        queryset=Membership._meta.get_field("user").related_model._default_manager.all(),
        help_text=_("The member's user name."),
    )

    class Meta:
        model = Membership
        fields = ["id", "club", "user", "role"]


# --- Players and partnerships ------------------------------------------------------------


class PlayerBriefSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    """A player as shown inside other things: never contact details."""

    class Meta:
        model = Player
        fields = ["id", "name", "nickname", "club", "slug"]
        read_only_fields = fields


class PlayerSerializer(StrictModelSerializer):
    """``email`` and ``phone`` appear only for callers allowed to see them."""

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "nickname",
            "club",
            "home_club",
            "slug",
            "is_active",
            "email",
            "phone",
        ]
        read_only_fields = ["slug"]
        extra_kwargs = {
            "home_club": {"required": False},
            "email": {"required": False, "help_text": _("Private: shown to organisers only.")},
            "phone": {"required": False, "help_text": _("Private: shown to organisers only.")},
        }

    def validate_name(self, value: str) -> str:
        if not value.strip():
            raise serializers.ValidationError(_("A player needs a name."))
        return value.strip()

    def to_representation(self, instance: Player) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if not getattr(instance, "contact_visible", False):
            data.pop("email", None)
            data.pop("phone", None)
        return data


class PartnershipSerializer(StrictModelSerializer):
    players = PlayerBriefSerializer(many=True, read_only=True)

    class Meta:
        model = Partnership
        fields = ["id", "name", "slug", "player_a", "player_b", "players", "seasons", "is_active"]
        read_only_fields = ["slug"]
        extra_kwargs = {"name": {"required": False}, "seasons": {"required": False}}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        a = attrs.get("player_a", getattr(self.instance, "player_a", None))
        b = attrs.get("player_b", getattr(self.instance, "player_b", None))
        if a is not None and b is not None and a.pk == b.pk:
            raise serializers.ValidationError(
                {"player_b": [_("A partnership needs two different players.")]}
            )
        return attrs


# --- Tournaments and entries -------------------------------------------------------------


class TournamentSerializer(StrictModelSerializer):
    placing_points_3 = serializers.ListField(
        child=serializers.DecimalField(
            max_digits=4, decimal_places=1, min_value=Decimal(0), max_value=Decimal(100)
        ),
        max_length=3,
        required=False,
        help_text=_("Match points for first, second and third at three-player tables."),
    )
    tiebreaks = serializers.ListField(
        child=serializers.CharField(max_length=40),
        max_length=12,
        required=False,
        help_text=_("Tiebreak order; empty means the format's default."),
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "slug",
            "club",
            "accepts_visitors",
            "season",
            "division",
            "rule_set",
            "format",
            "table_size",
            "rounds_count",
            "status",
            "starts_on",
            "venue",
            "entry_mode",
            "requires_confirmation",
            "allow_byes",
            "points_win",
            "points_tie",
            "points_loss",
            "placing_points_3",
            "points_bye",
            "tiebreaks",
            "seed",
        ]
        extra_kwargs = {
            "slug": {"required": False},
            "club": {"required": False, "help_text": _("Empty: the season's club.")},
            "rounds_count": {"min_value": 1, "max_value": 100},
            "seed": {"min_value": 0, "max_value": 2**31 - 1},
            **{
                f: {"min_value": Decimal(-100), "max_value": Decimal(100)}
                for f in ("points_win", "points_tie", "points_loss", "points_bye")
            },
        }

    def validate_placing_points_3(self, value: list[Decimal]) -> list[float]:
        if value and len(value) != 3:
            raise serializers.ValidationError(_("Give three numbers: first, second, third."))
        return [float(v) for v in value]

    def validate_tiebreaks(self, value: list[str]) -> list[str]:
        return tiebreaks_clean(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        season = attrs.get("season", getattr(self.instance, "season", None))
        division = attrs.get("division", getattr(self.instance, "division", None))
        rule_set = attrs.get("rule_set", getattr(self.instance, "rule_set", None))
        if division is not None and (season is None or division.season_id != season.pk):
            raise serializers.ValidationError(
                {"division": [_("The division belongs to another season.")]}
            )
        if season is None and rule_set is None:
            raise serializers.ValidationError(
                {"rule_set": [_("Choose a rule set, or a season whose rule set applies.")]}
            )
        return attrs


class EntrySerializer(StrictModelSerializer):
    display_name = serializers.CharField(read_only=True)
    player_detail = PlayerBriefSerializer(source="player", read_only=True, allow_null=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "tournament",
            "player",
            "partnership",
            "display_name",
            "player_detail",
            "seed",
            "is_withdrawn",
            "withdrawn_round",
            "is_checked_in",
        ]
        read_only_fields = ["is_withdrawn", "withdrawn_round"]
        extra_kwargs = {"seed": {"min_value": 1, "max_value": MAX_SEED}}


class EntryUpdateSerializer(EntrySerializer):
    """After registration only the seed and check-in change (withdrawal has its action)."""

    class Meta(EntrySerializer.Meta):
        read_only_fields = [
            "tournament",
            "player",
            "partnership",
            "is_withdrawn",
            "withdrawn_round",
        ]


class WithdrawSerializer(StrictSerializer):
    round_number = serializers.IntegerField(
        required=False, min_value=1, max_value=1000, help_text=_("Default: the next round.")
    )


# --- Rounds, tables, results -------------------------------------------------------------


class RoundSerializer(StrictModelSerializer):
    class Meta:
        model = Round
        fields = [
            "id",
            "tournament",
            "number",
            "status",
            "stage",
            "starts_at",
            "pairing_seed",
            "byes",
        ]
        # A knockout round is drawn by its bracket (knockout's services), never by hand.
        read_only_fields = ["status", "stage", "pairing_seed", "byes"]
        extra_kwargs = {"number": {"required": False, "min_value": 1, "max_value": 1000}}
        # The number defaults to the next one; round_create and the database keep it unique.
        validators: list[Any] = []


class RoundUpdateSerializer(RoundSerializer):
    class Meta(RoundSerializer.Meta):
        read_only_fields = ["tournament", "number", "status", "stage", "pairing_seed", "byes"]


class TableSeatSerializer(StrictModelSerializer):
    player_detail = PlayerBriefSerializer(source="player", read_only=True)

    class Meta:
        model = Seat
        fields = ["number", "entry", "player", "player_detail"]
        extra_kwargs = {"number": {"min_value": 0, "max_value": 3}}


class TableResultSideSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    points = serializers.DecimalField(max_digits=8, decimal_places=1, read_only=True)

    class Meta:
        model = TableResultSide
        fields = ["side", "points_x2", "points", "placing", "hands_won", "is_winner"]
        read_only_fields = fields


class TableResultSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    sides = TableResultSideSerializer(many=True, read_only=True)

    class Meta:
        model = TableResult
        fields = ["finished_at", "hands_count", "is_tie", "kind", "sides"]
        read_only_fields = fields


class TableSerializer(StrictModelSerializer):
    seats = TableSeatSerializer(many=True)
    result = serializers.SerializerMethodField()
    tournament = serializers.IntegerField(source="round.tournament_id", read_only=True)

    class Meta:
        model = Table
        fields = [
            "id",
            "round",
            "tournament",
            "number",
            "player_count",
            "target",
            "status",
            "seats",
            "result",
        ]
        read_only_fields = ["player_count", "target", "status"]
        extra_kwargs = {"number": {"min_value": 1, "max_value": 1000}}

    @extend_schema_field(TableResultSerializer(allow_null=True))
    def get_result(self, table: Table) -> dict[str, Any] | None:
        result = getattr(table, "result", None)
        return TableResultSerializer(result).data if result is not None else None

    def validate_seats(self, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not 2 <= len(seats) <= 4:
            raise serializers.ValidationError(_("A table seats 2, 3 or 4 players."))
        return seats

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        round_: Round = attrs["round"]
        for seat in attrs["seats"]:
            entry: Entry = seat["entry"]
            try:
                seat_check(round=round_, entry=entry, player_id=seat["player"].pk)
            except DjangoValidationError as exc:
                raise serializers.ValidationError({"seats": exc.messages}) from exc
        return attrs
