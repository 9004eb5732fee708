"""Pairing a round through the database (``pairing.services.pairing.round_pair``): reading
the field (entries, standings, seat history), running the pure Swiss, and writing the
tables, seats, costs and report back — for Swiss fields of 64, 200 and 500 players over
four rounds (three played before the last), a group Swiss of 64 and a round robin of 16 at
tables of four, and a league night that remembers a season.

Sets up its own throwaway database (SQLite in memory by default, or the server named by
DATABASE_URL) and prints the time of each step. The pure algorithms alone are timed by
``bench/pairings.py``; this adds what the database costs.

    .venv/bin/python bench/pairing_service.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kelipatan \
        .venv/bin/python bench/pairing_service.py
"""

from __future__ import annotations

import os
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

FIELDS = (64, 200, 500)
ROUNDS = 4


def _tournament(
    n: int, *, format: str = "swiss", season: object = None, table_size: str = "2"
) -> object:
    from league.models import Entry, EntryMember, Player, RuleSet, Season, Tournament

    if season is None:
        season = Season.objects.create(
            name=f"bench {n}",
            slug=f"bench-{n}-{time.monotonic_ns()}",
            starts_on=date(2026, 1, 1),
            ends_on=date(2026, 12, 31),
            rule_set=RuleSet.objects.create(name=f"bench {n} {time.monotonic_ns()}"),
        )
    tournament = Tournament.objects.create(
        name=f"bench {n}",
        slug=f"bench-{format}-{n}-{time.monotonic_ns()}",
        season=season,
        format=format,
        table_size=table_size,
        rounds_count=ROUNDS,
        status="running",
    )
    players = Player.objects.bulk_create(
        Player(name=f"P{i}", slug=f"b{tournament.pk}-p{i}") for i in range(n)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, seed=i + 1) for i, p in enumerate(players)
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, player_id=e.player_id, tournament=tournament) for e in entries
    )
    return tournament


def _play(round: object) -> None:
    """Publish the round and write the seat-0 player winning every table, in bulk (the
    result services would refresh standings and ratings after every table)."""
    from django.utils import timezone

    from league.models import Round, Table, TableResult, TableResultSide

    tables = list(Table.objects.filter(round=round))
    now = timezone.now()
    results = TableResult.objects.bulk_create(
        TableResult(table=t, finished_at=now, hands_count=4) for t in tables
    )
    TableResultSide.objects.bulk_create(
        TableResultSide(
            result=r,
            side=side,
            points_x2=500 if side == 0 else 200,
            placing=side + 1,
            hands_won=3 - 2 * side,
            is_winner=side == 0,
        )
        for r in results
        for side in (0, 1)
    )
    Table.objects.filter(round=round).update(status=Table.Status.FINISHED)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.FINISHED)  # type: ignore[attr-defined]


def _timed(label: str, run: object) -> float:
    started = time.perf_counter()
    result = run()  # type: ignore[operator]
    elapsed = time.perf_counter() - started
    print(f"{label:<52} {elapsed * 1000:9.1f} ms   {result}")
    return elapsed


def main() -> None:
    from league.services.rounds import round_create
    from pairing.selectors import pairing_field
    from pairing.services.pairing import round_pair

    for n in FIELDS:
        tournament = _tournament(n)
        for number in range(1, ROUNDS + 1):
            round = round_create(tournament=tournament)  # type: ignore[arg-type]
            if number == ROUNDS:
                _timed(
                    f"swiss {n}: read the field for round {number}",
                    lambda r=round: f"{len(pairing_field(round=r).entrants)} entrants",
                )
            _timed(
                f"swiss {n}: round_pair round {number}",
                lambda r=round: "rematches {rematches}, largest gap {largest_score_gap}".format(
                    **round_pair(round=r, seed=7).report.as_dict()
                ),
            )
            if number < ROUNDS:
                _play(round)

    # Tables of four: a group Swiss (planning for the rounds left) and a round robin.
    for format, n in (("swiss", 64), ("round_robin", 16)):
        tournament = _tournament(n, format=format, table_size="4")
        for number in range(1, ROUNDS + 1):
            round = round_create(tournament=tournament)  # type: ignore[arg-type]
            _timed(
                f"{format} {n} at tables of 4: round_pair round {number}",
                lambda r=round: "rematches {rematches}, partner repeats {partner_repeats}".format(
                    **round_pair(round=r, seed=7).report.as_dict()
                ),
            )
            if number < ROUNDS:
                _play(round)

    # A league night whose history is a season of three earlier nights of 120 players.
    first = _tournament(120, format="league_night")
    season = first.season  # type: ignore[attr-defined]
    nights = [first] + [_tournament(0, format="league_night", season=season) for _ in range(3)]
    from league.models import Entry, EntryMember

    players = [e.player for e in Entry.objects.filter(tournament=first).select_related("player")]
    for night in nights[1:]:
        entries = Entry.objects.bulk_create(Entry(tournament=night, player=p) for p in players)
        EntryMember.objects.bulk_create(
            EntryMember(entry=e, player_id=e.player_id, tournament=night) for e in entries
        )
    for night in nights[:-1]:
        round = round_create(tournament=night)  # type: ignore[arg-type]
        round_pair(round=round, seed=3)
        _play(round)
    _timed(
        "league night of 120 after 3 nights: round_pair",
        lambda: "rematches {rematches}".format(
            **round_pair(
                round=round_create(tournament=nights[-1]),  # type: ignore[arg-type]
                seed=3,
            ).report.as_dict()
        ),
    )


if __name__ == "__main__":
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_pairing_{os.getpid()}"
    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = ":memory:"
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(f"database: {connection.vendor}")
        main()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
