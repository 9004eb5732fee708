"""Fixtures for the matches tests: a league table with its seats, the people who
score it, and API clients for each of them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from league.models import Table, Tournament
from tests.factories import (
    EntryFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tests.matches.sheets import client_for

TableMaker = Callable[..., Table]


@pytest.fixture
def scorekeeper() -> Any:
    return UserFactory(username="scorekeeper")


@pytest.fixture
def organiser() -> Any:
    return UserFactory(username="organiser")


@pytest.fixture
def stranger() -> Any:
    return UserFactory(username="stranger")


@pytest.fixture
def tournament(scorekeeper: Any, organiser: Any) -> Tournament:
    tournament = TournamentFactory(table_size=Tournament.TableSize.FOUR)
    tournament.scorekeepers.add(scorekeeper)
    tournament.organisers.add(organiser)
    return tournament


@pytest.fixture
def make_table(tournament: Tournament) -> TableMaker:
    """A table of ``players`` seated players in the tournament, with ``target``."""

    def make(
        *, players: int = 4, target: int = 50, in_tournament: Tournament | None = None
    ) -> Table:
        where = in_tournament or tournament
        table = TableFactory(
            round=RoundFactory(tournament=where), player_count=players, target=target
        )
        for number in range(players):
            SeatFactory(table=table, number=number, entry=EntryFactory(tournament=where))
        return table

    return make


@pytest.fixture
def table(make_table: TableMaker) -> Table:
    return make_table()


@pytest.fixture
def api(scorekeeper: Any) -> APIClient:
    return client_for(scorekeeper)
