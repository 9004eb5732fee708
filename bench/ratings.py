"""Rating timings: recomputing every rating from 10,000 finished matches, and the
incremental paths (the newest match; a correction in the middle of the history).

Sets up its own throwaway database (Django's test-database helpers: SQLite in memory by
default, or the server named by DATABASE_URL), fills it with 10,000 results at two-,
three- and four-player tables among 300 players (a tenth of them between fixed
partnerships, rated as units too), then prints the time of each step. Aim:
the full recompute of 10,000 matches in 5 s or less.

    .venv/bin/python bench/ratings.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kelipatan .venv/bin/python bench/ratings.py
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

MATCHES = 10_000
PLAYERS = 300
PARTNERSHIPS = 40
TABLES_PER_ROUND = 100
AIM_S = 5.0


def _fill(rng: random.Random) -> None:
    """10,000 finished tables with seats and results, written in bulk."""
    from league.models import (
        Entry,
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

    rules = RuleSet.objects.create(name="bench ratings")
    season = Season.objects.create(
        name="bench",
        slug="bench",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
        rule_set=rules,
    )
    players = Player.objects.bulk_create(
        Player(name=f"P{i}", slug=f"bench-p{i}") for i in range(PLAYERS)
    )
    partnerships = Partnership.objects.bulk_create(
        Partnership(
            name=f"U{i}", slug=f"bench-u{i}", player_a=players[2 * i], player_b=players[2 * i + 1]
        )
        for i in range(PARTNERSHIPS)
    )
    singles = Tournament.objects.create(name="singles", slug="bench-singles", season=season)
    pairs = Tournament.objects.create(
        name="pairs",
        slug="bench-pairs",
        season=season,
        format="fixed_partnership",
        table_size="4",
    )
    single_entry = {
        p.pk: e.pk
        for p, e in zip(
            players,
            Entry.objects.bulk_create(Entry(tournament=singles, player=p) for p in players),
            strict=True,
        )
    }
    pair_entry = {
        u.pk: e.pk
        for u, e in zip(
            partnerships,
            Entry.objects.bulk_create(Entry(tournament=pairs, partnership=u) for u in partnerships),
            strict=True,
        )
    }
    rounds = {
        t.pk: Round.objects.bulk_create(
            Round(tournament=t, number=n + 1) for n in range(MATCHES // TABLES_PER_ROUND)
        )
        for t in (singles, pairs)
    }
    start = datetime(2026, 1, 5, 19, 0, tzinfo=UTC)
    plan = []  # (tournament, seats as (player, entry), placings)
    for _ in range(MATCHES):
        if rng.random() < 0.1:
            a, b = rng.sample(partnerships, 2)
            seats = [
                (a.player_a_id, pair_entry[a.pk]),
                (b.player_a_id, pair_entry[b.pk]),
                (a.player_b_id, pair_entry[a.pk]),
                (b.player_b_id, pair_entry[b.pk]),
            ]
            plan.append((pairs.pk, seats, [1, 2] if rng.random() < 0.5 else [2, 1]))
            continue
        size = rng.choice((2, 3, 4))
        chosen = rng.sample(players, size)
        sides = 2 if size == 4 else size
        placings = [rng.randint(1, sides) for _ in range(sides)]
        placings = [1 + sum(1 for o in placings if o < p) for p in placings]
        plan.append((singles.pk, [(p.pk, single_entry[p.pk]) for p in chosen], placings))
    counters = {singles.pk: 0, pairs.pk: 0}
    tables = []
    for tournament_id, seats, _placings in plan:
        k = counters[tournament_id]
        counters[tournament_id] += 1
        tables.append(
            Table(
                round=rounds[tournament_id][k // TABLES_PER_ROUND],
                number=k % TABLES_PER_ROUND + 1,
                player_count=len(seats),
                target=200,
                status="finished",
            )
        )
    tables = Table.objects.bulk_create(tables, batch_size=2000)
    Seat.objects.bulk_create(
        (
            Seat(table=table, number=n, player_id=player_id, entry_id=entry_id)
            for table, (_t, seats, _p) in zip(tables, plan, strict=True)
            for n, (player_id, entry_id) in enumerate(seats)
        ),
        batch_size=2000,
    )
    results = TableResult.objects.bulk_create(
        (
            TableResult(table=table, finished_at=start + timedelta(minutes=7 * i), hands_count=6)
            for i, table in enumerate(tables)
        ),
        batch_size=2000,
    )
    TableResultSide.objects.bulk_create(
        (
            TableResultSide(
                result=result,
                side=side,
                points_x2=(260 - 40 * placing) * 2,
                placing=placing,
                is_winner=placing == 1,
            )
            for result, (_t, _s, placings) in zip(results, plan, strict=True)
            for side, placing in enumerate(placings)
        ),
        batch_size=2000,
    )


def _timed(label: str, run: Callable[[], object]) -> float:
    """Run once; print the wall time and this process's CPU time (the database server's
    time shows in the wall time only, and so does any other load on the machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    outcome = run()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label:<52} {wall:7.3f} s wall {cpu:7.3f} s cpu   {outcome}")
    return wall


def _brief(report: Any) -> str:
    return f"{report.matches_count} matches, {report.events_count} events"


def main() -> None:
    from django.db import transaction

    from league.models import TableResult
    from ratings.maths import Match, rate_matches
    from ratings.models import RatingEvent
    from ratings.services.rating import (
        rating_apply_match,
        ratings_recompute_all,
        tables_to_rate,
    )

    rng = random.Random(10)
    print(f"database: {connection.vendor}; load average {os.getloadavg()[0]:.1f}")

    def fill() -> str:
        with transaction.atomic():
            _fill(rng)
        return f"{MATCHES} finished matches"

    _timed("fill the database", fill)

    tables = tables_to_rate()
    matches = [Match(sides=t.players, placings=t.placings) for t in tables] + [
        Match(sides=tuple((u,) for u in t.partnerships), placings=t.placings, seats=4)
        for t in tables
        if t.partnerships is not None
    ]
    _timed(
        "pure maths: rate every match (no database)", lambda: len(list(rate_matches(matches, {})))
    )
    _timed("read the results in match order", lambda: f"{len(tables_to_rate())} tables")
    full = _timed("full recompute (ratings_recompute_all)", lambda: _brief(ratings_recompute_all()))
    _timed("full recompute again (replaces every row)", lambda: _brief(ratings_recompute_all()))

    newest = TableResult.objects.order_by("-finished_at", "-table_id").first()
    assert newest is not None
    newest.save()  # a corrected result: a new version of the newest match
    _timed(
        "incremental: the newest match corrected",
        lambda: _brief(rating_apply_match(table_id=newest.table_id)),
    )
    middle = TableResult.objects.order_by("finished_at", "table_id")[MATCHES // 2]
    middle.save()
    _timed(
        "incremental: a correction half-way (replays 5,000)",
        lambda: _brief(rating_apply_match(table_id=middle.table_id)),
    )
    print(f"rating events stored: {RatingEvent.objects.count()}")
    verdict = "ok" if full <= AIM_S else "over the aim"
    print(
        f"full recompute of {MATCHES} matches: {full:.2f} s wall "
        f"(aim <= {AIM_S:.0f} s: {verdict}; load average {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_ratings_{os.getpid()}"
    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = ":memory:"
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        main()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
