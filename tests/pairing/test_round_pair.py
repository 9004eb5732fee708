"""round_pair end to end through the database: who is paired, how tables and seats are
written, what is recorded (seed, costs, quality, byes), and what is refused."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from league.models import Round, Tournament
from league.services.registration import entry_create, entry_withdraw
from league.services.rounds import round_create, round_publish
from pairing.selectors import pairing_field
from pairing.services.pairing import round_pair
from tests.factories import PlayerFactory
from tests.pairing.conftest import (
    appearances,
    entries_of,
    play,
    seating,
    tournament_with_entries,
)

pytestmark = pytest.mark.django_db


def test_swiss_round_seats_everyone_exactly_once_with_one_bye_for_an_odd_field() -> None:
    # Given a Swiss for seven players at tables of two, byes allowed
    tournament = tournament_with_entries(7)
    round = round_create(tournament=tournament)
    # When the round is paired
    draw = round_pair(round=round, seed=11)
    # Then three tables of two and one bye hold every entry exactly once
    assert [len(t) for t in seating(round)] == [2, 2, 2]
    assert round.byes.count() == 1
    assert appearances(round) == {e.pk: 1 for e in entries_of(tournament)}
    assert draw.byes == tuple(round.byes.values_list("pk", flat=True))


def test_each_table_target_follows_its_player_count() -> None:
    # Given a Swiss at tables of two under a rule set with target 250 for two players
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    # When it is paired
    round_pair(round=round, seed=1)
    # Then every table is a two-player table with the two-player target
    assert set(round.tables.values_list("player_count", "target")) == {(2, 250)}


def test_round_records_seed_quality_report_and_each_tables_cost() -> None:
    # Given a Swiss with two rounds, the first one played
    tournament = tournament_with_entries(6)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=3)
    play(first)
    second = round_create(tournament=tournament)
    # When the second round is paired
    round_pair(round=second, seed=9)
    second.refresh_from_db()
    # Then the seed, the quality report and every table's cost breakdown are stored
    assert second.pairing_seed == 9
    assert second.quality["rematches"] == 0
    assert second.quality["table_count"] == 3
    assert Fraction(second.quality["largest_score_gap"]) >= 0
    for table in second.tables.all():
        assert set(table.cost) >= {"score_gap", "rematches", "partner_repeats"}
        assert table.cost["rematches"] == 0


def test_second_swiss_round_pairs_winners_with_winners_and_avoids_rematches() -> None:
    # Given eight players after one round (four won, four lost)
    tournament = tournament_with_entries(8)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=5)
    play(first)
    winners = {seats[0] for seats in seating(first)}
    met = {frozenset(seats) for seats in seating(first)}
    # When round two is paired
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=5)
    # Then winners meet winners, losers meet losers, and nobody meets again
    for seats in seating(second):
        assert len({e in winners for e in seats}) == 1
        assert frozenset(seats) not in met
    assert all(t.cost["score_gap"] == "0" for t in second.tables.all())


def test_same_seed_gives_the_same_draw_and_rerunning_replaces_the_draft() -> None:
    # Given a draft round of a ten-player Swiss
    tournament = tournament_with_entries(10)
    round = round_create(tournament=tournament)
    # When it is paired twice with the same seed
    round_pair(round=round, seed=42)
    first = seating(round)
    round_pair(round=round, seed=42)
    # Then the draw is the same, and the old tables were replaced, not added to
    assert seating(round) == first
    assert round.tables.count() == 5


def test_without_a_seed_the_recorded_seed_is_used() -> None:
    # Given a round whose recorded seed is 77
    tournament = tournament_with_entries(6)
    round = round_create(tournament=tournament)
    Round.objects.filter(pk=round.pk).update(pairing_seed=77)
    round_pair(round=round, seed=77)
    with_seed = seating(round)
    # When it is paired again without a seed
    round_pair(round=round)
    # Then the recorded seed is used and the draw repeats
    assert seating(round) == with_seed
    round.refresh_from_db()
    assert round.pairing_seed == 77


def test_withdrawn_entrant_is_never_paired() -> None:
    # Given a Swiss of five in which one entry withdraws after round one
    tournament = tournament_with_entries(5)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=1)
    play(first)
    leaver = entries_of(tournament)[0]
    entry_withdraw(entry=leaver)
    # When round two is paired
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=1)
    # Then the leaver has neither a seat nor a bye, and the four others all play
    assert leaver.pk not in appearances(second)
    assert len(appearances(second)) == 4
    assert second.byes.count() == 0


def test_late_entrant_joins_the_next_round() -> None:
    # Given a Swiss of four whose first round has been played
    tournament = tournament_with_entries(4)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=2)
    play(first)
    # When a fifth and sixth player enter late and round two is paired
    late = [entry_create(tournament=tournament, player=PlayerFactory()) for _ in range(2)]
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=2)
    # Then both late entrants are seated in round two
    seen = appearances(second)
    assert all(seen[e.pk] == 1 for e in late)
    assert sum(seen.values()) == 6


def test_odd_field_without_byes_is_refused_with_a_clear_message() -> None:
    # Given five players and a tournament that does not allow byes
    tournament = tournament_with_entries(5, allow_byes=False)
    round = round_create(tournament=tournament)
    # When pairing is asked for, then it is refused and nothing is written
    with pytest.raises(ValidationError) as raised, translation.override("en"):
        round_pair(round=round, seed=1)
    assert raised.value.code == "byes_not_allowed"
    assert "byes" in raised.value.messages[0]
    assert round.tables.count() == 0


def test_a_published_round_is_not_paired_again() -> None:
    # Given a paired and published round
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    before = seating(round)
    round_publish(round=round)
    # When pairing it again is asked for, then it is refused and the tables stay
    with pytest.raises(ValidationError) as raised:
        round_pair(round=round, seed=2)
    assert raised.value.code == "not_draft"
    assert seating(round) == before


def test_too_few_entrants_is_refused() -> None:
    # Given a Swiss with a single entry
    tournament = tournament_with_entries(1)
    round = round_create(tournament=tournament)
    # When it is paired, then it is refused with the pure algorithm's reason, translated
    with pytest.raises(ValidationError) as raised:
        round_pair(round=round, seed=1)
    assert raised.value.code == "too_few"


def test_partnerships_fill_opposite_seats_at_four_player_tables() -> None:
    # Given a fixed-partnership event of four partnerships
    tournament = tournament_with_entries(
        4, format=Tournament.Format.FIXED_PARTNERSHIP, table_size=Tournament.TableSize.FOUR
    )
    round = round_create(tournament=tournament)
    # When it is paired
    round_pair(round=round, seed=4)
    # Then two four-player tables: each partnership sits at seats 0+2 or 1+3, with both
    # of its players, and the table carries the four-player target
    assert set(round.tables.values_list("player_count", "target")) == {(4, 150)}
    for table in round.tables.all():
        seats = list(table.seats.order_by("number").select_related("entry__partnership"))
        assert seats[0].entry_id == seats[2].entry_id != seats[1].entry_id == seats[3].entry_id
        for a, b in ((seats[0], seats[2]), (seats[1], seats[3])):
            partnership = a.entry.partnership
            assert {a.player_id, b.player_id} == {
                partnership.player_a_id,
                partnership.player_b_id,
            }


def test_partnerships_do_not_meet_again_in_round_two() -> None:
    # Given four partnerships after one round
    tournament = tournament_with_entries(
        4, format=Tournament.Format.FIXED_PARTNERSHIP, table_size=Tournament.TableSize.FOUR
    )
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=8)
    play(first)
    # When round two is paired
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=8)
    # Then no two partnerships meet twice, and the history saw partnerships, not players
    met = {frozenset(t) for t in seating(first)}
    assert all(frozenset(t) not in met for t in seating(second))
    second.refresh_from_db()
    assert second.quality["rematches"] == 0


def test_history_counts_meetings_and_partners_from_earlier_seats() -> None:
    # Given a rotating-partner event whose first round was written by hand
    from league.services.rounds import seats_for_entries, table_create

    tournament = tournament_with_entries(
        4, format=Tournament.Format.ROTATING_PARTNER, table_size=Tournament.TableSize.FOUR
    )
    a, b, c, d = entries_of(tournament)
    first = round_create(tournament=tournament)
    table_create(round=first, number=1, seats=seats_for_entries([a, b, c, d], player_count=4))
    second = round_create(tournament=tournament)
    # When the second round's field is read
    field = pairing_field(round=second)
    # Then everyone met everyone once, and a+c, b+d were partners (seats 0+2, 1+3)
    assert field.history.meetings(a.pk, d.pk) == 1
    assert field.history.partnerships(a.pk, c.pk) == 1
    assert field.history.partnerships(b.pk, d.pk) == 1
    assert field.history.partnerships(a.pk, b.pk) == 0


@pytest.mark.parametrize(
    ("count", "table_size", "sizes"),
    [
        (10, Tournament.TableSize.FOUR, [4, 3, 3]),
        (12, Tournament.TableSize.FOUR, [4, 4, 4]),
        (7, Tournament.TableSize.MIXED, [4, 3]),
        (12, Tournament.TableSize.THREE, [3, 3, 3, 3]),
        (10, Tournament.TableSize.THREE, [4, 3, 3]),
        (5, Tournament.TableSize.FOUR, [3, 2]),
    ],
)
def test_group_swiss_mixes_table_sizes_and_sets_each_tables_target(
    count: int, table_size: str, sizes: list[int]
) -> None:
    # Given a one-round Swiss for individuals at tables of three or four, byes not allowed
    tournament = tournament_with_entries(
        count, table_size=table_size, allow_byes=False, rounds_count=1
    )
    round = round_create(tournament=tournament)
    # When it is paired
    round_pair(round=round, seed=6)
    # Then the tables have the expected sizes, everyone sits exactly once, and each
    # table's target is the rule set's for its own player count (2: 250, 3: 200, 4: 150)
    assert sorted((len(t) for t in seating(round)), reverse=True) == sizes
    assert appearances(round) == {e.pk: 1 for e in entries_of(tournament)}
    targets = {2: 250, 3: 200, 4: 150}
    for player_count, target in round.tables.values_list("player_count", "target"):
        assert target == targets[player_count]


def test_group_swiss_second_round_avoids_every_repeat_meeting() -> None:
    # Given sixteen players at tables of four after one played round (with twelve,
    # three tables could not avoid a repeat: four players from three tables)
    tournament = tournament_with_entries(16, table_size=Tournament.TableSize.FOUR)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=2)
    play(first)
    # When round two is paired
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=2)
    second.refresh_from_db()
    # Then no two players share a table again, by the report and by the seats
    assert second.quality["rematches"] == 0
    met = {frozenset(p) for t in seating(first) for p in combinations(t, 2)}
    assert not any(frozenset(p) in met for t in seating(second) for p in combinations(t, 2))


def test_group_swiss_plans_ahead_for_the_rounds_still_to_come(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given round 2 of a three-round Swiss at tables of four
    import pairing.algorithms.dispatch as service

    seen: dict[str, object] = {}
    real = service.group_swiss_seat

    def spy(*args: object, **kwargs: object) -> object:
        seen.update(kwargs)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service, "group_swiss_seat", spy)
    tournament = tournament_with_entries(8, table_size=Tournament.TableSize.FOUR, rounds_count=3)
    round_create(tournament=tournament)
    second = round_create(tournament=tournament)
    # When it is paired, then the pure search is told this round and one more remain
    round_pair(round=second, seed=1)
    assert seen["rounds_left"] == 2


def _pairs(round: Round, *, partners: bool) -> list[frozenset[int]]:
    found = []
    for seats in seating(round):
        if len(seats) == 4:
            sides = [(seats[0], seats[2]), (seats[1], seats[3])]
            if partners:
                found += [frozenset(s) for s in sides]
            else:
                found += [frozenset((a, b)) for a in sides[0] for b in sides[1]]
    return found


def test_rotating_partners_follow_the_whist_schedule_round_after_round() -> None:
    # Given eight players in a seven-round rotating-partner event
    tournament = tournament_with_entries(
        8,
        format=Tournament.Format.ROTATING_PARTNER,
        table_size=Tournament.TableSize.FOUR,
        rounds_count=7,
    )
    partnered: list[frozenset[int]] = []
    opposed: list[frozenset[int]] = []
    # When every round is paired and played in turn
    for _ in range(7):
        round = round_create(tournament=tournament)
        round_pair(round=round, seed=5)
        partnered += _pairs(round, partners=True)
        opposed += _pairs(round, partners=False)
        play(round)
    # Then every pair were partners exactly once and opponents exactly twice (Wh(8))
    ids = [e.pk for e in entries_of(tournament)]
    pairs = [frozenset(p) for p in combinations(ids, 2)]
    assert sorted(partnered, key=sorted) == sorted(pairs, key=sorted)
    assert all(opposed.count(p) == 2 for p in pairs)


def test_rotating_partners_after_a_withdrawal_still_avoid_partner_repeats() -> None:
    # Given eight rotating-partner players, one round played, then one withdraws
    tournament = tournament_with_entries(
        8, format=Tournament.Format.ROTATING_PARTNER, table_size=Tournament.TableSize.MIXED
    )
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=3)
    play(first)
    entry_withdraw(entry=entries_of(tournament)[0])
    # When round two is paired for the seven left
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=3)
    second.refresh_from_db()
    # Then a table of four and one of three, and nobody partners the same player again
    assert sorted(len(t) for t in seating(second)) == [3, 4]
    assert second.quality["partner_repeats"] == 0
    assert not set(_pairs(second, partners=True)) & set(_pairs(first, partners=True))


def test_rotating_partners_refuse_tables_of_two() -> None:
    tournament = tournament_with_entries(
        4, format=Tournament.Format.ROTATING_PARTNER, table_size=Tournament.TableSize.TWO
    )
    with pytest.raises(ValidationError) as raised:
        round_pair(round=round_create(tournament=tournament), seed=1)
    assert raised.value.code == "table_size"


def _meetings(rounds: list[Round]) -> list[frozenset[int]]:
    return [frozenset(p) for r in rounds for t in seating(r) for p in combinations(t, 2)]


def _play_all(tournament: Tournament, count: int) -> list[Round]:
    rounds = []
    for _ in range(count):
        round = round_create(tournament=tournament)
        round_pair(round=round, seed=9)
        play(round)
        rounds.append(round)
    return rounds


def test_round_robin_meets_everyone_once_and_rotates_the_bye() -> None:
    # Given a round robin of five at tables of two, byes allowed, over five rounds
    tournament = tournament_with_entries(5, format=Tournament.Format.ROUND_ROBIN, rounds_count=5)
    # When every round is paired and played
    rounds = _play_all(tournament, 5)
    # Then every pair met exactly once and everyone sat out exactly once
    ids = [e.pk for e in entries_of(tournament)]
    assert sorted(_meetings(rounds), key=sorted) == sorted(
        (frozenset(p) for p in combinations(ids, 2)), key=sorted
    )
    byes = [e for r in rounds for e in r.byes.values_list("pk", flat=True)]
    assert sorted(byes) == sorted(ids)


def test_group_round_robin_uses_the_exact_design_for_nine_at_tables_of_three() -> None:
    # Given nine players at tables of three over four rounds (the affine plane AG(2, 3))
    tournament = tournament_with_entries(
        9,
        format=Tournament.Format.ROUND_ROBIN,
        table_size=Tournament.TableSize.THREE,
        rounds_count=4,
    )
    # When every round is paired and played
    rounds = _play_all(tournament, 4)
    # Then every pair shared a table exactly once
    met = _meetings(rounds)
    assert len(met) == len(set(met)) == 36


def test_round_robin_keeps_its_schedule_when_a_player_withdraws() -> None:
    # Given a round robin of four where, after round one, one player withdraws
    tournament = tournament_with_entries(4, format=Tournament.Format.ROUND_ROBIN, rounds_count=3)
    first = _play_all(tournament, 1)
    leaver = entries_of(tournament)[0]
    entry_withdraw(entry=leaver)
    # When round two is paired
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=9)
    # Then the leaver's scheduled opponent has the bye, the other table plays, no rematch
    assert leaver.pk not in appearances(second)
    assert second.byes.count() == 1 and len(seating(second)) == 1
    assert not set(_meetings([second])) & set(_meetings(first))


def test_round_robin_with_a_late_entrant_still_avoids_rematches() -> None:
    # Given a round robin of four, round one played, and a fifth player arriving late
    tournament = tournament_with_entries(4, format=Tournament.Format.ROUND_ROBIN, rounds_count=5)
    first = _play_all(tournament, 1)
    late = entry_create(tournament=tournament, player=PlayerFactory())
    # When round two is paired (the fixed schedule no longer applies)
    second = round_create(tournament=tournament)
    round_pair(round=second, seed=9)
    # Then the late entrant plays or has the bye, and nobody meets again
    assert appearances(second)[late.pk] == 1
    assert not set(_meetings([second])) & set(_meetings(first))
