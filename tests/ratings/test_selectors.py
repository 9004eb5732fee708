"""Rating reads: leaderboards, histories, a table's win chances and rating seeds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation

from league.models import Player
from ratings.display import player_rating_chart_svg
from ratings.maths import INITIAL, Skill, win_probabilities
from ratings.models import PlayerRating
from ratings.selectors import (
    partnerships_leaderboard,
    player_rating_history,
    player_skill,
    ratings_calibration,
    ratings_leaderboard,
    table_win_probabilities,
    tables_win_probabilities,
    tournament_entries_by_rating,
)
from tests.factories import PartnershipFactory, TournamentFactory

from .conftest import League, Recorder, at

pytestmark = pytest.mark.django_db


def test_the_all_time_leaderboard_lists_only_players_with_enough_matches(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given A beat B three times, and C played once
    a, b, c = players(3)
    for minute in range(3):
        played(league.table([a, b]), [1, 2], at(minute))
    played(league.table([c, b]), [1, 2], at(10))
    # When the leaderboard asks for at least three matches
    board = ratings_leaderboard(min_matches=3)
    # Then A ranks above B, and C is left out
    assert [(row.rank, row.subject_id, row.matches_count) for row in board] == [
        (1, a.pk, 3),
        (2, b.pk, 4),
    ]
    assert board[0].display == PlayerRating.objects.get(player=a).display
    assert ratings_leaderboard(min_matches=1, limit=1)[0].subject_id == a.pk


def test_a_season_leaderboard_counts_that_season_and_its_last_rating(
    players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given A beat B twice in one season, then lost to B twice in the next
    a, b = players(2)
    first, second = League(TournamentFactory()), League(TournamentFactory())
    played(first.table([a, b]), [1, 2], at(0))
    played(first.table([a, b]), [1, 2], at(1))
    played(second.table([a, b]), [2, 1], at(2))
    played(second.table([a, b]), [2, 1], at(3))
    season = first.tournament.season
    assert season is not None
    # When the first season's leaderboard is read
    board = ratings_leaderboard(season_id=season.pk, min_matches=2)
    # Then A leads it with the rating A had after that season, two matches each
    assert [row.subject_id for row in board] == [a.pk, b.pk]
    assert [row.matches_count for row in board] == [2, 2]
    history = player_rating_history(player_id=a.pk)
    assert board[0].display == history[1].display != PlayerRating.objects.get(player=a).display


def test_players_with_equal_ratings_share_a_rank(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    a, b = players(2)
    played(league.table([a, b]), [1, 1], at(0))
    assert [row.rank for row in ratings_leaderboard(min_matches=1)] == [1, 1]


def test_the_partnership_leaderboard_ranks_units(played: Recorder) -> None:
    league = League(TournamentFactory(format="fixed_partnership", table_size="4"))
    first, second = PartnershipFactory(), PartnershipFactory()
    played(league.partnership_table(first, second), [2, 1], at(0))
    board = partnerships_leaderboard(min_matches=1)
    assert [row.subject_id for row in board] == [second.pk, first.pk]
    assert board[0].slug == second.slug


def test_a_players_history_is_one_point_per_match_oldest_first(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    a, b, c = players(3)
    played(league.table([a, b, c]), [1, 2, 3], at(5))
    played(league.table([a, b]), [2, 1], at(0))
    history = player_rating_history(player_id=a.pk)
    assert [p.at for p in history] == [at(0), at(5)]
    assert [p.placing for p in history] == [2, 1]
    assert history[-1].mu == player_skill(player_id=a.pk).mu
    assert history[0].expected == pytest.approx(0.5)
    assert history[1].expected == pytest.approx(
        win_probabilities(
            [[Skill(history[0].mu, history[0].sigma)], [player_skill_before(b, 1)], [INITIAL]]
        )[0]
    )


def player_skill_before(player: Player, index: int) -> Skill:
    """The player's rating before their ``index``-th match (0-based)."""
    points = player_rating_history(player_id=player.pk)
    return INITIAL if index == 0 else Skill(points[index - 1].mu, points[index - 1].sigma)


