"""A small league world for the API tests: two clubs (A and B), each running a
tournament (A, "own", and B, "other") with its own players, each with two entries, a
published round with a seated table and a draft round with one, and one user per role.
Clients for each role come from ``client_as``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from league.models import Club, Entry, Membership, Player, Round, RuleSet, Season, Table, Tournament
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    RuleSetFactory,
    SeasonFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)

ROLES = (
    "anonymous",
    "outsider",
    "scorekeeper_own",
    "scorekeeper_other",
    "organiser_own",
    "organiser_other",
    "superuser",
)


@dataclass
class Side:
    """One tournament and what hangs off it."""

    tournament: Tournament
    entries: list[Entry]
    players: list[Player]
    round_published: Round
    table_published: Table
    round_draft: Round
    table_draft: Table


@dataclass
class World:
    rule_set: RuleSet
    season: Season
    own: Side
    other: Side
    club_a: Club | None = None
    club_b: Club | None = None
    users: dict[str, Any] = field(default_factory=dict)

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            client.force_authenticate(self.users[role])
        return client


def _side(season: Season, label: str) -> Side:
    tournament = TournamentFactory(season=season, name=f"Turnamen {label}")
    players = [
        PlayerFactory(email=f"{label}{i}@example.org", phone="0812", home_club=season.club)
        for i in range(4)
    ]
    entries = [EntryFactory(tournament=tournament, player=p) for p in players]
    published = RoundFactory(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    draft = RoundFactory(tournament=tournament, number=2, status=Round.Status.DRAFT)
    tables = []
    for round_, pair in ((published, entries[:2]), (draft, entries[2:])):
        table = TableFactory(round=round_, number=1, player_count=2, target=250)
        for seat, entry in enumerate(pair):
            SeatFactory(table=table, number=seat, entry=entry, player=entry.player)
        tables.append(table)
    return Side(tournament, entries, players, published, tables[0], draft, tables[1])


def make_world() -> World:
    club_a, club_b = ClubFactory(name="Klub A"), ClubFactory(name="Klub B")
    rule_set = RuleSetFactory(club=club_a)
    season = SeasonFactory(rule_set=rule_set, club=club_a)
    season_b = SeasonFactory(rule_set=RuleSetFactory(club=club_b), club=club_b)
    world = World(
        rule_set=rule_set,
        season=season,
        own=_side(season, "a"),
        other=_side(season_b, "b"),
        club_a=club_a,
        club_b=club_b,
    )
    world.users = {
        "outsider": UserFactory(username="outsider"),
        "scorekeeper_own": UserFactory(username="scorekeeper_own"),
        "scorekeeper_other": UserFactory(username="scorekeeper_other"),
        "organiser_own": UserFactory(username="organiser_own", is_staff=True),
        "organiser_other": UserFactory(username="organiser_other", is_staff=True),
        "superuser": UserFactory(username="root", is_staff=True, is_superuser=True),
    }
    # The organisers act for their clubs; scorekeepers hold per-tournament roles.
    for role, club in (("organiser_own", club_a), ("organiser_other", club_b)):
        MembershipFactory(user=world.users[role], club=club, role=Membership.Role.ORGANISER)
    world.own.tournament.scorekeepers.add(world.users["scorekeeper_own"])
    world.own.tournament.organisers.add(world.users["organiser_own"])
    world.other.tournament.scorekeepers.add(world.users["scorekeeper_other"])
    world.other.tournament.organisers.add(world.users["organiser_other"])
    return world


@pytest.fixture
def world(db: None) -> World:
    return make_world()


@pytest.fixture(scope="module")
def shared_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """One world for a whole module, rolled back at its end. Tests using it must undo
    their writes themselves (``transaction.atomic`` + rollback), as the matrix does."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield make_world()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
