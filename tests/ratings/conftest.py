"""Builders for rating tests: seated tables and recorded results, through the services."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

import pytest

from league.models import Entry, Partnership, Player, Table, Tournament
from league.services.results import SideOutcome, table_result_record
from ratings.services.rating import rating_apply_match
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
)

START = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    """A finishing time ``minutes`` after the test league's first evening."""
    return START + timedelta(minutes=minutes)


class League:
    """One tournament's worth of players and tables, seated as the services would."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.round = RoundFactory(tournament=tournament)
        self._entries: dict[int, Entry] = {}

    def entry_for(self, player: Player) -> Entry:
        if player.pk not in self._entries:
            self._entries[player.pk] = EntryFactory(tournament=self.tournament, player=player)
        return self._entries[player.pk]

    def table(self, players: Sequence[Player]) -> Table:
        """Seat players in order (seat 0, 1, …); with four, seats 0+2 and 1+3 are partners."""
        table = TableFactory(round=self.round, player_count=len(players))
        for number, player in enumerate(players):
            SeatFactory(table=table, number=number, entry=self.entry_for(player), player=player)
        return table

    def partnership_table(self, first: Partnership, second: Partnership) -> Table:
        """Two fixed-partnership entries: ``first`` at seats 0+2, ``second`` at 1+3."""
        table = TableFactory(round=self.round, player_count=4)
        for side, partnership in enumerate((first, second)):
            entry = self._entries.get(-partnership.pk) or EntryFactory(
                tournament=self.tournament, player=None, partnership=partnership
            )
            self._entries[-partnership.pk] = entry
            SeatFactory(table=table, number=side, entry=entry, player=partnership.player_a)
            SeatFactory(table=table, number=side + 2, entry=entry, player=partnership.player_b)
        return table


def record(table: Table, placings: Sequence[int], *, finished_at: datetime) -> None:
    """Record a result (placings by side, lowest seat first) as score entry does."""
    sides = [0, 1] if table.player_count == 4 else list(range(table.player_count))
    best = min(placings)
    outcomes = [
        SideOutcome(
            side=side,
            points_x2=(300 - 50 * placing) * 2,
            placing=placing,
            hands_won=0,
            is_winner=placing == best,
        )
        for side, placing in zip(sides, placings, strict=True)
    ]
    is_tie = placings.count(best) > 1
    table_result_record(
        table_id=table.pk,
        sides=outcomes,
        hands_count=5,
        finished_at=finished_at,
        is_tie=is_tie,
    )


type Recorder = Callable[[Table, Sequence[int], datetime], None]


@pytest.fixture
def played() -> Recorder:
    """Record a result and rate it as the task enqueued on commit does.

    The on-commit hook itself is tested once (``test_services``); running every
    callback here would also refresh standings after each result, for nothing.
    """

    def play(table: Table, placings: Sequence[int], finished_at: datetime) -> None:
        record(table, placings, finished_at=finished_at)
        rating_apply_match(table_id=table.pk)

    return play


@pytest.fixture
def league() -> League:
    return League(TournamentFactory())


@pytest.fixture
def players() -> Callable[[int], list[Player]]:
    def make(n: int) -> list[Player]:
        return [PlayerFactory() for _ in range(n)]

    return make
