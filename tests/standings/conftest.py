"""Standings test helpers: a small league built through the real services.

``test_maths.py`` needs no Django (it runs with ``-p no:django``); every other module
here uses the database, so it is left out of collection when the Django plugin is off.
Nothing Django is imported at module level for the same reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from league.models import Entry, Table, Tournament

DJANGO_FREE = {"test_maths.py", "conftest.py"}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    is_django_test = collection_path.suffix == ".py" and collection_path.name not in DJANGO_FREE
    if is_django_test and not config.pluginmanager.has_plugin("django"):
        return True
    return None


@dataclass
class League:
    """Builds rounds, tables, seats and results for one tournament, recording each result
    through ``league.services.results.table_result_record`` as score entry would."""

    tournament: Tournament
    _table_numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def entry(self, name: str, **kwargs: Any) -> Entry:
        from tests.factories import EntryFactory, PlayerFactory

        return EntryFactory(tournament=self.tournament, player=PlayerFactory(name=name), **kwargs)

    def entry_for(self, other: Entry) -> Entry:
        """The same player entered in this tournament too."""
        from tests.factories import EntryFactory

        return EntryFactory(tournament=self.tournament, player=other.player)

    def partnership_entry(self, name: str) -> Entry:
        from tests.factories import EntryFactory, PartnershipFactory

        return EntryFactory(
            tournament=self.tournament, player=None, partnership=PartnershipFactory(name=name)
        )

    def table(
        self,
        round_number: int,
        seats: Sequence[Entry],
        *,
        target: int | None = None,
        status: str | None = None,
    ) -> Table:
        """A table with ``seats[i]`` in seat i (a partnership entry sends player A to its
        first seat and player B to its second)."""
        from league.models import Round, Seat, Table
        from tests.factories import RoundFactory, TableFactory

        round_ = Round.objects.filter(tournament=self.tournament, number=round_number).first()
        if round_ is None:
            round_ = RoundFactory(tournament=self.tournament, number=round_number)
        count = len(seats)
        table = TableFactory(
            round=round_,
            number=next(self._table_numbers),
            player_count=count,
            target=target or (250 if count == 2 else 200),
            status=status or Table.Status.SCHEDULED,
        )
        used: dict[int, int] = {}
        for number, entry in enumerate(seats):
            if entry.partnership_id is not None:
                nth = used.get(entry.pk, 0)
                used[entry.pk] = nth + 1
                partnership = entry.partnership
                assert partnership is not None
                player = partnership.player_a if nth == 0 else partnership.player_b
            else:
                assert entry.player is not None
                player = entry.player
            Seat.objects.create(table=table, number=number, entry=entry, player=player)
        return table

    def result(
        self,
        table: Table,
        points: Sequence[float],
        *,
        hands: Sequence[int] | None = None,
        placings: Sequence[int] | None = None,
    ) -> None:
        """Record the table's result: points per side (side = lowest seat), halves allowed."""
        from django.utils import timezone

        from league.services.results import SideOutcome, table_result_record

        if placings is None:
            placings = [1 + sum(o > p for o in points) for p in points]
        hands = hands or [0] * len(points)
        table_result_record(
            table_id=table.pk,
            sides=[
                SideOutcome(
                    side=side,
                    points_x2=round(p * 2),
                    placing=placings[side],
                    hands_won=hands[side],
                    is_winner=placings[side] == 1 and list(placings).count(1) == 1,
                )
                for side, p in enumerate(points)
            ],
            hands_count=sum(hands),
            finished_at=timezone.now(),
            is_tie=list(placings).count(1) > 1,
        )

    def play(
        self,
        round_number: int,
        seats: Sequence[Entry],
        points: Sequence[float],
        **kwargs: Any,
    ) -> Table:
        table = self.table(round_number, seats, target=kwargs.pop("target", None))
        self.result(table, points, **kwargs)
        return table


@pytest.fixture
def league(db: Any) -> League:
    from league.models import Tournament
    from tests.factories import TournamentFactory

    return League(
        TournamentFactory(
            status=Tournament.Status.RUNNING, tiebreaks=["match_points", "points_scored"]
        )
    )
