"""Database constraints of the league model hold whatever the form layer does."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from league.models import Entry, EntryMember, Partnership, RuleSet, Seat, Table, TableResultSide
from tests.factories import (
    EntryFactory,
    PartnershipFactory,
    PlayerFactory,
    RoundFactory,
    RuleSetFactory,
    SeasonFactory,
    TableFactory,
    TournamentFactory,
)

pytestmark = pytest.mark.django_db


def _refused(make: object) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        make()  # type: ignore[operator]


def test_ruleset_targets_must_be_positive() -> None:
    _refused(lambda: RuleSet.objects.create(name="zero", target_2=0))


def test_ruleset_hand_sizes_must_fit_the_set() -> None:
    _refused(lambda: RuleSet.objects.create(name="too many", hand_size_4=8))


def test_ruleset_blocked_award_must_be_known() -> None:
    _refused(lambda: RuleSet.objects.create(name="odd", blocked_award="everything"))


def test_season_cannot_end_before_it_starts() -> None:
    season = SeasonFactory.build()
    season.ends_on, season.starts_on = season.starts_on, season.ends_on
    season.rule_set.save()
    season.rule_set_id = season.rule_set.pk
    _refused(season.save)


def test_partnership_needs_two_distinct_players() -> None:
    player = PlayerFactory()
    _refused(
        lambda: Partnership.objects.create(
            name="solo", slug="solo", player_a=player, player_b=player
        )
    )


def test_one_entry_per_player_per_tournament() -> None:
    entry = EntryFactory()
    _refused(lambda: Entry.objects.create(tournament=entry.tournament, player=entry.player))


def test_entry_is_a_player_or_a_partnership_not_both() -> None:
    tournament = TournamentFactory()
    _refused(
        lambda: Entry.objects.create(
            tournament=tournament, player=PlayerFactory(), partnership=PartnershipFactory()
        )
    )
    _refused(lambda: Entry.objects.create(tournament=tournament))


def test_a_player_is_in_one_entry_member_row_per_tournament() -> None:
    entry = EntryFactory()
    other = Entry.objects.create(tournament=entry.tournament, partnership=PartnershipFactory())
    _refused(
        lambda: EntryMember.objects.create(
            entry=other, player=entry.player, tournament=entry.tournament
        )
    )


def test_withdrawn_round_only_on_a_withdrawn_entry() -> None:
    entry = EntryFactory()
    entry.withdrawn_round = 2
    _refused(entry.save)


def test_table_numbers_are_unique_in_a_round() -> None:
    table = TableFactory()
    _refused(
        lambda: Table.objects.create(
            round=table.round, number=table.number, player_count=2, target=250
        )
    )


@pytest.mark.parametrize("count", [1, 5])
def test_table_seats_two_to_four_players(count: int) -> None:
    round_ = RoundFactory()
    _refused(lambda: Table.objects.create(round=round_, number=1, player_count=count, target=250))


def test_table_target_must_be_positive() -> None:
    round_ = RoundFactory()
    _refused(lambda: Table.objects.create(round=round_, number=1, player_count=2, target=0))


def test_seat_numbers_are_unique_and_0_to_3() -> None:
    table = TableFactory()
    entry = EntryFactory(tournament=table.round.tournament)
    Seat.objects.create(table=table, number=0, entry=entry, player=entry.player)
    other = EntryFactory(tournament=table.round.tournament)
    _refused(lambda: Seat.objects.create(table=table, number=0, entry=other, player=other.player))
    _refused(lambda: Seat.objects.create(table=table, number=4, entry=other, player=other.player))


def test_a_player_sits_once_at_a_table() -> None:
    table = TableFactory()
    entry = EntryFactory(tournament=table.round.tournament)
    Seat.objects.create(table=table, number=0, entry=entry, player=entry.player)
    _refused(lambda: Seat.objects.create(table=table, number=1, entry=entry, player=entry.player))


def test_round_numbers_are_unique_in_a_tournament() -> None:
    round_ = RoundFactory()
    _refused(lambda: RoundFactory(tournament=round_.tournament, number=round_.number))


def test_tournament_needs_a_rule_set_or_a_season() -> None:
    _refused(lambda: TournamentFactory(season=None, rule_set=None))


def test_result_side_placing_is_1_to_3() -> None:
    from django.utils import timezone

    from league.models import TableResult

    result = TableResult.objects.create(table=TableFactory(), finished_at=timezone.now())
    _refused(lambda: TableResultSide.objects.create(result=result, side=0, points_x2=10, placing=4))


def test_ruleset_converts_to_engine_rules() -> None:
    rule_set = RuleSetFactory(target_2=300, target_3=150, target_4=175, blocked_award="difference")
    rules = rule_set.to_rules()
    assert rules.targets == {2: 300, 3: 150, 4: 175}
    assert rules.hand_sizes == {2: 9, 3: 7, 4: 5}
    assert rules.blocked_award == "difference"


def test_shipped_rule_sets_are_pagat_and_seed_tutorial() -> None:
    pagat = RuleSet.objects.get(name="Pagat")
    tutorial = RuleSet.objects.get(name="Seed tutorial")
    assert (pagat.target_2, pagat.target_3, pagat.target_4, pagat.blocked_award) == (
        250,
        200,
        200,
        "opponents",
    )
    assert (tutorial.target_2, tutorial.target_3, tutorial.target_4, tutorial.blocked_award) == (
        150,
        150,
        150,
        "difference",
    )
