"""Small fields for pairing through the database: a tournament with its entries, and
playing a paired round to the end (side 0 wins every table)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.utils import timezone

from league.models import Entry, Round, Tournament
from league.services.registration import entry_create, partnership_create
from league.services.results import SideOutcome, table_result_record
from league.services.rounds import round_close, round_publish
from tests.factories import PlayerFactory, RuleSetFactory, SeasonFactory, TournamentFactory


def tournament_with_entries(
    count: int,
    *,
    format: str = Tournament.Format.SWISS,
    table_size: str = Tournament.TableSize.TWO,
    allow_byes: bool = True,
    **fields: object,
) -> Tournament:
    """A running tournament with ``count`` entries (partnerships in partnership formats),
    under a rule set whose targets tell the table sizes apart (2: 250, 3: 200, 4: 150)."""
    if "season" not in fields:
        fields["season"] = SeasonFactory(
            rule_set=RuleSetFactory(target_2=250, target_3=200, target_4=150)
        )
    tournament = TournamentFactory(
        format=format, table_size=table_size, allow_byes=allow_byes, **fields
    )
    for seed in range(1, count + 1):
        if tournament.is_partnership_format:
            entry_create(
                tournament=tournament,
                partnership=partnership_create(player_a=PlayerFactory(), player_b=PlayerFactory()),
                seed=seed,
            )
        else:
            entry_create(tournament=tournament, player=PlayerFactory(), seed=seed)
    return tournament


def entries_of(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament).order_by("pk"))


def seating(round: Round) -> list[tuple[int, ...]]:
    """Each table's entry ids in seat order."""
    return [
        tuple(table.seats.order_by("number").values_list("entry_id", flat=True))
        for table in round.tables.order_by("number")
    ]


def appearances(round: Round) -> Counter[int]:
    """How often each entry appears in the round, counting a partnership once per table and
    each bye."""
    seen: Counter[int] = Counter()
    for seats in seating(round):
        seen.update(set(seats))
    seen.update(round.byes.values_list("pk", flat=True))
    return seen


def play(round: Round) -> None:
    """Publish the round, record side 0 winning every table, and close it."""
    round_publish(round=round)
    for table in round.tables.all():
        sides = 3 if table.player_count == 3 else 2
        table_result_record(
            table_id=table.pk,
            sides=[
                SideOutcome(
                    side=s,
                    points_x2=(table.target if s == 0 else 50) * 2,
                    placing=s + 1,
                    hands_won=0,
                    is_winner=s == 0,
                )
                for s in range(sides)
            ],
            hands_count=5,
            finished_at=timezone.now(),
        )
    round_close(round=round)


@pytest.fixture(autouse=True)
def _own_cache(request: pytest.FixtureRequest, settings: Any) -> None:
    """Progress lives in the cache: each test gets an empty local one, so no test sees
    another's progress (and none clears a shared Redis). Tests marked ``real_cache`` keep
    the configured cache (Redis when REDIS_URL is set)."""
    if request.node.get_closest_marker("real_cache") is None:
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": request.node.nodeid,
            }
        }


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_cache: use the configured cache, not a local one")
