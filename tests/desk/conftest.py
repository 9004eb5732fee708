"""Fixtures for the desk's tests: a club, its organiser (staff, not the superuser), a
running tournament of the club with named players, and helpers that play a table's
match through the score-entry services, as the tables would."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from league.models import Club, Membership, Table, Tournament
from league.services.clubs import membership_add
from league.services.registration import entry_create, player_create
from matches.models import Match
from matches.services.hands import hand_record
from matches.services.lifecycle import match_for_table
from tests.factories import (
    ClubFactory,
    RuleSetFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
)

NAMES = ("Budi Santoso", "Siti Rahma", "Agus Salim", "Dewi Lestari", "Eko Prasetyo", "Fitri Ayu")
#: A two-player hand in which seat 1 (the first seat) scores 50 and reaches the target (R22).
WINNING_HAND = {"leader": 0, "scores": [[0, 20], [0, 15], [0, 15]], "end": {"target": True}}
#: The hand after ``OPENING_HAND`` in which seat 1 reaches 50.
FINISHING_HAND = {"leader": 0, "scores": [[0, 20], [0, 15]], "end": {"target": True}}
#: A two-player hand that leaves the match in play: seat 1 has 15 (10, and the 5 left in
#: seat 2's hand), seat 2 has 5.
OPENING_HAND = {
    "leader": 0,
    "scores": [[0, 10], [1, 5]],
    "end": {"domino": 0},
    "left": {"0": 0, "1": 5},
}


def club_tournament(
    club: Club, *, players: int = 4, time_limit: int | None = None, **fields: Any
) -> Tournament:
    """A running Swiss tournament of the club, two-player tables to 50 (or ``time_limit``
    minutes, with the round clock), named players."""
    rule_set = RuleSetFactory(club=club, target_2=50, time_limit=time_limit)
    season = SeasonFactory(club=club, rule_set=rule_set)
    fields.setdefault("rounds_count", 3)
    tournament = TournamentFactory(season=season, club=club, **fields)
    for seed, name in enumerate(NAMES[:players], start=1):
        entry_create(
            tournament=tournament, player=player_create(name=name, home_club=club), seed=seed
        )
    return tournament


def organiser_of(club: Club, username: str = "ketua") -> Any:
    user = UserFactory(username=username, is_staff=True)
    membership_add(club=club, user=user, role=Membership.Role.ORGANISER)
    return user


def play(table: Table, user: Any, hands: list[dict[str, Any]]) -> Match:
    """Record ``hands`` at the table's match as ``user`` (a scorekeeper or organiser)."""
    match = match_for_table(table=table)
    for hand in hands:
        match = hand_record(
            match=match, number=match.hands_count + 1, hand=hand, version=match.version, user=user
        )
    return match


@pytest.fixture
def club() -> Club:
    return ClubFactory(name="Klub Merdeka", city="Surabaya")


@pytest.fixture
def organiser(club: Club) -> Any:
    return organiser_of(club)


@pytest.fixture
def tournament(club: Club) -> Tournament:
    return club_tournament(club)


@pytest.fixture
def desk(organiser: Any) -> Client:
    client = Client()
    client.force_login(organiser)
    return client
