"""Hand-editing a draft: the warnings round_draft_validate gives, and the league-night
field (checked-in entrants, the season's history)."""

from __future__ import annotations

import pytest

from league.models import Entry, Round, Seat, Tournament
from league.services.registration import entry_create, entry_withdraw
from league.services.rounds import round_create, seats_for_entries, table_create
from pairing.selectors import pairing_field
from pairing.services.checks import round_draft_validate
from pairing.services.pairing import round_pair
from tests.pairing.conftest import (
    entries_of,
    play,
    seating,
    tournament_with_entries,
)

pytestmark = pytest.mark.django_db


def _codes(round: Round) -> list[str]:
    return [p.code for p in round_draft_validate(round=round)]


def test_a_fresh_draw_has_no_warnings() -> None:
    # Given a second round paired by the service after a played first round
    tournament = tournament_with_entries(6)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=1)
    play(first)
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=1)
    # When the draft is checked, then there is nothing to warn about
    assert round_draft_validate(round=second) == []


def test_swapping_seats_into_a_rematch_is_warned_about_by_name() -> None:
    # Given round two of a four-player Swiss, paired without rematches
    tournament = tournament_with_entries(4)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=1)
    play(first)
    (a, b), _other = seating(first)
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=1)
    # When the organiser moves b to a's table (swapping b with a's opponent)
    seat_a = Seat.objects.get(table__round=second, entry_id=a)
    seat_b = Seat.objects.get(table__round=second, entry_id=b)
    opponent = Seat.objects.filter(table=seat_a.table).exclude(pk=seat_a.pk).get()
    moved = {"entry_id": opponent.entry_id, "player_id": opponent.player_id}
    Seat.objects.filter(pk=opponent.pk).update(entry_id=b, player_id=seat_b.player_id)
    Seat.objects.filter(pk=seat_b.pk).update(**moved)
    # Then both tables are round one's again: two rematches, each naming both players
    # and its table, and none of them blocks publishing
    problems = round_draft_validate(round=second)
    rematch = {frozenset(p.entry_ids): p for p in problems if p.code == "rematch"}
    assert set(rematch) == {frozenset(t) for t in seating(first)}
    ours = rematch[frozenset((a, b))]
    assert ours.table_number == seat_a.table.number
    names = {e.pk: e.display_name for e in entries_of(tournament)}
    assert names[a] in ours.message and names[b] in ours.message
    assert not any(p.is_blocking for p in problems)


def test_a_player_seated_twice_is_a_blocking_warning_and_the_other_is_unseated() -> None:
    # Given a paired first round of four
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=3)
    (a, _b), (c, _d) = seating(round)
    # When the organiser puts a in place of c at the second table
    entry_a = Entry.objects.get(pk=a)
    Seat.objects.filter(table__round=round, entry_id=c).update(
        entry_id=a, player_id=entry_a.player_id
    )
    # Then a is "twice" (blocking) and c is left without a seat
    problems = round_draft_validate(round=round)
    twice = [p for p in problems if p.code == "player_twice"]
    assert twice and twice[0].is_blocking and twice[0].entry_ids == (a,)
    assert [p.entry_ids for p in problems if p.code == "unseated"] == [(c,)]


def test_a_withdrawn_entrant_left_in_the_draft_is_flagged() -> None:
    # Given a paired round in which one entrant then withdraws
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=3)
    entry_withdraw(entry=entries_of(tournament)[0])
    # When the draft is checked, then the withdrawn entrant is flagged as not active
    assert "unknown_entrant" in _codes(round)


def test_a_second_bye_is_warned_about() -> None:
    # Given a Swiss of three whose first round gave one bye
    tournament = tournament_with_entries(3)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=1)
    had_bye = first.byes.get()
    play(first)
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=1)
    # When the organiser gives the same entrant the bye again
    second.byes.set([had_bye])
    # Then the repeated bye is warned about (the entrant is also seated twice)
    codes = _codes(second)
    assert "bye_repeat" in codes