def test_win_probabilities_of_a_table_favour_the_stronger_player_before_and_after_play(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given A beat B twice
    a, b = players(2)
    played(league.table([a, b]), [1, 2], at(0))
    played(league.table([a, b]), [1, 2], at(1))
    # When their next table is shown, A is favoured
    upcoming = league.table([b, a])
    chances = table_win_probabilities(table_id=upcoming.pk)
    assert set(chances) == {0, 1}
    assert chances[1] > 0.5 > chances[0]
    assert sum(chances.values()) == pytest.approx(1.0)
    # And once that table is played and rated, it still shows the chances before it
    played(upcoming, [1, 2], at(2))
    assert table_win_probabilities(table_id=upcoming.pk) == pytest.approx(chances)


def test_win_probabilities_of_a_four_player_table_are_by_side(
    league: League, players: Callable[[int], list[Player]]
) -> None:
    table = league.table(players(4))
    assert table_win_probabilities(table_id=table.pk) == pytest.approx({0: 0.5, 1: 0.5})


def test_win_probabilities_of_a_table_with_an_empty_seat_are_empty(
    league: League, players: Callable[[int], list[Player]]
) -> None:
    table = league.table(players(3))
    table.seats.filter(number=2).delete()
    assert table_win_probabilities(table_id=table.pk) == {}


def test_entries_by_rating_put_the_strongest_first_and_unrated_at_the_initial_rating(
    players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given A beat B twice in an earlier event
    a, b, newcomer = players(3)
    earlier = League(TournamentFactory())
    played(earlier.table([a, b]), [1, 2], at(0))
    played(earlier.table([a, b]), [1, 2], at(1))
    # When a Swiss tournament seeds B, the newcomer and A by rating
    swiss = League(TournamentFactory())
    entries = [swiss.entry_for(p) for p in (b, newcomer, a)]
    seeded = tournament_entries_by_rating(tournament_id=swiss.tournament.pk)
    # Then A comes first and the newcomer sits at the initial display rating
    assert seeded[0].entry_id == entries[2].pk
    assert {e.entry_id: e.display for e in seeded}[entries[1].pk] == pytest.approx(0.0)
    assert [e.display for e in seeded] == sorted((e.display for e in seeded), reverse=True)


def test_a_partnership_entry_is_seeded_by_its_members_ratings(
    players: Callable[[int], list[Player]], played: Recorder
) -> None:
    strong, weak, x, y = players(4)
    earlier = League(TournamentFactory())
    played(earlier.table([strong, weak]), [1, 2], at(0))
    pairs = League(TournamentFactory(format="fixed_partnership", table_size="4"))
    one = PartnershipFactory(player_a=strong, player_b=x)
    two = PartnershipFactory(player_a=weak, player_b=y)
    pairs.partnership_table(two, one)  # registers both entries
    seeded = tournament_entries_by_rating(tournament_id=pairs.tournament.pk)
    partnership_of = {e.pk: e.partnership_id for e in pairs.tournament.entries.all()}
    assert [partnership_of[e.entry_id] for e in seeded] == [one.pk, two.pk]


def test_the_calibration_readout_counts_each_side_once_and_shares_a_tied_first(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given a four-player table won by seats 0+2, and a three-player table tied for first
    p = players(4)
    played(league.table(p), [1, 2], at(0))
    played(league.table(p[:3]), [1, 1, 3], at(1))
    # When the stored predictions are read back against what happened
    bins = ratings_calibration()
    # Then five sides were predicted (partners count once), four of them near even
    assert sum(b.count for b in bins) == 5
    observed = sum(b.observed * b.count for b in bins)
    assert observed == pytest.approx(1 + 0.5 + 0.5)


def test_the_rating_chart_of_a_player_is_safe_translated_svg(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    a, b = players(2)
    assert player_rating_chart_svg(player_id=a.pk) is None  # nothing rated yet
    played(league.table([a, b]), [1, 2], at(0))
    played(league.table([a, b]), [1, 2], at(1))
    with translation.override("en"):
        svg = player_rating_chart_svg(player_id=a.pk)
    assert svg is not None and svg.startswith("<svg")
    assert f'<title id="rating-chart-{a.pk}-title">Rating of {a.name}</title>' in svg
    assert "2 matches" in svg
    assert svg.count("<circle") == 2


def test_win_probabilities_of_many_tables_take_a_fixed_number_of_queries(
    league: League,
    players: Callable[[int], list[Player]],
    played: Recorder,
    django_assert_num_queries: Callable[..., Any],
) -> None:
    # Given a rated table, two tables to play and one with an empty seat
    a, b, c, d = players(4)
    played(league.table([a, b]), [1, 2], at(0))
    upcoming = [league.table([a, b]), league.table([a, b, c, d])]
    empty = league.table([c, d])
    empty.seats.filter(number=1).delete()
    ids = [t.pk for t in upcoming] + [empty.pk]
    # When their chances are read together
    with django_assert_num_queries(4):
        chances = tables_win_probabilities(table_ids=ids)
    # Then each playable table has its sides' chances, same as one by one
    assert set(chances) == {t.pk for t in upcoming}
    for table in upcoming:
        assert chances[table.pk] == table_win_probabilities(table_id=table.pk)
    assert chances[upcoming[0].pk][0] > 0.5
