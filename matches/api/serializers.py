"""Input shapes of the matches API (outputs are the selectors' plain JSON states)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from league.models import EntryMode

# Ids and counts stop where the database columns do, so that a larger number is a 400
# (and the schema says so) rather than an overflow in the query.
ID_MAX = 2**63 - 1
COUNT_MAX = 2**31 - 1


class VersionSerializer(serializers.Serializer):  # type: ignore[type-arg]
    version = serializers.IntegerField(min_value=0, max_value=COUNT_MAX)


class HandRecordSerializer(VersionSerializer):
    number = serializers.IntegerField(min_value=1, max_value=COUNT_MAX)
    hand = serializers.JSONField()


class HandCorrectSerializer(VersionSerializer):
    hand = serializers.JSONField()


class ModeSerializer(VersionSerializer):
    entry_mode = serializers.ChoiceField(choices=EntryMode.choices)


class MatchCreateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """A table's match (``table``), or a friendly between registered players."""

    table = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        required=False,
        min_length=2,
        max_length=4,
    )
    rule_set = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
    entry_mode = serializers.ChoiceField(choices=EntryMode.choices, default=EntryMode.TALLY)
    target = serializers.IntegerField(required=False, min_value=1, max_value=COUNT_MAX)

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if ("table" in attrs) == ("players" in attrs):
            raise serializers.ValidationError(
                _("Give a table, or the players of a friendly match."), code="table_or_players"
            )
        if "players" in attrs and "rule_set" not in attrs:
            raise serializers.ValidationError(
                {"rule_set": [_("A friendly match needs a rule set.")]}, code="required"
            )
        return attrs
