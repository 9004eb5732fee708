"""A small tournament day for the public-site tests, built with the shared factories and
rows as score entry leaves them (results are written directly: the standings refresh
that ``table_result_record`` triggers is not what these tests are about)."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from allfives import Rules, simulate_match
from league.models import Entry, Partnership, Player, Round, Season, Table, Tournament
from matches.models import Match
from matches.services.lifecycle import match_import
from tests.factories import (
    EntryFactory,
    PartnershipFactory,
    PlayerFactory,
    RoundFactory,
    RuleSetFactory,
    SeasonFactory,
    SeatFactory,
    TableFactory,
    TableResultFactory,
    TableResultSideFactory,
    TournamentFactory,
)

EVIL_NAME = '<script>alert("x")</script> Budi & "Co"'


@dataclass
class LeagueDay:
    season: Season
    tournament: Tournament
    pairs: Tournament
    draft: Tournament
    players: list[Player]
    entries: list[Entry]
    finished_round: Round
    live_round: Round
    draft_round: Round
    split_table: Table
    playing_table: Table
    partnership: Partnership
    extra: dict[str, object] = field(default_factory=dict)


def seat_table(round_: Round, number: int, entries: list[Entry], **kwargs: object) -> Table:
    """A table with the given individual entries seated clockwise from seat 0."""
    table = TableFactory(round=round_, number=number, player_count=len(entries), **kwargs)
    for seat, entry in enumerate(entries):
        SeatFactory(table=table, number=seat, entry=entry, player=entry.player)
    return table


def record(table: Table, points_x2: list[int], placings: list[int], hands: int = 7) -> None:
    """A finished table's result, one line per side, as score entry leaves it."""
    result = TableResultFactory(
        table=table,
        hands_count=hands,
        finished_at=timezone.now() - dt.timedelta(minutes=10 * (5 - table.number)),
        is_tie=placings.count(1) > 1,
    )
    for side, (points, placing) in enumerate(zip(points_x2, placings, strict=True)):
        TableResultSideFactory(result=result, side=side, points_x2=points, placing=placing)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)


def build_league_day() -> LeagueDay:
    rules = RuleSetFactory(name="Aturan Klub", target_2=250, target_3=200, target_4=200)
    season = SeasonFactory(name="Musim Hujan 2026", slug="musim-hujan-2026", rule_set=rules)
    tournament = TournamentFactory(
        name="Piala Kelipatan",
        slug="piala-kelipatan",
        season=season,
        table_size=Tournament.TableSize.MIXED,
        starts_on=dt.date(2026, 11, 7),
        venue="Balai Warga",
        rounds_count=3,
    )
    names = ["Ani", "Budi", "Citra", "Dedi", "Eka", EVIL_NAME, "Gita"]
    players = [
        PlayerFactory(name=n, email=f"p{i}@private.example", phone=f"+62 811 000 {i:03d}")
        for i, n in enumerate(names)
    ]
    entries = [EntryFactory(tournament=tournament, player=p) for p in players]
    r1 = RoundFactory(tournament=tournament, number=1, status=Round.Status.FINISHED)
    t1 = seat_table(r1, 1, entries[0:2], target=250)
    record(t1, [500, 310], [1, 2])  # 250 to 155
    split = seat_table(r1, 2, entries[2:5], target=200)
    record(split, [410, 175, 175], [1, 2, 2])  # 205, 87.5, 87.5: the R20 split
    r1.byes.add(entries[5], entries[6])
    r2 = RoundFactory(tournament=tournament, number=2, status=Round.Status.PUBLISHED)
    playing = seat_table(r2, 1, [entries[0], entries[5]], target=250)
    Table.objects.filter(pk=playing.pk).update(status=Table.Status.PLAYING)
    playing.refresh_from_db()
    seat_table(r2, 2, [entries[1], entries[2], entries[3]], target=200)
    r3 = RoundFactory(tournament=tournament, number=3, status=Round.Status.DRAFT)
    seat_table(r3, 1, [entries[6], entries[4]], target=250)

    pairs = TournamentFactory(
        name="Pasangan Tetap",
        slug="pasangan-tetap",
        season=season,
        format=Tournament.Format.FIXED_PARTNERSHIP,
        table_size=Tournament.TableSize.FOUR,
        status=Tournament.Status.FINISHED,
    )
    p1 = PartnershipFactory(name="Duo Ani Budi", player_a=players[0], player_b=players[1])
    p2 = PartnershipFactory(name="Duo Citra Dedi", player_a=players[2], player_b=players[3])
    e1 = EntryFactory(tournament=pairs, player=None, partnership=p1)
    e2 = EntryFactory(tournament=pairs, player=None, partnership=p2)
    pr = RoundFactory(tournament=pairs, number=1, status=Round.Status.FINISHED)
    four = TableFactory(round=pr, number=1, player_count=4, target=200)
    for seat, (entry, player) in enumerate(
        [(e1, players[0]), (e2, players[2]), (e1, players[1]), (e2, players[3])]
    ):
        SeatFactory(table=four, number=seat, entry=entry, player=player)
    record(four, [300, 410], [2, 1], hands=9)

    draft = TournamentFactory(
        name="Rahasia Draf", slug="rahasia-draf", season=season, status=Tournament.Status.DRAFT
    )
    dr = RoundFactory(tournament=draft, number=1, status=Round.Status.PUBLISHED)
    draft_entries = [EntryFactory(tournament=draft, player=p) for p in players[:2]]
    seat_table(dr, 1, draft_entries, target=250)
    return LeagueDay(
        season=season,
        tournament=tournament,
        pairs=pairs,
        draft=draft,
        players=players,
        entries=entries,
        finished_round=r1,
        live_round=r2,
        draft_round=r3,
        split_table=split,
        playing_table=playing,
        partnership=p1,
    )