def test_partner_repeat_is_warned_about_for_a_hand_made_rotating_partner_draft() -> None:
    # Given a rotating-partner event where a+c were partners in round one
    tournament = tournament_with_entries(
        4, format=Tournament.Format.ROTATING_PARTNER, table_size=Tournament.TableSize.FOUR
    )
    a, b, c, d = entries_of(tournament)
    first = round_create(tournament=tournament)
    table_create(round=first, number=1, seats=seats_for_entries([a, b, c, d], player_count=4))
    # When round two is drafted by hand with a+c partners again
    second = round_create(tournament=tournament)
    table_create(round=second, number=1, seats=seats_for_entries([a, d, c, b], player_count=4))
    # Then both partner pairs are repeats
    repeats = [p for p in round_draft_validate(round=second) if p.code == "partner_repeat"]
    assert {frozenset(p.entry_ids) for p in repeats} == {
        frozenset((a.pk, c.pk)),
        frozenset((b.pk, d.pk)),
    }


def test_league_night_pairs_the_checked_in_and_remembers_the_season() -> None:
    # Given two league nights of one season with the same four players
    night_one = tournament_with_entries(
        4, format=Tournament.Format.LEAGUE_NIGHT, table_size=Tournament.TableSize.TWO
    )
    players = [e.player for e in entries_of(night_one)]
    round_one = round_create(tournament=night_one)
    p = entries_of(night_one)
    table_create(round=round_one, number=1, seats=seats_for_entries(p[:2], player_count=2))
    table_create(round=round_one, number=2, seats=seats_for_entries(p[2:], player_count=2))
    play(round_one)
    night_two = tournament_with_entries(
        0,
        format=Tournament.Format.LEAGUE_NIGHT,
        table_size=Tournament.TableSize.TWO,
        season=night_one.season,
    )
    tonight = [entry_create(tournament=night_two, player=player) for player in players]
    late_home = tonight[3]
    Entry.objects.filter(pk=late_home.pk).update(is_checked_in=False)
    # When the second night's first round field is read
    field = pairing_field(round=round_create(tournament=night_two))
    # Then only the checked-in play, and last week's tables are remembered between
    # tonight's entries; last week's winners carry their season match points
    assert {e.id for e in field.entrants} == {e.pk for e in tonight[:3]}
    assert field.history.meetings(tonight[0].pk, tonight[1].pk) == 1
    assert field.history.meetings(tonight[0].pk, tonight[2].pk) == 0
    scores = {e.id: e.score for e in field.entrants}
    assert scores[tonight[0].pk] > scores[tonight[1].pk]


def test_league_night_round_avoids_last_weeks_opponents() -> None:
    # Given last week's league night where 1 beat 2 and 3 beat 4
    night_one = tournament_with_entries(
        4, format=Tournament.Format.LEAGUE_NIGHT, table_size=Tournament.TableSize.TWO
    )
    last_week = entries_of(night_one)
    round_one = round_create(tournament=night_one)
    for number, pair in enumerate((last_week[:2], last_week[2:]), start=1):
        table_create(round=round_one, number=number, seats=seats_for_entries(pair, player_count=2))
    play(round_one)
    # And tonight the same four have checked in
    night_two = tournament_with_entries(
        0,
        format=Tournament.Format.LEAGUE_NIGHT,
        table_size=Tournament.TableSize.TWO,
        season=night_one.season,
    )
    tonight = {e.player_id: entry_create(tournament=night_two, player=e.player) for e in last_week}
    # When tonight's first round is paired
    round = round_create(tournament=night_two)
    round_pair(round=round, seed=1)
    # Then nobody meets last week's opponent, and the two winners meet each other
    by_player = {entry.pk: player for player, entry in tonight.items()}
    met_last_week = {
        frozenset(e.player_id for e in pair) for pair in (last_week[:2], last_week[2:])
    }
    tables = [frozenset(by_player[e] for e in seats) for seats in seating(round)]
    assert not set(tables) & met_last_week
    assert frozenset((last_week[0].player_id, last_week[2].player_id)) in tables


def test_league_night_at_tables_of_four_seats_only_the_checked_in() -> None:
    # Given a league night at tables of four with eight entries, one not checked in
    night = tournament_with_entries(
        8, format=Tournament.Format.LEAGUE_NIGHT, table_size=Tournament.TableSize.FOUR
    )
    absent = entries_of(night)[-1]
    Entry.objects.filter(pk=absent.pk).update(is_checked_in=False)
    # When the first round is paired
    round = round_create(tournament=night)
    round_pair(round=round, seed=4)
    # Then the seven present sit at a table of four and a table of three, the absent not at all
    assert sorted(len(t) for t in seating(round)) == [3, 4]
    seated = {e for t in seating(round) for e in t}
    assert absent.pk not in seated and len(seated) == 7
    assert set(round.tables.values_list("player_count", "target")) == {(4, 150), (3, 200)}
