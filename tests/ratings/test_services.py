"""Rating services on the database: the hook, one match, corrections, catch-up, recompute."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from league.models import Player, Table, TableResult
from league.services.results import table_result_clear
from ratings.maths import INITIAL, Match, rate_match
from ratings.models import PartnershipRating, PlayerRating, RatingEvent
from ratings.services.rating import (
    rating_apply_match,
    ratings_catch_up,
    ratings_recompute_all,
    tables_to_rate,
)
from ratings.tasks import rating_apply_match_task, ratings_catch_up_task
from tests.factories import PartnershipFactory, TournamentFactory

from .conftest import League, Recorder, at, record

pytestmark = pytest.mark.django_db


def snapshot() -> tuple[list[Any], list[Any], list[Any]]:
    """Every stored rating value, in a stable order."""
    return (
        list(
            PlayerRating.objects.order_by("player_id").values_list(
                "player_id", "mu", "sigma", "display", "matches_count", "last_played_at"
            )
        ),
        list(
            PartnershipRating.objects.order_by("partnership_id").values_list(
                "partnership_id", "mu", "sigma", "display", "matches_count", "last_played_at"
            )
        ),
        list(
            RatingEvent.objects.order_by("table_id", "player_id", "partnership_id").values_list(
                "table_id",
                "player_id",
                "partnership_id",
                "season_id",
                "at",
                "side",
                "placing",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
                "display_after",
                "expected",
            )
        ),
    )


def rating_of(player: Player) -> PlayerRating:
    return PlayerRating.objects.get(player=player)


def test_recording_a_result_enqueues_the_rating_update_for_after_commit(
    league: League,
    players: Callable[[int], list[Player]],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # Given a two-player table
    a, b = players(2)
    table = league.table([a, b])
    # When its result is recorded, nothing is rated before the transaction commits
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        record(table, [1, 2], finished_at=at(0))
    assert not PlayerRating.objects.exists()
    assert callbacks
    # Then once it commits, the task rates the match: the winner above the loser
    for callback in callbacks:
        callback()
    assert rating_of(a).display > rating_of(b).display
    assert rating_of(a).matches_count == rating_of(b).matches_count == 1
    assert RatingEvent.objects.filter(table=table).count() == 2


def test_the_task_applies_one_match_by_table_id(
    league: League, players: Callable[[int], list[Player]]
) -> None:
    a, b = players(2)
    table = league.table([a, b])
    record(table, [2, 1], finished_at=at(0))  # on_commit never fires in this test
    assert rating_apply_match_task.delay(table.pk).get() == 1
    assert rating_of(b).mu > INITIAL.mu > rating_of(a).mu


def test_a_three_player_table_rates_everyone_by_placing_with_a_shared_second(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    a, b, c = players(3)
    played(league.table([a, b, c]), [2, 1, 2], at(0))
    assert rating_of(b).mu > INITIAL.mu
    assert rating_of(a).mu == rating_of(c).mu < INITIAL.mu
    assert list(RatingEvent.objects.order_by("side").values_list("side", "placing")) == [
        (0, 2),
        (1, 1),
        (2, 2),
    ]


def test_a_tie_between_equal_players_leaves_their_means(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    a, b = players(2)
    played(league.table([a, b]), [1, 1], at(0))
    assert rating_of(a).mu == pytest.approx(INITIAL.mu)
    assert rating_of(b).mu == pytest.approx(INITIAL.mu)
    assert rating_of(a).sigma < INITIAL.sigma


def test_a_four_player_table_rates_seats_0_and_2_against_1_and_3(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    p0, p1, p2, p3 = players(4)
    played(league.table([p0, p1, p2, p3]), [2, 1], at(0))
    assert rating_of(p1).mu == rating_of(p3).mu > INITIAL.mu
    assert rating_of(p0).mu == rating_of(p2).mu < INITIAL.mu
    assert not PartnershipRating.objects.exists()  # rotating partners: no unit rating


def test_fixed_partnerships_are_rated_as_units_too(played: Recorder) -> None:
    # Given two fixed partnerships at one table
    league = League(TournamentFactory(format="fixed_partnership", table_size="4"))
    first, second = PartnershipFactory(), PartnershipFactory()
    table = league.partnership_table(first, second)
    # When the first partnership wins
    played(table, [1, 2], at(0))
    # Then each partnership has a unit rating, and its players their own
    assert PartnershipRating.objects.get(partnership=first).mu > INITIAL.mu
    assert PartnershipRating.objects.get(partnership=second).mu < INITIAL.mu
    assert rating_of(first.player_a).mu == rating_of(first.player_b).mu > INITIAL.mu
    assert RatingEvent.objects.filter(table=table, partnership__isnull=False).count() == 2


def test_a_late_result_is_rated_in_match_order(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given A beat B at 20:00, recorded first
    a, b = players(2)
    later, earlier = league.table([a, b]), league.table([b, a])
    played(later, [1, 2], at(60))
    # When a match B won at 19:00 is recorded afterwards
    played(earlier, [1, 2], at(0))
    # Then the 19:00 match is rated first, as if recorded in order
    order = list(RatingEvent.objects.filter(player=a).values_list("table_id", flat=True))
    assert order == [earlier.pk, later.pk]
    by_order = (Match(sides=((b.pk,), (a.pk,)), placings=(1, 2)),)
    skills = {u.subject: u.after for u in rate_match(by_order[0], {})}
    second = rate_match(Match(sides=((a.pk,), (b.pk,)), placings=(1, 2)), skills)
    assert rating_of(a).mu == next(u.after.mu for u in second if u.subject == a.pk)


def test_correcting_an_old_result_replays_the_matches_after_it(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given two matches rated in order
    a, b, c = players(3)
    first, second = league.table([a, b]), league.table([b, c])
    played(first, [1, 2], at(0))
    played(second, [1, 2], at(10))
    b_before = rating_of(b).mu
    # When the first result is corrected (B won it after all)
    played(first, [2, 1], at(0))
    # Then B's later match was re-rated from B's corrected rating
    assert rating_of(b).mu > b_before
    event = RatingEvent.objects.get(table=second, player=b)
    assert event.mu_before == RatingEvent.objects.get(table=first, player=b).mu_after
    assert rating_of(b).matches_count == 2


def test_clearing_a_result_takes_its_match_out_of_the_ratings(
    league: League,
    players: Callable[[int], list[Player]],
    played: Recorder,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    a, b, c = players(3)
    first, second = league.table([a, b]), league.table([a, c])
    played(first, [1, 2], at(0))
    played(second, [1, 2], at(10))
    with django_capture_on_commit_callbacks(execute=True):
        table_result_clear(table_id=first.pk)
    assert not PlayerRating.objects.filter(player=b).exists()
    assert rating_of(a).matches_count == 1
    assert RatingEvent.objects.get(table=second, player=a).mu_before == INITIAL.mu


def test_catch_up_rates_results_whose_task_was_lost(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given one rated match and one whose task never ran
    a, b = players(2)
    rated, lost = league.table([a, b]), league.table([a, b])
    played(rated, [1, 2], at(10))
    record(lost, [2, 1], finished_at=at(0))  # no on_commit: the task is lost
    assert not RatingEvent.objects.filter(table=lost).exists()
    # When the sweep runs
    report = ratings_catch_up()
    # Then both matches are rated in match order, and nothing is left to do
    assert report is not None and report.matches_count == 2
    assert RatingEvent.objects.filter(table=lost).count() == 2
    assert ratings_catch_up() is None
    assert rating_apply_match(table_id=rated.pk).matches_count == 0  # already rated


def test_a_table_whose_seats_do_not_match_its_result_is_skipped(
    league: League, players: Callable[[int], list[Player]], played: Recorder
) -> None:
    a, b = players(2)
    table = league.table([a, b])
    table.seats.filter(number=1).delete()
    played(table, [1, 2], at(0))
    assert not RatingEvent.objects.exists()
    assert tables_to_rate() == []
    assert ratings_recompute_all().skipped_table_ids == (table.pk,)
    assert ratings_catch_up() is None  # and the sweep does not retry it forever


def test_incremental_updates_equal_a_full_recompute(
    players: Callable[[int], list[Player]], played: Recorder
) -> None:
    # Given two tournaments of eight players: individuals at 2, 3 and 4 seats, and
    # three fixed partnerships
    rng = random.Random(2026)
    people = players(8)
    singles = League(TournamentFactory())
    pairs = League(TournamentFactory(format="fixed_partnership", table_size="4"))
    units = [PartnershipFactory(player_a=people[i], player_b=people[i + 1]) for i in range(0, 6, 2)]
    tables: list[tuple[Table, int]] = []
    for _ in range(28):
        kind = rng.choice((2, 3, 4, "pairs"))
        if kind == "pairs":
            first, second = rng.sample(units, 2)
            table = pairs.partnership_table(first, second)
        else:
            table = singles.table(rng.sample(people, int(kind)))
        tables.append((table, rng.randrange(0, 400, 20)))  # equal times: table id decides

    def placings(table: Table) -> list[int]:
        n = 2 if table.player_count == 4 else table.player_count
        return [rng.randint(1, n) for _ in range(n)]

    # When results arrive out of order, each rated incrementally by its task,
    rng.shuffle(tables)
    for table, minute in tables:
        played(table, placings(table), at(minute))
    # some are corrected (new placings, some at a new time), and two are cleared
    for table, minute in rng.sample(tables, 6):
        played(table, placings(table), at(minute + rng.choice((0, 0, 15, -15))))
    for table, _minute in rng.sample(tables, 2):
        table_result_clear(table_id=table.pk)
        rating_apply_match(table_id=table.pk)
    incremental = snapshot()
    # Then a full recompute from scratch gives exactly the same rows
    report = ratings_recompute_all()
    assert snapshot() == incremental
    assert report.matches_count == TableResult.objects.count() == 26
    assert len(incremental[1]) == 3  # the partnerships were rated as units
    assert (
        sum(row[4] for row in incremental[0])
        == RatingEvent.objects.filter(player__isnull=False).count()
    )


def test_the_recompute_command_reports_what_it_rated(
    league: League, players: Callable[[int], list[Player]], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b, c = players(3)
    record(league.table([a, b, c]), [1, 2, 3], finished_at=at(0))
    record(league.table([a, b]), [1, 2], finished_at=at(5))
    call_command("ratings_recompute", "--calibration")
    out = capsys.readouterr().out
    assert "Rated 2 matches (5 rating events)" in out
    assert "0.3-0.4             3      0.333     0.333  +0.00" in out  # three sides at 1/3
    assert rating_of(a).matches_count == 2


def test_the_catch_up_sweep_is_a_scheduled_task(
    league: League, players: Callable[[int], list[Player]]
) -> None:
    assert settings.CELERY_BEAT_SCHEDULE["ratings-catch-up"]["task"] == ratings_catch_up_task.name
    a, b = players(2)
    record(league.table([a, b]), [1, 2], finished_at=at(0))  # its task never ran
    assert ratings_catch_up_task.delay().get() == 1
    assert ratings_catch_up_task.delay().get() == 0
