"""League nights: only tonight's entrants, the season's history as memory, seeds."""

from __future__ import annotations

import pytest

from pairing.algorithms.league_night import league_night_pair
from pairing.algorithms.types import Entrant, History, PairingError
from tests.pairing.algorithms.counters import is_partition, key


def test_prefers_the_pairs_met_least_this_season() -> None:
    # Six present; 0 met 1 three times, 2 and 3 twice each; 0 never met 4.
    season = History.from_rounds([[(0, 1), (2, 3), (4, 5)]] * 2 + [[(0, 1)], [(2, 5)], [(3, 4)]])
    present = [Entrant(i, score=10 - i, rank=i + 1) for i in range(6)]
    draw = league_night_pair(present, season, seed=3)
    pairs = {key(*t.seats) for t in draw.tables}
    assert draw.report.rematches == 0
    assert (0, 1) not in pairs and (2, 3) not in pairs and (4, 5) not in pairs


def test_only_checked_in_entrants_are_paired_and_scores_are_reported_truly() -> None:
    season = History.from_rounds([[(1, 2, 3, 4), (5, 6, 7, 8)]])
    present = [Entrant(i, score=i) for i in (1, 2, 5, 6, 9, 11, 12, 13)]
    draw = league_night_pair(present, season, seed=1, table_size=4)
    assert is_partition([t.seats for t in draw.tables], (), [e.id for e in present])
    assert draw.report.rematches == 0
    # Seated without standings, but the report uses the real points.
    assert draw.report.largest_score_gap == max(max(t.seats) - min(t.seats) for t in draw.tables)


def test_rotating_partners_night_avoids_last_weeks_partners() -> None:
    season = History.from_rounds([[(0, 1, 2, 3), (4, 5, 6, 7)]])  # partners 0+2, 1+3, 4+6, 5+7
    present = [Entrant(i) for i in range(8)]
    draw = league_night_pair(present, season, seed=2, table_size=4, rotating_partners=True)
    assert draw.report.partner_repeats == 0
    assert draw.report.opponent_repeats == 0


def test_by_standing_is_a_swiss_on_season_points() -> None:
    present = [Entrant(i, score=[4, 4, 1, 1][i], rank=i + 1) for i in range(4)]
    draw = league_night_pair(present, History(), seed=0, by_standing=True)
    assert {key(*t.seats) for t in draw.tables} == {(0, 1), (2, 3)}


def test_seed_decides_among_equals_and_is_repeatable() -> None:
    present = [Entrant(i) for i in range(12)]
    draws = [league_night_pair(present, History(), seed=s, table_size=3) for s in range(4)]
    assert league_night_pair(present, History(), seed=0, table_size=3) == draws[0]
    assert len({d.tables for d in draws}) > 1


def test_rotating_partners_need_four_seats() -> None:
    with pytest.raises(PairingError):
        league_night_pair([Entrant(i) for i in range(6)], History(), seed=0, rotating_partners=True)


def test_when_everyone_has_met_the_least_met_pairs_play() -> None:
    counts = {(0, 1): 3, (2, 3): 3, (0, 2): 1, (1, 3): 1, (0, 3): 2, (1, 2): 2}
    season = History(met={frozenset(p): c for p, c in counts.items()})
    draw = league_night_pair([Entrant(i) for i in range(4)], season, seed=0)
    assert {key(*t.seats) for t in draw.tables} == {(0, 2), (1, 3)}
    assert draw.report.rematches == 2
