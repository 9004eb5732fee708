"""Knockout services: seeding from the standings and from ratings, byes, progression round
by round, ties decided by the rule set, the third-place match, the plate for the first
round's losers, partnership tables of four and three-player tables."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from knockout.models import Bracket, BracketMatch
from knockout.selectors import bracket_matches_tied, bracket_undoable
from knockout.services import (
    bracket_advance,
    bracket_create,
    bracket_match_decide,
    bracket_undo,
)
from league.models import Entry, Round, TableResult, Tournament
from league.services.records import round_delete, table_delete
from league.services.registration import entry_withdraw
from league.services.results import SideOutcome, table_result_clear, table_result_record
from league.services.rounds import (
    SeatSpec,
    round_create,
    round_publish,
    seat_delete,
    seat_set,
    table_create,
    table_update,
)
from pairing.services.pairing import round_pair
from tests.knockout.conftest import bracket_round, play_round, seed_of, seeded_tournament

pytestmark = pytest.mark.django_db


def latest(tournament: Tournament) -> Round:
    round = tournament.rounds.order_by("-number").first()
    assert round is not None
    return round


def champion(tournament: Tournament, section: str = "main") -> int:
    final = (
        BracketMatch.objects.filter(
            bracket__tournament=tournament, bracket__section=section, kind="bracket"
        )
        .order_by("-round_index")
        .first()
    )
    assert final is not None and final.winner_id is not None
    return seed_of(final.winner_id)


def run_to_the_end(tournament: Tournament, choose=None) -> int:  # type: ignore[no-untyped-def]
    """Play every knockout round; the number of rounds played."""
    played = 0
    while True:
        play_round(latest(tournament), **({"choose": choose} if choose else {}))
        played += 1
        if bracket_advance(tournament=tournament) is None:
            return played


def test_a_field_of_six_gives_the_top_two_byes_and_seats_four_v_five_and_three_v_six() -> None:
    tournament = seeded_tournament(6)
    bracket = bracket_create(tournament=tournament, source="ratings")
    assert bracket.field_count == 6 and bracket.first_round_number == 1
    assert bracket_round(tournament, "main", 1) == [[1], [4, 5], [2], [3, 6]]
    byes = BracketMatch.objects.filter(bracket=bracket, decided_by="bye")
    assert sorted(seed_of(m.winner_id) for m in byes) == [1, 2]  # type: ignore[arg-type]
    # The byes wait in the semi-finals; only the two played matches have tables.
    assert bracket_round(tournament, "main", 2) == [[1], [2]]
    round = latest(tournament)
    assert round.is_knockout and round.status == Round.Status.DRAFT
    seated = [
        sorted(seed_of(s.entry_id) for s in t.seats.all()) for t in round.tables.order_by("number")
    ]
    assert seated == [[4, 5], [3, 6]]


def test_a_knockout_rounds_draft_tables_cannot_be_deleted_from_under_the_bracket() -> None:
    # Given a bracket whose first round is drafted, its tables holding the bracket's matches
    tournament = seeded_tournament(8)
    bracket_create(tournament=tournament, source="ratings")
    round = latest(tournament)
    table = round.tables.order_by("number").first()
    assert round.status == Round.Status.DRAFT and table is not None
    # When the organiser deletes a table, or the whole round, then each is refused
    with pytest.raises(ValidationError, match="memuat pertandingan bagan babak gugur"):
        table_delete(table=table)
    with pytest.raises(ValidationError, match="memuat pertandingan bagan babak gugur"):
        round_delete(round=round)
    # And the round's four matches keep their tables
    assert BracketMatch.objects.filter(table__round=round).count() == 4
    assert round.tables.count() == 4


def test_a_result_that_sent_an_entry_through_cannot_be_corrected_or_cleared() -> None:
    # Given a bracket of four whose first round was played, closed and advanced
    tournament = seeded_tournament(4)
    bracket_create(tournament=tournament, source="ratings")
    first = latest(tournament)
    play_round(first)
    bracket_advance(tournament=tournament)
    table = first.tables.get(number=1)
    stored = list(TableResult.objects.get(table=table).sides.order_by("side"))
    # When a correction would let the other side win, or the result is cleared
    swapped = [
        SideOutcome(
            side=s.side,
            points_x2=s.points_x2,
            placing=3 - s.placing,
            hands_won=s.hands_won,
            is_winner=not s.is_winner,
        )
        for s in stored
    ]
    finished = TableResult.objects.get(table=table).finished_at
    for change in (
        lambda: table_result_record(
            table_id=table.pk, sides=swapped, hands_count=1, finished_at=finished
        ),
        lambda: table_result_clear(table_id=table.pk),
    ):
        # Then each is refused, naming who went through
        with pytest.raises(ValidationError, match="sudah meloloskan") as kept:
            change()
        assert kept.value.code == "result_kept"
    assert [s.placing for s in TableResult.objects.get(table=table).sides.order_by("side")] == [
        s.placing for s in stored
    ]
    # And the same result again is no change
    same = [
        SideOutcome(
            side=s.side,
            points_x2=s.points_x2,
            placing=s.placing,
            hands_won=s.hands_won,
            is_winner=s.is_winner,
        )
        for s in stored
    ]
    table_result_record(table_id=table.pk, sides=same, hands_count=1, finished_at=finished)


def test_a_knockout_rounds_seats_and_tables_are_the_brackets() -> None:
    # Given a drafted knockout round
    tournament = seeded_tournament(5)
    bracket_create(tournament=tournament, source="ratings")
    table = latest(tournament).tables.order_by("number").first()
    assert table is not None
    seat = table.seats.order_by("number").first()
    assert seat is not None
    outsider = Entry.objects.get(tournament=tournament, seed=1)  # seed 1 has a bye
    # When the organiser reseats, frees a seat or resizes the table, then each is refused
    for change in (
        lambda: seat_set(
            table=table, number=seat.number, entry=outsider, player=outsider.player, seat=seat
        ),
        lambda: seat_delete(seat=seat),
        lambda: table_update(table=table, number=9, player_count=2),
    ):
        with pytest.raises(ValidationError, match="ditentukan oleh bagan"):
            change()
    seat.refresh_from_db()
    assert seat.entry_id != outsider.pk


def test_under_the_higher_seed_rule_no_extra_hand_can_be_recorded() -> None:
    # Given a tied final under the rule that the higher seed goes through
    tournament = seeded_tournament(2, knockout_tie="higher_seed")
    bracket_create(tournament=tournament, source="ratings")
    play_round(latest(tournament), choose=lambda es: None)
    match = BracketMatch.objects.get(table__round=latest(tournament))
    lower = Entry.objects.get(tournament=tournament, seed=2)
    # When someone posts that the lower seed won an extra hand, then it is refused
    with pytest.raises(ValidationError) as refused:
        bracket_match_decide(match=match, winner=lower)
    assert refused.value.code == "tie_rule"
    match.refresh_from_db()
    assert match.winner_id is None


def test_winners_advance_round_by_round_to_a_champion() -> None:
    tournament = seeded_tournament(8)
    bracket_create(tournament=tournament, source="ratings")
    assert bracket_round(tournament, "main", 1) == [[1, 8], [4, 5], [2, 7], [3, 6]]
    # The worse seed wins the first round, the better one after that.
    play_round(latest(tournament), choose=lambda es: max(es, key=seed_of))
    bracket_advance(tournament=tournament)
    assert bracket_round(tournament, "main", 2) == [[8, 5], [7, 6]]
    assert run_to_the_end(tournament) == 2
    assert champion(tournament) == 5
    assert tournament.rounds.count() == 3
    assert all(r.is_knockout for r in tournament.rounds.all())


def test_seeding_from_the_standings_after_a_swiss_round_takes_the_top_cut() -> None:
    tournament = seeded_tournament(8, rounds_count=4)
    swiss = round_create(tournament=tournament)
    round_pair(round=swiss)
    assert swiss.tables.count() == 4
    # In the Swiss round the worse seed wins every table: the winners lead the standings.
    play_round(swiss, choose=lambda es: max(es, key=seed_of))
    winners = {max((s.entry_id for s in t.seats.all()), key=seed_of) for t in swiss.tables.all()}
    bracket = bracket_create(tournament=tournament, cut=4, third_place=True)
    assert bracket.seeded_from == "standings" and bracket.after_round == 1
    assert set(bracket.entrants.values_list("entry_id", flat=True)) == winners
    assert bracket.first_round_number == 2
    assert latest(tournament).number == 2 and latest(tournament).is_knockout


def test_a_top_cut_must_be_four_to_thirty_two_and_fit_the_field() -> None:
    tournament = seeded_tournament(6)
    with pytest.raises(ValidationError) as bad:
        bracket_create(tournament=tournament, source="ratings", cut=6)
    assert bad.value.code == "cut"
    with pytest.raises(ValidationError) as big:
        bracket_create(tournament=tournament, source="ratings", cut=8)
    assert big.value.code == "cut_too_big"
    assert not Bracket.objects.filter(tournament=tournament).exists()


def test_the_knockout_needs_rounds_left_and_a_closed_round() -> None:
    short = seeded_tournament(16, rounds_count=3)
    with pytest.raises(ValidationError) as few:
        bracket_create(tournament=short, source="ratings")
    assert few.value.code == "too_few_rounds"
    open_round = seeded_tournament(4)
    round_pair(round=round_create(tournament=open_round))
    with pytest.raises(ValidationError) as unclosed:
        bracket_create(tournament=open_round, cut=4)
    assert unclosed.value.code == "round_not_closed"


def test_a_tie_waits_for_the_extra_hand_and_its_winner_advances() -> None:
    tournament = seeded_tournament(4, knockout_tie="extra_hand")
    bracket_create(tournament=tournament, source="ratings")
    first = latest(tournament)
    play_round(first, choose=lambda es: None if seed_of(es[0]) == 1 else min(es, key=seed_of))
    with pytest.raises(ValidationError) as tied:
        bracket_advance(tournament=tournament)
    assert tied.value.code == "tie_undecided"
    assert tournament.rounds.count() == 1  # nothing drafted while the tie is open
    match = BracketMatch.objects.get(table__round=first, table__number=1)
    four = Entry.objects.get(tournament=tournament, seed=4)
    outsider = Entry.objects.get(tournament=tournament, seed=2)
    with pytest.raises(ValidationError) as wrong:
        bracket_match_decide(match=match, winner=outsider)
    assert wrong.value.code == "not_tied_entry"
    bracket_match_decide(match=match, winner=four)
    match.refresh_from_db()
    assert match.decided_by == "extra_hand" and match.winner_id == four.pk
    with pytest.raises(ValidationError) as again:
        bracket_match_decide(match=match, winner=four)
    assert again.value.code == "decided"
    bracket_advance(tournament=tournament)
    assert bracket_round(tournament, "main", 2) == [[4, 2]]


def test_under_the_higher_seed_rule_a_tie_sends_the_better_seed_through() -> None:
    tournament = seeded_tournament(4, knockout_tie="higher_seed")
    bracket_create(tournament=tournament, source="ratings")
    play_round(latest(tournament), choose=lambda es: None)
    bracket_advance(tournament=tournament)
    decided = BracketMatch.objects.filter(bracket__tournament=tournament, round_index=1)
    assert {m.decided_by for m in decided} == {"seed"}
    assert bracket_round(tournament, "main", 2) == [[1, 2]]


def test_a_match_that_was_not_tied_cannot_be_decided_by_hand() -> None:
    tournament = seeded_tournament(4)
    bracket_create(tournament=tournament, source="ratings")
    first = latest(tournament)
    match = BracketMatch.objects.get(table__round=first, table__number=1)
    with pytest.raises(ValidationError) as drafted:
        bracket_match_decide(match=match, winner=Entry.objects.get(tournament=tournament, seed=1))
    assert drafted.value.code == "no_result"
    play_round(first)
    bracket_advance(tournament=tournament)
    final = BracketMatch.objects.get(bracket__tournament=tournament, round_index=2)
    play_round(latest(tournament))
    with pytest.raises(ValidationError) as untied:
        bracket_match_decide(match=final, winner=Entry.objects.get(tournament=tournament, seed=1))
    assert untied.value.code == "not_tied"


def test_the_third_place_match_seats_the_semi_finals_losers_beside_the_final() -> None:
    tournament = seeded_tournament(8)
    bracket_create(tournament=tournament, source="ratings", third_place=True)
    play_round(latest(tournament))
    bracket_advance(tournament=tournament)
    play_round(latest(tournament), choose=lambda es: max(es, key=seed_of))  # 4 and 3 win
    final_round = bracket_advance(tournament=tournament)
    assert final_round is not None
    third = BracketMatch.objects.get(bracket__tournament=tournament, kind="third")
    assert third.table is not None and third.table.round_id == final_round.pk
    assert third.table.number == 2  # after the final
    assert sorted(seed_of(s.entry_id) for s in third.slots.all()) == [1, 2]
    assert final_round.tables.count() == 2
    play_round(final_round)
    assert bracket_advance(tournament=tournament) is None
    third.refresh_from_db()
    assert seed_of(third.winner_id) == 1  # type: ignore[arg-type]
    assert champion(tournament) == 3


def test_the_plate_takes_the_first_round_losers_and_plays_beside_the_main_bracket() -> None:
    tournament = seeded_tournament(16)
    bracket_create(tournament=tournament, source="ratings", plate=True)
    play_round(latest(tournament))
    second = bracket_advance(tournament=tournament)
    assert second is not None
    plate = Bracket.objects.get(tournament=tournament, section="plate")
    assert plate.field_count == 8 and plate.first_round_number == 2
    # The plate's own seeds follow the losers' first seeding: 9 is its 1, 16 its 8.
    plate_seeds = dict(plate.entrants.values_list("seed", "entry_id"))
    assert [seed_of(plate_seeds[s]) for s in range(1, 9)] == list(range(9, 17))
    assert second.tables.count() == 4 + 4
    sections = [t.bracket_match.bracket.section for t in second.tables.order_by("number")]
    assert sections == ["main"] * 4 + ["plate"] * 4
    assert run_to_the_end(tournament) == 3
    assert champion(tournament) == 1
    assert champion(tournament, "plate") == 9


def test_a_plate_at_three_per_table_that_ends_a_round_later_needs_that_round() -> None:
    tournament = seeded_tournament(9, table_size=Tournament.TableSize.THREE, rounds_count=2)
    with pytest.raises(ValidationError) as few:
        bracket_create(tournament=tournament, source="ratings", plate=True)
    assert few.value.code == "too_few_rounds"
    assert bracket_create(tournament=tournament, source="ratings").first_round_number == 1


def test_no_plate_when_byes_leave_a_single_first_round_loser() -> None:
    tournament = seeded_tournament(5)
    bracket_create(tournament=tournament, source="ratings", plate=True)
    assert latest(tournament).tables.count() == 1  # 4 v 5; 1, 2 and 3 have byes
    play_round(latest(tournament))
    bracket_advance(tournament=tournament)
    assert not Bracket.objects.filter(tournament=tournament, section="plate").exists()


def test_partnerships_play_at_tables_of_four_and_one_side_advances() -> None:
    tournament = seeded_tournament(4, partnerships=True)
    bracket = bracket_create(tournament=tournament, source="ratings")
    assert bracket.per_table == 2
    table = latest(tournament).tables.order_by("number").first()
    assert table is not None and table.player_count == 4
    entries = [s.entry_id for s in table.seats.order_by("number")]
    assert entries[0] == entries[2] and entries[1] == entries[3] and entries[0] != entries[1]
    assert run_to_the_end(tournament) == 2
    assert champion(tournament) == 1


def test_three_player_tables_send_the_table_winner_through() -> None:
    tournament = seeded_tournament(9, table_size=Tournament.TableSize.THREE)
    bracket = bracket_create(tournament=tournament, source="ratings")
    assert bracket.per_table == 3
    assert bracket_round(tournament, "main", 1) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    assert all(t.player_count == 3 for t in latest(tournament).tables.all())
    play_round(latest(tournament), choose=lambda es: max(es, key=seed_of))
    bracket_advance(tournament=tournament)
    assert bracket_round(tournament, "main", 2) == [[7, 8, 9]]
    assert run_to_the_end(tournament) == 1
    assert champion(tournament) == 7


def test_a_short_three_player_field_plays_a_table_of_two() -> None:
    tournament = seeded_tournament(7, table_size=Tournament.TableSize.THREE)
    bracket_create(tournament=tournament, source="ratings")
    sizes = sorted(t.player_count for t in latest(tournament).tables.all())
    assert sizes == [2, 2, 3]
    assert run_to_the_end(tournament) == 2
    assert champion(tournament) == 1


def test_tables_of_four_single_players_cannot_hold_a_knockout() -> None:
    tournament = seeded_tournament(8, table_size=Tournament.TableSize.FOUR)
    with pytest.raises(ValidationError) as refused:
        bracket_create(tournament=tournament, source="ratings")
    assert refused.value.code == "knockout_table_size"


def test_a_second_knockout_and_an_advance_without_one_are_refused() -> None:
    tournament = seeded_tournament(4)
    with pytest.raises(ValidationError) as none:
        bracket_advance(tournament=tournament)
    assert none.value.code == "no_bracket"
    bracket_create(tournament=tournament, source="ratings")
    with pytest.raises(ValidationError) as twice:
        bracket_create(tournament=tournament, source="ratings")
    assert twice.value.code == "bracket_exists"
    with pytest.raises(ValidationError) as unclosed:
        bracket_advance(tournament=tournament)
    assert unclosed.value.code == "round_not_closed"


def test_a_knockout_round_is_not_paired_by_the_format() -> None:
    tournament = seeded_tournament(4)
    bracket_create(tournament=tournament, source="ratings")
    with pytest.raises(ValidationError) as refused:
        round_pair(round=latest(tournament))
    assert refused.value.code == "knockout_round"
    table_numbers = list(latest(tournament).tables.values_list("number", flat=True))
    assert table_numbers == [1, 2]


def test_table_create_is_unchanged_for_paired_rounds() -> None:
    """The stage defaults to paired: a hand-made round is not a knockout round."""
    tournament = seeded_tournament(2)
    round = round_create(tournament=tournament)
    e1, e2 = Entry.objects.filter(tournament=tournament).order_by("seed")
    table_create(
        round=round,
        number=1,
        seats=[
            SeatSpec(number=0, entry_id=e1.pk, player_id=e1.player_id),  # type: ignore[arg-type]
            SeatSpec(number=1, entry_id=e2.pk, player_id=e2.player_id),  # type: ignore[arg-type]
        ],
    )
    assert not round.is_knockout


@pytest.mark.parametrize(
    ("entries", "table_size"),
    [(2, "2"), (3, "2"), (5, "2"), (7, "2"), (12, "2"), (3, "3"), (4, "3"), (10, "3")],
)
def test_every_field_plays_out_with_one_match_fewer_than_entries_at_two(
    entries: int, table_size: str
) -> None:
    """With the better seed always winning, seed 1 wins, every entry but the winner is
    out exactly once, and each knockout round is one tournament round."""
    tournament = seeded_tournament(entries, table_size=table_size)
    bracket = bracket_create(tournament=tournament, source="ratings", third_place=True, plate=True)
    rounds = run_to_the_end(tournament)
    plate = Bracket.objects.filter(tournament=tournament, section="plate").first()
    expected = plan_rounds(entries, bracket.per_table)
    if plate is not None:
        expected = max(expected, 1 + plan_rounds(plate.field_count, bracket.per_table))
        entrants = plate.entrants.values_list("entry_id", flat=True)
        assert champion(tournament, "plate") == min(seed_of(e) for e in entrants)
    assert rounds == expected
    assert champion(tournament) == 1
    main = BracketMatch.objects.filter(bracket=bracket, kind="bracket")
    assert all(m.winner_id is not None for m in main)
    played = [m for m in main if m.decided_by == "played"]
    losers = [s.entry_id for m in played for s in m.slots.all() if s.entry_id != m.winner_id]
    assert len(losers) == len(set(losers)) == entries - 1
    if bracket.per_table == 2:
        assert len(played) == entries - 1
    assert all(r.is_knockout for r in tournament.rounds.all())
    assert not BracketMatch.objects.filter(
        bracket__tournament=tournament, winner__isnull=True
    ).exists()


def plan_rounds(entries: int, per_table: int) -> int:
    size, count = per_table, 1
    while size < entries:
        size, count = size * per_table, count + 1
    return count


def test_at_a_table_of_three_only_the_tied_leaders_are_offered_the_extra_hand() -> None:
    # Given a knockout at tables of three whose table 1 ties its first two on top
    tournament = seeded_tournament(9, table_size=Tournament.TableSize.THREE)
    bracket_create(tournament=tournament, source="ratings")
    first = latest(tournament)
    play_round(first, choose=lambda es: None)
    # When the desk asks which entries may have won the extra hand
    ties = bracket_matches_tied(tournament=tournament)
    # Then every table is tied, and each offers its two leaders, never the third
    assert len(ties) == first.tables.count() == 3
    for tied in ties:
        table = tied.match.table
        assert table is not None
        leaders = [s.entry_id for s in table.seats.order_by("number")][:2]
        assert sorted(s.entry_id for s in tied.slots) == sorted(leaders)


def test_an_entry_still_in_the_knockout_withdraws_by_a_walkover_only() -> None:
    # Given a bracket of four whose first round was played and advanced
    tournament = seeded_tournament(4)
    bracket_create(tournament=tournament, source="ratings")
    play_round(latest(tournament))
    bracket_advance(tournament=tournament)
    one = Entry.objects.get(tournament=tournament, seed=1)
    four = Entry.objects.get(tournament=tournament, seed=4)
    final = BracketMatch.objects.get(slots__entry=one, winner__isnull=True)
    assert final.table is not None
    # When seed 1, in the final, withdraws, then it is refused, naming the final's table
    with pytest.raises(ValidationError, match=f"meja {final.table.number}") as kept:
        entry_withdraw(entry=one)
    assert kept.value.code == "entry_kept"
    one.refresh_from_db()
    assert not one.is_withdrawn
    # And seed 4, knocked out in the first round, may withdraw
    assert entry_withdraw(entry=four).is_withdrawn


def test_a_knockout_is_taken_back_before_it_starts_and_seeded_again() -> None:
    tournament = seeded_tournament(8)
    bracket_create(tournament=tournament, source="ratings", cut=4)
    assert bracket_undoable(tournament=tournament)
    assert bracket_undo(tournament=tournament) == 1
    assert not tournament.brackets.exists() and not tournament.rounds.exists()
    assert not bracket_undoable(tournament=tournament)
    with pytest.raises(ValidationError) as none:
        bracket_undo(tournament=tournament)
    assert none.value.code == "no_bracket"
    bracket_create(tournament=tournament, source="ratings", cut=8, third_place=True)
    assert bracket_round(tournament, "main", 1) == [[1, 8], [4, 5], [2, 7], [3, 6]]


def test_a_knockout_that_has_started_cannot_be_taken_back() -> None:
    tournament = seeded_tournament(4)
    bracket_create(tournament=tournament, source="ratings")
    first = latest(tournament)
    round_publish(round=first)
    assert not bracket_undoable(tournament=tournament)
    with pytest.raises(ValidationError) as started:
        bracket_undo(tournament=tournament)
    assert started.value.code == "knockout_started"
    assert tournament.brackets.exists() and first.tables.count() == 2


def test_taking_a_knockout_back_keeps_the_swiss_rounds_before_it() -> None:
    tournament = seeded_tournament(6, rounds_count=4)
    swiss = round_create(tournament=tournament)
    round_pair(round=swiss)
    play_round(swiss)
    bracket_create(tournament=tournament, cut=4)
    bracket_undo(tournament=tournament)
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]
    assert TableResult.objects.filter(table__round=swiss).count() == 3
