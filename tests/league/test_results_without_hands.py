"""Results without hands: a forfeit, a double forfeit and an agreed score, recorded by
an organiser, in the standings, the ratings and the history; refused over recorded hands
unless the organiser replaces them."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from league.models import ResultKind, Table, TableResult, Tournament
from league.services.results import (
    table_agreed_record,
    table_double_forfeit_record,
    table_forfeit_record,
)
from matches.models import Hand, Match
from matches.services.hands import hand_record
from matches.services.lifecycle import match_for_table
from ratings.models import RatingEvent
from ratings.services.rating import ratings_recompute_all, tables_to_rate
from standings.models import Standings, StandingsRow
from standings.services.refresh import standings_refresh
from tests.factories import RuleSetFactory, TournamentFactory, UserFactory
from tests.matches.sheets import tally
from tests.standings.conftest import League

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return UserFactory(username="panitia")


@pytest.fixture
def league(organiser: Any) -> League:
    tournament = TournamentFactory(
        status=Tournament.Status.RUNNING,
        tiebreaks=["match_points", "points_scored"],
        rule_set=RuleSetFactory(),
    )
    tournament.organisers.add(organiser)
    return League(tournament)


def rows(league: League) -> dict[str, StandingsRow]:
    standings_refresh(tournament_id=league.tournament.pk)
    standings = Standings.objects.get(tournament=league.tournament)
    return {row.name: row for row in standings.rows.all()}


def test_a_forfeit_wins_for_the_side_present_with_the_rule_sets_points(
    league: League, organiser: Any
) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    table = league.table(1, [ani, budi], target=250)
    result = table_forfeit_record(table_id=table.pk, present_side=1, user=organiser)
    assert result.kind == ResultKind.FORFEIT and result.hands_count == 0
    sides = {s.side: (s.points_x2, s.placing, s.is_winner) for s in result.sides.all()}
    assert sides == {0: (0, 2, False), 1: (500, 1, True)}  # the target, 250, to the winner
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert result.history.first().history_user == organiser  # kept in the history


def test_a_forfeit_counts_as_a_win_and_a_loss_but_not_in_the_points_tiebreaks(
    league: League, organiser: Any
) -> None:
    ani, budi, citra, dedi = (league.entry(n) for n in ("Ani", "Budi", "Citra", "Dedi"))
    table_forfeit_record(table_id=league.table(1, [ani, budi]).pk, present_side=0, user=organiser)
    league.play(1, [citra, dedi], [250, 100])
    by_name = rows(league)
    assert (by_name["Ani"].wins, by_name["Ani"].match_points) == (1, 2)
    assert (by_name["Budi"].losses, by_name["Budi"].match_points) == (1, 0)
    # The rule set keeps a forfeit's 250 out of "points scored": Citra, who played, is first.
    assert by_name["Ani"].tiebreak_values["points_scored"] == "0"
    assert by_name["Citra"].rank == 1 and by_name["Ani"].rank == 2


def test_a_rule_set_may_count_a_forfeits_points_and_set_them(
    league: League, organiser: Any
) -> None:
    rule_set = league.tournament.rule_set
    assert rule_set is not None
    rule_set.forfeit_points_count, rule_set.forfeit_win_points = True, 150
    rule_set.forfeit_loss_points = 50
    rule_set.save()
    ani, budi = league.entry("Ani"), league.entry("Budi")
    table_forfeit_record(table_id=league.table(1, [ani, budi]).pk, present_side=0, user=organiser)
    by_name = rows(league)
    assert by_name["Ani"].tiebreak_values["points_scored"] == "150"
    assert by_name["Budi"].tiebreak_values["points_scored"] == "50"


def test_a_double_forfeit_is_a_loss_for_both_with_no_points(league: League, organiser: Any) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    result = table_double_forfeit_record(table_id=league.table(1, [ani, budi]).pk, user=organiser)
    assert result.kind == ResultKind.DOUBLE_FORFEIT
    assert not any(s.is_winner or s.points_x2 for s in result.sides.all())
    by_name = rows(league)
    for name in ("Ani", "Budi"):
        assert (by_name[name].losses, by_name[name].wins, by_name[name].ties) == (1, 0, 0)
        assert by_name[name].match_points == 0 and by_name[name].tables_played == 1


def test_an_agreed_score_is_placed_by_its_totals_and_counts_in_full(
    league: League, organiser: Any
) -> None:
    ani, budi = league.entry("Ani"), league.entry("Budi")
    table = league.table(1, [ani, budi])
    result = table_agreed_record(table_id=table.pk, totals={0: 180, 1: 205}, user=organiser)
    assert result.kind == ResultKind.AGREED and not result.is_tie
    by_name = rows(league)
    assert by_name["Budi"].wins == 1 and by_name["Budi"].tiebreak_values["points_scored"] == "205"
    tie = table_agreed_record(table_id=table.pk, totals={0: 100, 1: 100}, user=organiser)
    assert tie.is_tie and rows(league)["Ani"].ties == 1


def test_an_agreed_score_needs_a_whole_total_for_every_side(league: League, organiser: Any) -> None:
    table = league.table(1, [league.entry("Ani"), league.entry("Budi")])
    with pytest.raises(ValidationError) as caught:
        table_agreed_record(table_id=table.pk, totals={0: 100}, user=organiser)
    assert caught.value.code == "sides_count"
    with pytest.raises(ValidationError) as caught:
        table_agreed_record(table_id=table.pk, totals={0: 100, 1: -5}, user=organiser)
    assert caught.value.code == "bad_total"
    # the side is named by its player, not by a number
    assert caught.value.messages == ["Total Budi harus bilangan bulat mulai dari 0."]
    assert not TableResult.objects.filter(table=table).exists()


def test_forfeits_are_not_rated_and_agreed_scores_are(league: League, organiser: Any) -> None:
    ani, budi, citra, dedi = (league.entry(n) for n in ("Ani", "Budi", "Citra", "Dedi"))
    forfeit = league.table(1, [ani, budi])
    double = league.table(1, [citra, dedi])
    agreed = league.table(2, [ani, citra])
    table_forfeit_record(table_id=forfeit.pk, present_side=0, user=organiser)
    table_double_forfeit_record(table_id=double.pk, user=organiser)
    table_agreed_record(table_id=agreed.pk, totals={0: 250, 1: 120}, user=organiser)
    assert [t.table_id for t in tables_to_rate()] == [agreed.pk]
    ratings_recompute_all()
    rated = set(RatingEvent.objects.values_list("table_id", flat=True))
    assert rated == {agreed.pk}


def test_only_an_organiser_records_a_result_without_hands(league: League) -> None:
    table = league.table(1, [league.entry("Ani"), league.entry("Budi")])
    with pytest.raises(PermissionDenied):
        table_forfeit_record(table_id=table.pk, present_side=0, user=UserFactory())
    assert not TableResult.objects.filter(table=table).exists()


def test_a_forfeit_names_a_side_of_the_table(league: League, organiser: Any) -> None:
    table = league.table(1, [league.entry("Ani"), league.entry("Budi")])
    with pytest.raises(ValidationError) as caught:
        table_forfeit_record(table_id=table.pk, present_side=2, user=organiser)
    assert caught.value.code == "bad_side"


def _two_player_hand() -> dict[str, Any]:
    return tally(0, [[0, 10]], {"domino": 0}, {"1": 8})


def test_a_result_without_hands_is_refused_over_recorded_hands(
    league: League, organiser: Any
) -> None:
    table = league.table(1, [league.entry("Ani"), league.entry("Budi")])
    match = match_for_table(table=table)
    hand_record(match=match, number=1, hand=_two_player_hand(), version=0, user=organiser)
    with pytest.raises(ValidationError) as caught:
        table_forfeit_record(table_id=table.pk, present_side=0, user=organiser)
    assert caught.value.code == "table_has_hands"
    assert "Table 1" in caught.value.messages[0] or "Meja 1" in caught.value.messages[0]
    assert Hand.objects.filter(match__table=table).count() == 1  # nothing lost
    assert not TableResult.objects.filter(table=table).exists()


def test_replacing_recorded_hands_keeps_them_in_the_history(league: League, organiser: Any) -> None:
    table = league.table(1, [league.entry("Ani"), league.entry("Budi")])
    match = match_for_table(table=table)
    hand_record(match=match, number=1, hand=_two_player_hand(), version=0, user=organiser)
    result = table_agreed_record(
        table_id=table.pk, totals={0: 250, 1: 200}, user=organiser, replace_hands=True
    )
    assert result.kind == ResultKind.AGREED
    assert not Match.objects.filter(table=table).exists()
    voided = Hand.history.filter(match_id=match.pk, history_type="-").get()
    assert voided.history_change_reason == "voided" and voided.entry == _two_player_hand()


def test_scoring_a_table_with_a_result_without_hands_is_refused(
    league: League, organiser: Any
) -> None:
    table = league.table(1, [league.entry("Ani"), league.entry("Budi")])
    table_forfeit_record(table_id=table.pk, present_side=0, user=organiser)
    match = match_for_table(table=table)
    with pytest.raises(ValidationError) as caught:
        hand_record(match=match, number=1, hand=_two_player_hand(), version=0, user=organiser)
    assert caught.value.code == "result_without_hands"
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
