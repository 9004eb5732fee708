"""League services: registration, withdrawal, rounds and tables, results."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from league.models import Entry, Round, Table, TableResult, Tournament
from league.services.registration import (
    entry_create,
    entry_withdraw,
    partnership_create,
    player_create,
    players_register_bulk,
)
from league.services.results import SideOutcome, table_result_clear, table_result_record
from league.services.rounds import (
    round_close,
    round_create,
    round_publish,
    seats_for_entries,
    table_create,
    tournament_duplicate,
)
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RuleSetFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def test_player_create_gives_unique_slugs() -> None:
    a = player_create(name="Budi Santoso")
    b = player_create(name="Budi Santoso")
    assert a.slug == "budi-santoso"
    assert b.slug == "budi-santoso-2"


def test_player_create_refuses_a_blank_name() -> None:
    with pytest.raises(ValidationError):
        player_create(name="   ")


def test_partner_cannot_be_in_two_partnership_entries_of_one_tournament() -> None:
    # Given a fixed-partnership tournament with Ani partnered with Budi
    tournament = TournamentFactory(format=Tournament.Format.FIXED_PARTNERSHIP, table_size="4")
    ani, budi, citra = PlayerFactory(), PlayerFactory(), PlayerFactory()
    entry_create(tournament=tournament, partnership=partnership_create(player_a=ani, player_b=budi))
    # When Ani is entered again with Citra, then it is refused
    with pytest.raises(ValidationError) as refused:
        entry_create(
            tournament=tournament, partnership=partnership_create(player_a=ani, player_b=citra)
        )
    assert refused.value.code == "already_registered"
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_individual_tournament_refuses_partnerships_and_vice_versa() -> None:
    individual = TournamentFactory()
    pair = partnership_create(player_a=PlayerFactory(), player_b=PlayerFactory())
    with pytest.raises(ValidationError):
        entry_create(tournament=individual, partnership=pair)
    fixed = TournamentFactory(format=Tournament.Format.FIXED_PARTNERSHIP)
    with pytest.raises(ValidationError):
        entry_create(tournament=fixed, player=PlayerFactory())


def test_bulk_registration_is_all_or_nothing() -> None:
    tournament = TournamentFactory()
    already = EntryFactory(tournament=tournament).player
    newcomers = [PlayerFactory(), PlayerFactory()]
    with pytest.raises(ValidationError):
        players_register_bulk(tournament=tournament, players=[*newcomers, already])
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_withdraw_records_the_round_and_refuses_twice() -> None:
    entry = EntryFactory()
    entry_withdraw(entry=entry, round_number=3)
    entry.refresh_from_db()
    assert (entry.is_withdrawn, entry.withdrawn_round) == (True, 3)
    with pytest.raises(ValidationError):
        entry_withdraw(entry=entry)


def test_table_target_follows_rule_set_and_player_count() -> None:
    rules = RuleSetFactory(target_2=260, target_3=210, target_4=190)
    tournament = TournamentFactory(rule_set=rules, table_size="3")
    entries = [EntryFactory(tournament=tournament) for _ in range(3)]
    round_ = round_create(tournament=tournament)
    table = table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=3))
    assert (table.player_count, table.target) == (3, 210)
    assert [s.number for s in table.seats.all()] == [0, 1, 2]


def test_partnerships_sit_opposite_each_other() -> None:
    tournament = TournamentFactory(format=Tournament.Format.FIXED_PARTNERSHIP, table_size="4")
    entries = [
        entry_create(
            tournament=tournament,
            partnership=partnership_create(player_a=PlayerFactory(), player_b=PlayerFactory()),
        )
        for _ in range(2)
    ]
    specs = seats_for_entries(entries, player_count=4)
    by_seat = {s.number: s.entry_id for s in specs}
    assert by_seat[0] == by_seat[2] == entries[0].pk
    assert by_seat[1] == by_seat[3] == entries[1].pk


def test_round_publish_needs_tables_and_starts_the_tournament() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    round_ = round_create(tournament=tournament)
    with pytest.raises(ValidationError) as refused:
        round_publish(round=round_)
    assert refused.value.code == "no_tables"
    entries = [EntryFactory(tournament=tournament) for _ in range(2)]
    table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))
    round_publish(round=round_)
    tournament.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    assert tournament.status == Tournament.Status.RUNNING


def test_round_close_waits_for_every_result() -> None:
    tournament = TournamentFactory()
    round_ = round_create(tournament=tournament)
    entries = [EntryFactory(tournament=tournament) for _ in range(2)]
    table = table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))
    round_publish(round=round_)
    with pytest.raises(ValidationError) as refused:
        round_close(round=round_)
    assert refused.value.code == "tables_unfinished"
    table_result_record(
        table_id=table.pk,
        sides=[
            SideOutcome(side=0, points_x2=500, placing=1, hands_won=4, is_winner=True),
            SideOutcome(side=1, points_x2=300, placing=2, hands_won=2, is_winner=False),
        ],
        hands_count=6,
        finished_at=timezone.now(),
    )
    round_close(round=round_)
    assert round_.status == Round.Status.FINISHED


def test_round_create_refuses_more_rounds_than_planned() -> None:
    tournament = TournamentFactory(rounds_count=1)
    round_create(tournament=tournament)
    with pytest.raises(ValidationError):
        round_create(tournament=tournament)


def test_table_result_record_replaces_a_corrected_result_and_clear_reopens() -> None:
    tournament = TournamentFactory()
    round_ = round_create(tournament=tournament)
    entries = [EntryFactory(tournament=tournament) for _ in range(2)]
    table = table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))

    def record(points: tuple[int, int]) -> None:
        table_result_record(
            table_id=table.pk,
            sides=[
                SideOutcome(side=0, points_x2=points[0], placing=1, hands_won=3, is_winner=True),
                SideOutcome(side=1, points_x2=points[1], placing=2, hands_won=1, is_winner=False),
            ],
            hands_count=4,
            finished_at=timezone.now(),
        )

    record((500, 100))
    record((510, 120))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert sorted(table.result.sides.values_list("points_x2", flat=True)) == [120, 510]
    table_result_clear(table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert not TableResult.objects.filter(table=table).exists()


def test_table_result_refuses_wrong_number_of_sides() -> None:
    tournament = TournamentFactory()
    round_ = round_create(tournament=tournament)
    entries = [EntryFactory(tournament=tournament) for _ in range(3)]
    table = table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=3))
    with pytest.raises(ValidationError):
        table_result_record(
            table_id=table.pk,
            sides=[SideOutcome(side=0, points_x2=400, placing=1, hands_won=1, is_winner=True)],
            hands_count=1,
            finished_at=timezone.now(),
        )


def test_tournament_duplicate_copies_settings_and_people_as_a_draft() -> None:
    organiser = UserFactory()
    tournament = TournamentFactory(rounds_count=7, points_win=3)
    tournament.organisers.add(organiser)
    copy = tournament_duplicate(tournament=tournament)
    assert copy.pk != tournament.pk
    assert copy.status == Tournament.Status.DRAFT
    assert (copy.rounds_count, copy.points_win, copy.format) == (7, 3, tournament.format)
    assert list(copy.organisers.all()) == [organiser]
    assert copy.slug != tournament.slug


def test_round_publish_refuses_a_draft_with_an_entrant_at_two_tables() -> None:
    # Given a hand-edited draft where one entrant sits at two tables
    tournament = TournamentFactory()
    round_ = round_create(tournament=tournament)
    a, b, c = (EntryFactory(tournament=tournament) for _ in range(3))
    table_create(round=round_, number=1, seats=seats_for_entries([a, b], player_count=2))
    table_create(round=round_, number=2, seats=seats_for_entries([a, c], player_count=2))
    # When it is published, then it is refused and stays a draft
    with pytest.raises(ValidationError) as refused:
        round_publish(round=round_)
    assert {e.code for e in refused.value.error_list} == {"draft_unplayable"}
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT
