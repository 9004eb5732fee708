"""Reads of the league's data. Who may do what is decided by ``league.policy``; its
answers are re-exported here so that callers reading lists keep one import."""

from __future__ import annotations

from django.db.models import QuerySet

from allfives import side_seats, sides_of
from league.models import ApiToken, Table
from league.policy import (
    AnyUser,
    club_can_manage,
    club_can_register,
    clubs_organised_by,
    clubs_registering_for,
    clubs_scored_by,
    divisions_managed_by,
    entries_visible_to,
    memberships_managed_by,
    memberships_visible_to,
    partnerships_editable_by,
    player_contact_visible,
    players_editable_by,
    players_enterable_in,
    players_visible_in_admin,
    players_with_contact_for,
    rounds_visible_to,
    rule_sets_managed_by,
    rule_sets_usable_by,
    seasons_managed_by,
    seasons_usable_by,
    tables_visible_to,
    tournament_can_manage,
    tournament_can_score,
    tournaments_managed_by,
    tournaments_scored_by,
    tournaments_visible_to,
    user_can_use_admin,
    user_is_organiser,
    user_is_superuser,
)

__all__ = [
    "AnyUser",
    "api_tokens_of",
    "club_can_manage",
    "club_can_register",
    "clubs_organised_by",
    "clubs_registering_for",
    "clubs_scored_by",
    "divisions_managed_by",
    "entries_visible_to",
    "memberships_managed_by",
    "memberships_visible_to",
    "partnerships_editable_by",
    "player_contact_visible",
    "players_editable_by",
    "players_enterable_in",
    "players_visible_in_admin",
    "players_with_contact_for",
    "rounds_visible_to",
    "rule_sets_managed_by",
    "rule_sets_usable_by",
    "seasons_managed_by",
    "seasons_usable_by",
    "tables_visible_to",
    "tournament_can_manage",
    "tournament_can_score",
    "tournaments_managed_by",
    "tournaments_scored_by",
    "tournaments_visible_to",
    "user_can_use_admin",
    "user_is_organiser",
    "user_is_superuser",
]


def api_tokens_of(*, user: AnyUser) -> QuerySet[ApiToken]:
    """The user's API tokens, newest first (revoked ones included, marked)."""
    if not user.is_authenticated:
        return ApiToken.objects.none()
    return ApiToken.objects.filter(user__pk=user.pk).order_by("-created_at", "-pk")


def table_side_names(*, table: Table) -> dict[int, str]:
    """Each side of the table (by its lowest seat, from 0), named by its players
    ("Budi & Siti"), for forms and messages: people are named, not numbered."""
    by_seat = {seat.number: str(seat.player) for seat in table.seats.select_related("player")}
    return {
        side: " & ".join(by_seat.get(seat, "?") for seat in side_seats(side, table.player_count))
        for side in sides_of(table.player_count)
    }
