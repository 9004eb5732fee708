"""Tables and seats set out by hand: table_add, table_update, seat_set, seat_delete and the
deletions in records — the rules the admin, its inlines and the API all go through."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from league.models import Entry, Round, Seat, Table
from league.services.records import entry_delete, round_delete, table_delete
from league.services.rounds import (
    SeatSpec,
    round_create,
    seat_delete,
    seat_set,
    seats_for_entries,
    table_add,
    table_create,
    table_update,
)
from tests.factories import EntryFactory, PlayerFactory, RuleSetFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def _draft_round(**tournament: object) -> Round:
    return round_create(tournament=TournamentFactory(**tournament))


def _code(error: pytest.ExceptionInfo[ValidationError]) -> str | None:
    return error.value.error_list[0].code


def test_a_table_added_by_hand_takes_the_target_of_its_player_count() -> None:
    # Given a draft round under a rule set with a target per player count
    rule_set = RuleSetFactory(target_2=150, target_3=120, target_4=100)
    round_ = _draft_round(rule_set=rule_set)
    # When tables of three and four are added without seats
    three = table_add(round=round_, number=1, player_count=3)
    four = table_add(round=round_, number=2, player_count=4)
    # Then each has its own target
    assert (three.target, four.target) == (120, 100)


def test_table_add_refuses_a_taken_number_a_missing_size_and_a_published_round() -> None:
    round_ = _draft_round()
    table_add(round=round_, number=1, player_count=2)
    with pytest.raises(ValidationError) as taken:
        table_add(round=round_, number=1, player_count=2)
    assert _code(taken) == "table_number_taken"
    with pytest.raises(ValidationError) as sizeless:
        table_add(round=round_, number=2)
    assert _code(sizeless) == "table_size"
    with pytest.raises(ValidationError):
        table_add(round=round_, number=3, player_count=5)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PUBLISHED)
    round_.refresh_from_db()
    with pytest.raises(ValidationError):
        table_add(round=round_, number=4, player_count=2)
    assert round_.tables.count() == 1


def test_table_add_with_seats_checks_every_seat_names_an_entry_of_the_tournament() -> None:
    # Given a draft round and an entry of another tournament
    round_ = _draft_round()
    here = EntryFactory(tournament=round_.tournament)
    elsewhere = EntryFactory()
    # When a table seats the stranger's entry, then it is refused and nothing is stored
    seats = [
        SeatSpec(number=0, entry_id=here.pk, player_id=here.player_id),
        SeatSpec(number=1, entry_id=elsewhere.pk, player_id=elsewhere.player_id),
    ]
    with pytest.raises(ValidationError) as refused:
        table_add(round=round_, number=1, seats=seats)
    assert _code(refused) == "entry_elsewhere"
    assert elsewhere.display_name in refused.value.messages[0]
    missing = [*seats[:1], SeatSpec(number=1, entry_id=10**9, player_id=here.player_id)]
    with pytest.raises(ValidationError):
        table_add(round=round_, number=1, seats=missing)
    assert not Table.objects.filter(round=round_).exists()
    # And with two entries of the tournament the table and its seats are stored
    other = EntryFactory(tournament=round_.tournament)
    table = table_add(
        round=round_, number=1, seats=seats_for_entries([here, other], player_count=2)
    )
    assert table.seats.count() == 2


def test_table_update_follows_the_new_size_and_refuses_what_would_break_the_table() -> None:
    # Given a draft round with a seated two-player table and another table
    rule_set = RuleSetFactory(target_2=150, target_3=120, target_4=100)
    round_ = _draft_round(rule_set=rule_set)
    a, b = EntryFactory(tournament=round_.tournament), EntryFactory(tournament=round_.tournament)
    table = table_create(round=round_, number=1, seats=seats_for_entries([a, b], player_count=2))
    table_add(round=round_, number=2, player_count=2)
    # When nothing changes, nothing is written
    assert table_update(table=table, number=1, player_count=2).target == 150
    # When it grows to three, the target follows
    assert table_update(table=table, number=1, player_count=3).target == 120
    # Then renumbering onto the other table is refused, as is shrinking below its seats
    with pytest.raises(ValidationError) as taken:
        table_update(table=table, number=2, player_count=3)
    assert _code(taken) == "table_number_taken"
    with pytest.raises(ValidationError):
        table_update(table=table, number=1, player_count=1)  # no table of one
    Seat.objects.create(table=table, number=2, entry=a, player=PlayerFactory())
    with pytest.raises(ValidationError) as beyond:
        table_update(table=table, number=1, player_count=2)
    assert _code(beyond) == "seats_beyond_size"
    # And a published round's tables cannot be changed at all
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PUBLISHED)
    table.refresh_from_db()
    with pytest.raises(ValidationError) as published:
        table_update(table=table, number=5, player_count=3)
    assert _code(published) == "round_published"


def test_seat_set_keeps_seats_within_the_table_and_each_player_once() -> None:
    # Given a draft round's two-player table with seat 0 taken by a
    round_ = _draft_round()
    a, b = EntryFactory(tournament=round_.tournament), EntryFactory(tournament=round_.tournament)
    table = table_add(round=round_, number=1, player_count=2)
    seat_set(table=table, number=0, entry=a, player=a.player)
    # Then a seat beyond the table, a taken seat and a second seat for a are refused
    with pytest.raises(ValidationError) as beyond:
        seat_set(table=table, number=2, entry=b, player=b.player)
    assert _code(beyond) == "seat_number"
    with pytest.raises(ValidationError) as taken:
        seat_set(table=table, number=0, entry=b, player=b.player)
    assert _code(taken) == "seat_taken"
    with pytest.raises(ValidationError) as twice:
        seat_set(table=table, number=1, entry=a, player=a.player)
    assert _code(twice) == "seated_twice"
    assert a.player.name in twice.value.messages[0]
    # And a player who does not play for the entry is refused by name
    stranger = PlayerFactory()
    with pytest.raises(ValidationError) as not_member:
        seat_set(table=table, number=1, entry=b, player=stranger)
    assert _code(not_member) == "not_a_member"
    assert stranger.name in not_member.value.messages[0]
    # When b takes seat 1, then a can move seat 0's holder without clashing with itself
    seat_set(table=table, number=1, entry=b, player=b.player)
    moved = seat_set(
        table=table, number=0, entry=a, player=a.player, seat=table.seats.get(number=0)
    )
    assert moved.number == 0 and table.seats.count() == 2


def test_seats_of_a_published_round_are_neither_changed_nor_freed() -> None:
    round_ = _draft_round()
    a, b = EntryFactory(tournament=round_.tournament), EntryFactory(tournament=round_.tournament)
    table = table_create(round=round_, number=1, seats=seats_for_entries([a, b], player_count=2))
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PUBLISHED)
    table = Table.objects.select_related("round").get(pk=table.pk)
    seat = table.seats.select_related("table__round").get(number=0)
    with pytest.raises(ValidationError):
        seat_set(table=table, number=0, entry=a, player=a.player, seat=seat)
    with pytest.raises(ValidationError) as freed:
        seat_delete(seat=seat)
    assert _code(freed) == "round_published"
    assert table.seats.count() == 2


def test_a_draft_rounds_seat_can_be_freed() -> None:
    round_ = _draft_round()
    a, b = EntryFactory(tournament=round_.tournament), EntryFactory(tournament=round_.tournament)
    table = table_create(round=round_, number=1, seats=seats_for_entries([a, b], player_count=2))
    seat_delete(seat=table.seats.get(number=1))
    assert list(table.seats.values_list("number", flat=True)) == [0]


def test_deletions_keep_what_was_played() -> None:
    # Given a published round whose table seats two entries
    round_ = _draft_round()
    a, b = EntryFactory(tournament=round_.tournament), EntryFactory(tournament=round_.tournament)
    table = table_create(round=round_, number=1, seats=seats_for_entries([a, b], player_count=2))
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PUBLISHED)
    round_.refresh_from_db()
    table.refresh_from_db()
    # Then neither the round, nor its table, nor a seated entry can be deleted
    with pytest.raises(ValidationError):
        round_delete(round=round_)
    with pytest.raises(ValidationError):
        table_delete(table=table)
    with pytest.raises(ValidationError) as seated:
        entry_delete(entry=a)
    assert _code(seated) == "entry_seated"
    assert Table.objects.filter(pk=table.pk).exists()
    assert Entry.objects.filter(pk=a.pk).exists()
    # And an entry that never played can be deleted
    late = EntryFactory(tournament=round_.tournament)
    entry_delete(entry=late)
    assert not Entry.objects.filter(pk=late.pk).exists()