# Change history (simple_history) is not what these tests read; leaving it out of the
# data they build halves the time each test takes to set up.
WITHOUT_HISTORY = override_settings(SIMPLE_HISTORY_ENABLED=False)


@pytest.fixture
def league_day(db: None) -> LeagueDay:
    with WITHOUT_HISTORY:
        return build_league_day()


# --- Matches at the tables, entered as score entry stores them ----------------------


def tally_hand(leader: int, scores: list[list[int]], end: dict[str, Any], left: Any = None) -> Any:
    hand: dict[str, Any] = {"leader": leader, "scores": scores, "end": end}
    if left is not None:
        hand["left"] = left
    return hand


#: Four players to 50, tally entry: seats 0+2 win in hand 3 (as in tests/matches/sheets.py).
TALLY_TO_50 = [
    tally_hand(0, [[0, 10], [1, 5]], {"domino": 2}, {"0": 7, "1": 8, "2": 0, "3": 6}),
    tally_hand(2, [[2, 20], [3, 5]], {"domino": 1}, {"0": 3, "1": 0, "2": 4, "3": 10}),
    tally_hand(1, [[1, 5], [2, 5]], {"target": True}),
]


def simulated(players: int, seed: int, *, hands: int | None = None) -> dict[str, Any]:
    """A tile-by-tile scoresheet played by the engine's greedy players (cut to ``hands``)."""
    doc = simulate_match(
        players=players, rules=Rules(), rng=random.Random(seed), strategies=["greedy"] * players
    )
    if hands is not None:
        doc["hands"] = list(doc["hands"])[:hands]  # type: ignore[call-overload]
    return doc


@dataclass
class ScoredDay:
    day: LeagueDay
    finished_tiles: Match  # round 1, table 1: a whole tile-by-tile match
    live: Match  # round 2, table 1: two hands so far
    tally: Match  # league night, four players, tally entry, to 50
    live_document: dict[str, Any]


def build_scored_day() -> ScoredDay:
    day = build_league_day()
    t1 = day.finished_round.tables.get(number=1)
    finished = match_import(document=simulated(2, seed=5), user=None, table=t1)
    live_document = simulated(2, seed=11)
    live = match_import(
        document={**live_document, "hands": live_document["hands"][:2]},
        user=None,
        table=day.playing_table,
    )
    night = TournamentFactory(
        name="Malam Liga",
        slug="malam-liga",
        season=day.season,
        format=Tournament.Format.ROTATING_PARTNER,
        table_size=Tournament.TableSize.FOUR,
        entry_mode=Tournament.EntryMode.TALLY,
        status=Tournament.Status.RUNNING,
    )
    entries = [EntryFactory(tournament=night, player=p) for p in day.players[:4]]
    night_round = RoundFactory(tournament=night, number=1, status=Round.Status.PUBLISHED)
    four = seat_table(night_round, 1, entries, target=50)
    tally = match_import(
        document={"format": "allfives/1", "players": 4, "hands": TALLY_TO_50},
        user=None,
        table=four,
    )
    return ScoredDay(
        day=day,
        finished_tiles=finished,
        live=live,
        tally=tally,
        live_document=live_document,
    )


@pytest.fixture
def scored_day(db: None) -> ScoredDay:
    with WITHOUT_HISTORY:
        return build_scored_day()
