"""Score entry timings on PostgreSQL: recording a hand through the API, and replaying a
20-hand match after a correction.

Sets up its own throwaway database (Django's test-database helpers, on the server
named by DATABASE_URL) and prints the median and the 95th percentile of each.
Aims: under 50 ms to record a hand, under 20 ms to replay after a correction.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kelipatan .venv/bin/python bench/entry.py
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
# a worker refreshes standings in production; here tasks go to the in-memory broker
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

RECORDS = 200
CORRECTIONS = 50


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def _report(name: str, samples: list[float], aim_ms: float) -> None:
    median, p95 = _percentiles(samples)
    verdict = "ok" if p95 * 1000 < aim_ms else "over the aim"
    print(
        f"{name:<52} n={len(samples):<4} median {median * 1000:7.2f} ms   "
        f"p95 {p95 * 1000:7.2f} ms   (aim < {aim_ms:.0f} ms: {verdict})"
    )


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = call()
    return time.perf_counter() - started, result


def main() -> None:
    if connection.vendor != "postgresql":
        print("bench/entry.py needs PostgreSQL: set DATABASE_URL=postgres://…", file=sys.stderr)
        raise SystemExit(2)
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    # a name of its own: other runs may be using the usual test database right now
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_entry_{os.getpid()}"
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run() -> None:
    from rest_framework.test import APIClient

    from allfives import Rules, replay, simulate_match
    from league.models import Tournament
    from matches.models import Match
    from matches.selectors import match_document, match_hands
    from matches.services.hands import hand_correct
    from matches.services.lifecycle import match_for_table, match_import
    from tests.factories import (
        EntryFactory,
        RoundFactory,
        SeatFactory,
        TableFactory,
        TournamentFactory,
        UserFactory,
    )

    scorekeeper = UserFactory(username="bench-scorekeeper")
    tournament = TournamentFactory(table_size=Tournament.TableSize.FOUR)
    tournament.scorekeepers.add(scorekeeper)

    def table(target: int) -> Any:
        made = TableFactory(
            round=RoundFactory(tournament=tournament), player_count=4, target=target
        )
        for number in range(4):
            SeatFactory(table=made, number=number, entry=EntryFactory(tournament=tournament))
        return made

    client = APIClient()
    client.force_authenticate(user=scorekeeper)

    # 1. Recording a hand through the API: tally hands (what a scorekeeper sends), in
    #    matches of 20 hands so the replay behind each write is a realistic length.
    rng = random.Random(5)
    samples: list[float] = []
    match: dict[str, Any] = {}
    for index in range(RECORDS):
        if index % 20 == 0:
            match = client.post("/api/matches/", {"table": table(100_000).pk}, format="json").json()
        hand = {
            "leader": rng.randrange(4),
            "scores": [[rng.randrange(4), rng.choice([5, 10, 15, 20])] for _ in range(3)],
            "end": {"blocked": True},
            "left": {str(s): rng.randint(1, 20) for s in range(4)},
        }
        body = {"version": match["version"], "number": match["next_hand"], "hand": hand}
        elapsed, response = _timed(
            lambda body=body, match=match: client.post(
                f"/api/matches/{match['id']}/hands", body, format="json"
            )
        )
        assert response.status_code == 201, response.content
        match = response.json()
        samples.append(elapsed)
    _report("record a tally hand through the API (POST …/hands)", samples, 50)

    # 2. A 20-hand tile-by-tile match (simulated), corrected: the whole match replays.
    rules = Rules(targets={4: 100_000})
    document = simulate_match(players=4, rules=rules, rng=random.Random(11), strategies=["greedy"])
    hands = list(document["hands"])  # type: ignore[arg-type]
    # the simulated match never ends at this target; keep its first 20 hands by
    # simulating until there are enough
    seed = 11
    while len(hands) < 20:
        seed += 1
        hands = list(
            simulate_match(players=4, rules=rules, rng=random.Random(seed), strategies=["greedy"])[
                "hands"
            ]  # type: ignore[index]
        )
    document = {**document, "hands": hands[:20]}
    corrected_table = table(100_000)
    stored = match_for_table(table=corrected_table)
    stored.entry_mode = Match.EntryMode.TILES
    stored.save(update_fields=["entry_mode"])
    stored = match_import(match=stored, document={**document, "rules": stored.rules}, user=None)
    engine_samples, service_samples, api_samples = [], [], []
    doc = match_document(match=stored)
    for _ in range(CORRECTIONS):
        elapsed, _replayed = _timed(lambda: replay(doc))
        engine_samples.append(elapsed)
    match_id = stored.pk
    for _ in range(CORRECTIONS):
        stored = Match.objects.get(pk=match_id)
        first = match_hands(match=stored)[0]
        # the correction re-sends hand 1 as entered: the service replays and compares
        # the whole match exactly as for a real change (which would need another legal hand)
        elapsed, stored = _timed(
            lambda stored=stored, first=first: hand_correct(
                match=stored, number=1, hand=first.entry, version=stored.version, user=scorekeeper
            )
        )
        service_samples.append(elapsed)
        state = client.get(f"/api/matches/{match_id}/").json()
        elapsed, response = _timed(
            lambda state=state, first=first: client.put(
                f"/api/matches/{match_id}/hands/1",
                {"version": state["version"], "hand": first.entry},
                format="json",
            )
        )
        assert response.status_code == 200, response.content
        api_samples.append(elapsed)
    _report("replay a 20-hand tile-by-tile match (engine only)", engine_samples, 20)
    _report("correct hand 1 of 20: replay + store (service)", service_samples, 20)
    _report("correct hand 1 of 20 through the API (PUT …/hands/1)", api_samples, 50)


if __name__ == "__main__":
    main()
