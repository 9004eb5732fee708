"""The pure standings maths: scoring, credit, every tiebreak, shared ranks, byes,
withdrawals, tables in play, and the explanation of adjacent rows. No Django."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from itertools import count

import pytest

from standings.maths import (
    Bye,
    Ranking,
    ScoringConfig,
    SideResult,
    StandingsError,
    TableRecord,
    Tiebreak,
    Withdrawal,
    compute_standings,
    format_value,
    lot_draw,
    to_decimal,
)

T = Tiebreak
_table_ids = count(1)

# Entrant ids used across the constructed cases.
A, B, C, D, E, F = 1, 2, 3, 4, 5, 6


def two(
    a: int | tuple[int, ...],
    b: int | tuple[int, ...],
    a_points: float,
    b_points: float,
    *,
    target: int = 250,
    hands: tuple[int, int] = (0, 0),
    round_number: int = 1,
    placings: tuple[int, int] | None = None,
    finished: bool = True,
) -> TableRecord:
    """A two-sided table; a tuple of ids is a rotating-partner side at four players."""
    a_ids = a if isinstance(a, tuple) else (a,)
    b_ids = b if isinstance(b, tuple) else (b,)
    players = 4 if len(a_ids) == 2 else 2
    pa, pb = placings or (None, None)
    return TableRecord(
        round_number=round_number,
        table_id=next(_table_ids),
        player_count=players,
        target=target,
        sides=(
            SideResult(a_ids, int(a_points * 2), pa, hands[0]),
            SideResult(b_ids, int(b_points * 2), pb, hands[1]),
        ),
        is_finished=finished,
    )


def partnership_table(a: int, b: int, a_points: float, b_points: float) -> TableRecord:
    """Four players as two fixed partnerships: each side credits one partnership entry."""
    return TableRecord(
        round_number=1,
        table_id=next(_table_ids),
        player_count=4,
        target=200,
        sides=(SideResult((a,), int(a_points * 2)), SideResult((b,), int(b_points * 2))),
    )


def three(
    a: int, b: int, c: int, points: tuple[float, float, float], *, target: int = 200
) -> TableRecord:
    return TableRecord(
        round_number=1,
        table_id=next(_table_ids),
        player_count=3,
        target=target,
        sides=tuple(SideResult((e,), int(p * 2)) for e, p in zip((a, b, c), points, strict=True)),
    )


def byes(entrant: int, how_many: int) -> list[Bye]:
    return [Bye(entrant, 100 + r) for r in range(how_many)]


def order_of(standings: Ranking) -> list[int]:
    return [row.entrant_id for row in standings.rows]


def separation(standings: Ranking, upper: int, lower: int) -> tuple[object, ...]:
    for sep in standings.separations:
        if (sep.upper_entrant_id, sep.lower_entrant_id) == (upper, lower):
            return (sep.reason, sep.tiebreak, sep.upper_value, sep.lower_value)
    raise AssertionError(f"{upper} is not listed just above {lower}: {order_of(standings)}")


# Scoring of a table


def test_two_sided_win_tie_and_loss_give_default_match_points_2_1_0() -> None:
    standings = compute_standings(
        tables=[two(A, B, 250, 120), two(C, D, 250, 250)], tiebreaks=[T.MATCH_POINTS]
    )
    points = {row.entrant_id: row.match_points for row in standings.rows}
    assert points == {A: 2, B: 0, C: 1, D: 1}
    assert standings.row_for(C).ties == 1 and standings.row_for(A).wins == 1


def test_match_points_follow_the_tournament_scoring_config() -> None:
    scoring = ScoringConfig(
        win_points=Decimal(3), tie_points=Decimal("1.5"), loss_points=Decimal("0.5")
    )
    standings = compute_standings(
        tables=[two(A, B, 250, 120), two(C, D, 250, 250)], scoring=scoring
    )
    points = {row.entrant_id: row.match_points for row in standings.rows}
    assert points == {A: 3, B: Fraction(1, 2), C: Fraction(3, 2), D: Fraction(3, 2)}


def test_three_player_tables_give_points_by_placing_default_3_1_0() -> None:
    standings = compute_standings(tables=[three(A, B, C, (200, 150, 90))])
    assert [(row.entrant_id, row.match_points) for row in standings.rows] == [
        (A, 3),
        (B, 1),
        (C, 0),
    ]
    assert [standings.row_for(e).wins for e in (A, B, C)] == [1, 0, 0]


def test_r22_three_player_tie_for_first_shares_first_and_second_places_points() -> None:
    # R20/R22: a split of 15 carries both tied players to the target with equal totals.
    standings = compute_standings(tables=[three(A, B, C, (207.5, 207.5, 120))])
    assert standings.row_for(A).match_points == 2  # (3 + 1) / 2
    assert standings.row_for(B).match_points == 2
    assert standings.row_for(C).match_points == 0
    assert standings.row_for(A).ties == 1 and standings.row_for(A).wins == 0
    assert standings.row_for(A).values.points_scored_x2 == 415  # 207.5 kept exact


def test_three_player_tie_for_second_shares_second_and_third_places_points() -> None:
    standings = compute_standings(
        tables=[three(A, B, C, (200, 60, 60))], tiebreaks=[T.MATCH_POINTS]
    )
    assert standings.row_for(B).match_points == Fraction(1, 2)
    assert standings.row_for(C).match_points == Fraction(1, 2)
    assert standings.rows[1].rank == standings.rows[2].rank == 2


def test_three_player_placing_points_split_exactly_in_thirds() -> None:
    scoring = ScoringConfig(placing_points=(Decimal(3), Decimal(1), Decimal(0)))
    # Only an abandoned match could end level three ways; the points still split exactly.
    record = TableRecord(
        1, next(_table_ids), 3, 200, tuple(SideResult((e,), 100, 1) for e in (A, B, C))
    )
    standings = compute_standings(tables=[record], scoring=scoring)
    assert {row.match_points for row in standings.rows} == {Fraction(4, 3)}


def test_given_placings_override_points_for_a_conceded_match() -> None:
    conceded = two(A, B, 40, 180, placings=(1, 2))
    assert compute_standings(tables=[conceded]).row_for(A).match_points == 2


def test_placings_with_a_gap_are_read_as_sides_placed_above() -> None:
    record = TableRecord(
        1,
        next(_table_ids),
        3,
        200,
        (SideResult((A,), 400, 1), SideResult((B,), 80, 3), SideResult((C,), 80, 3)),
    )
    assert record.placings() == (1, 2, 2)


def test_points_difference_at_three_player_tables_is_against_the_best_other_side() -> None:
    standings = compute_standings(tables=[three(A, B, C, (200, 150, 90))])
    assert standings.row_for(A).values.points_difference_x2 == 100  # 200 - 150
    assert standings.row_for(B).values.points_difference_x2 == -100  # 150 - 200
    assert standings.row_for(C).values.points_difference_x2 == -220  # 90 - 200


# Target share: mixed table sizes


def test_target_share_compares_three_and_four_player_tables_with_different_targets() -> None:
    # A plays a 2-player table to 250, B a 3-player table to 200: 125/250 vs 100/200.
    standings = compute_standings(
        tables=[two(A, D, 125, 250, target=250), three(B, C, E, (100, 200, 0), target=200)]
    )
    assert standings.row_for(A).values.target_share == Fraction(1, 2)
    assert standings.row_for(B).values.target_share == Fraction(1, 2)


def test_target_share_is_capped_at_one_per_table_and_averaged_over_tables() -> None:
    # The winner overshoots 200 with its last tile (R22): 215 counts as 200.
    standings = compute_standings(
        tables=[three(A, B, C, (215, 0, 0), target=200), two(A, D, 50, 250, target=250)]
    )
    assert standings.row_for(A).values.target_share == Fraction(1 + Fraction(1, 5), 2)


# Partnership and individual credit


def test_fixed_partnership_formats_rank_partnerships_credited_once_per_table() -> None:
    pair_1, pair_2 = 101, 102
    standings = compute_standings(tables=[partnership_table(pair_1, pair_2, 200, 150)])
    assert order_of(standings) == [pair_1, pair_2]
    assert standings.row_for(pair_1).values.points_scored_x2 == 400
    assert standings.row_for(pair_1).tables_played == 1


def test_rotating_partner_formats_credit_each_player_with_their_sides_result() -> None:
    standings = compute_standings(
        tables=[two((A, B), (C, D), 200, 150, target=200), two((A, C), (B, D), 90, 200)]
    )
    a, b, c, d = (standings.row_for(e) for e in (A, B, C, D))
    # Table 1: A+B beat C+D; table 2: B+D beat A+C.
    assert (a.match_points, b.match_points, c.match_points, d.match_points) == (2, 4, 0, 2)
    assert a.values.points_scored_x2 == 580  # 200 + 90, the side's points each time
    assert b.values.points_scored_x2 == 800
    assert (a.wins, a.losses) == (1, 1)
    # Partners are table-mates too: A sat with B, C, D and then C, B, D: (4+0+2) * 2 / 6.
    assert a.values.table_mates_strength == Fraction(2)
    assert a.values.buchholz == 8  # opponents only: C+D (0+2), then B+D (4+2)


# Each tiebreak deciding a constructed case


def test_match_points_decide() -> None:
    standings = compute_standings(tables=[two(A, B, 250, 100)], tiebreaks=[T.MATCH_POINTS])
    assert separation(standings, A, B) == ("tiebreak", T.MATCH_POINTS, 2, 0)


def test_wins_decide_between_a_win_and_a_loss_and_two_ties() -> None:
    tables = [two(A, C, 250, 0), two(A, D, 0, 250), two(B, E, 100, 100), two(B, F, 50, 50)]
    standings = compute_standings(tables=tables, tiebreaks=[T.MATCH_POINTS, T.WINS])
    # A and D (who beat A) have 2 mp from one win; B has 2 mp from two ties.
    assert standings.row_for(A).match_points == standings.row_for(B).match_points == 2
    assert [standings.row_for(e).rank for e in (A, D, B)] == [1, 1, 3]
    assert separation(standings, D, B) == ("tiebreak", T.WINS, 1, 0)


def test_points_difference_decides() -> None:
    tables = [two(A, C, 250, 50), two(B, D, 250, 200)]
    order = [T.MATCH_POINTS, T.WINS, T.POINTS_DIFFERENCE]
    standings = compute_standings(tables=tables, tiebreaks=order)
    assert separation(standings, A, B) == ("tiebreak", T.POINTS_DIFFERENCE, 200, 50)


def test_points_scored_decides_when_the_difference_is_equal() -> None:
    tables = [two(A, C, 250, 100), two(B, D, 200, 50)]
    order = [T.MATCH_POINTS, T.POINTS_DIFFERENCE, T.POINTS_SCORED]
    standings = compute_standings(tables=tables, tiebreaks=order)
    assert standings.row_for(A).values.points_difference_x2 == 300
    assert standings.row_for(B).values.points_difference_x2 == 300
    assert separation(standings, A, B) == ("tiebreak", T.POINTS_SCORED, 250, 200)


def test_target_share_decides_across_table_sizes() -> None:
    # A: first then second at 3-player tables to 200 (3 + 1 mp), shares 1 and 3/4.
    # B: two wins and two losses at 2-player tables to 250 (4 mp), shares 1, 2/5, 0, 1.
    tables = [
        three(A, C, D, (200, 0, 0), target=200),
        three(A, C, D, (150, 200, 0), target=200),
        two(B, E, 250, 0, target=250),
        two(B, F, 100, 250, target=250),
        two(B, F, 0, 250, target=250),
        two(B, E, 250, 100, target=250),
    ]
    standings = compute_standings(tables=tables, tiebreaks=[T.MATCH_POINTS, T.TARGET_SHARE])
    assert standings.row_for(A).match_points == standings.row_for(B).match_points == 4
    assert separation(standings, A, B) == (
        "tiebreak",
        T.TARGET_SHARE,
        Fraction(7, 8),
        Fraction(3, 5),
    )


def test_head_to_head_decides_among_the_tied_entrants_only() -> None:
    # A beat B; both have 2 mp. C (4 mp) beat A, but C is not in the tied group.
    tables = [two(A, B, 250, 0), two(C, A, 250, 0), two(B, D, 250, 0), two(C, E, 250, 0)]
    standings = compute_standings(tables=tables, tiebreaks=[T.MATCH_POINTS, T.HEAD_TO_HEAD])
    assert order_of(standings)[:3] == [C, A, B]
    assert separation(standings, A, B) == ("tiebreak", T.HEAD_TO_HEAD, 2, 0)
    # C was never tied with anyone, so no head-to-head value was needed for it.
    assert standings.row_for(C).values.head_to_head is None
    assert standings.row_for(A).values.head_to_head == 2


def test_head_to_head_at_a_three_player_table_uses_pairwise_placings() -> None:
    # A placed above B at the table they shared; each also has 1 mp... made equal below.
    tables = [three(A, B, C, (200, 150, 100)), two(B, D, 250, 0)]
    # A: 3 mp. B: 1 + 2 = 3 mp. Pairwise A over B: a win (2) for A, a loss (0) for B.
    standings = compute_standings(tables=tables, tiebreaks=[T.MATCH_POINTS, T.HEAD_TO_HEAD])
    assert separation(standings, A, B) == ("tiebreak", T.HEAD_TO_HEAD, 2, 0)


def test_buchholz_decides_by_the_opponents_match_points() -> None:
    # A and B both lost once. A's opponent C has 6 mp (2 byes), B's opponent D has 2.
    tables = [two(C, A, 250, 0), two(D, B, 250, 0)]
    standings = compute_standings(
        tables=tables, byes=byes(C, 2), tiebreaks=[T.MATCH_POINTS, T.BUCHHOLZ]
    )
    assert separation(standings, A, B) == ("tiebreak", T.BUCHHOLZ, 6, 2)


def test_median_buchholz_decides_where_buchholz_is_equal() -> None:
    # A lost to opponents with 8, 2, 2 mp; B to opponents with 4, 4, 4: Buchholz 12 each,
    # median-Buchholz (highest and lowest cut) 2 against 4.
    o1, o2, o3, p1, p2, p3 = 11, 12, 13, 21, 22, 23
    tables = [two(o, A, 250, 0) for o in (o1, o2, o3)] + [two(p, B, 250, 0) for p in (p1, p2, p3)]
    extra = byes(o1, 3) + byes(p1, 1) + byes(p2, 1) + byes(p3, 1)
    order = [T.MATCH_POINTS, T.BUCHHOLZ, T.MEDIAN_BUCHHOLZ]
    standings = compute_standings(tables=tables, byes=extra, tiebreaks=order)
    assert standings.row_for(A).values.buchholz == standings.row_for(B).values.buchholz == 12
    assert separation(standings, B, A) == ("tiebreak", T.MEDIAN_BUCHHOLZ, 4, 2)


def test_sonneborn_berger_decides_by_whom_one_beat() -> None:
    # Both win one and lose one, Buchholz 6 each; A beat the stronger opponent.
    p, q, r, s = 11, 12, 13, 14
    tables = [two(A, p, 250, 0), two(q, A, 250, 0), two(B, r, 250, 0), two(s, B, 250, 0)]
    extra = byes(p, 2) + byes(r, 1) + byes(s, 1)  # p 4, q 2, r 2, s 4
    order = [T.MATCH_POINTS, T.BUCHHOLZ, T.SONNEBORN_BERGER]
    standings = compute_standings(tables=tables, byes=extra, tiebreaks=order)
    assert standings.row_for(A).values.buchholz == standings.row_for(B).values.buchholz == 6
    assert separation(standings, A, B) == ("tiebreak", T.SONNEBORN_BERGER, 4, 2)


def test_sonneborn_berger_counts_half_of_a_tied_opponents_score() -> None:
    standings = compute_standings(tables=[two(A, C, 100, 100)], byes=byes(C, 1))
    assert standings.row_for(A).values.sonneborn_berger == Fraction(3, 2)  # C has 3 mp


def test_table_mates_strength_counts_partners_in_rotating_formats() -> None:
    # Same result, same opponents' strength; A's partner P1 is stronger than B's P2.
    p1, p2, x, y, x2, y2 = 11, 12, 13, 14, 15, 16
    tables = [two((A, p1), (x, y), 200, 100, target=200), two((B, p2), (x2, y2), 200, 100)]
    order = [T.MATCH_POINTS, T.BUCHHOLZ, T.TABLE_MATES_STRENGTH]
    standings = compute_standings(tables=tables, byes=byes(p1, 2), tiebreaks=order)
    assert separation(standings, A, B) == (
        "tiebreak",
        T.TABLE_MATES_STRENGTH,
        Fraction(6, 3),
        Fraction(2, 3),
    )


def test_hands_won_decides() -> None:
    tables = [two(A, C, 250, 100, hands=(6, 2)), two(B, D, 250, 100, hands=(4, 3))]
    order = [T.MATCH_POINTS, T.POINTS_DIFFERENCE, T.HANDS_WON]
    standings = compute_standings(tables=tables, tiebreaks=order)
    assert separation(standings, A, B) == ("tiebreak", T.HANDS_WON, 6, 4)


def test_lot_decides_last_from_the_recorded_seed() -> None:
    tables = [two(A, C, 250, 100), two(B, D, 250, 100)]
    for seed in ("2025-spring", "other"):
        standings = compute_standings(
            tables=tables, tiebreaks=[T.MATCH_POINTS, T.LOT], lot_seed=seed
        )
        lots = {e: lot_draw(seed=seed, entrant_id=e) for e in (A, B)}
        upper, lower = sorted((A, B), key=lots.__getitem__, reverse=True)
        assert order_of(standings)[:2] == [upper, lower]
        assert separation(standings, upper, lower) == (
            "tiebreak",
            T.LOT,
            lots[upper],
            lots[lower],
        )
        assert standings.row_for(A).values.lot == lots[A]  # recorded on the row
    assert lot_draw(seed="2025-spring", entrant_id=A) != lot_draw(seed="other", entrant_id=A)


def test_every_tiebreak_name_has_a_deciding_case_above() -> None:
    tested = {
        "match_points",
        "wins",
        "points_difference",
        "points_scored",
        "target_share",
        "head_to_head",
        "buchholz",
        "median_buchholz",
        "sonneborn_berger",
        "table_mates_strength",
        "hands_won",
        "lot",
    }
    assert {t.value for t in Tiebreak} == tested


def test_the_organisers_order_is_followed() -> None:
    # A has more match points, B more points scored: the first tiebreak listed wins.
    tables = [two(A, C, 250, 0), two(B, D, 240, 250), two(B, E, 240, 250)]
    by_mp = compute_standings(tables=tables, tiebreaks=[T.MATCH_POINTS, T.POINTS_SCORED])
    by_points = compute_standings(tables=tables, tiebreaks=[T.POINTS_SCORED, T.MATCH_POINTS])
    assert order_of(by_mp).index(A) < order_of(by_mp).index(B)
    assert order_of(by_points).index(B) < order_of(by_points).index(A)


# Shared ranks


def test_entrants_equal_on_every_tiebreak_share_the_rank() -> None:
    tables = [two(A, C, 250, 100), two(B, D, 250, 100), two(E, F, 260, 0)]
    standings = compute_standings(tables=tables, tiebreaks=[T.MATCH_POINTS, T.POINTS_SCORED])
    ranks = [(row.rank, row.entrant_id) for row in standings.rows]
    assert ranks == [(1, E), (2, A), (2, B), (4, C), (4, D), (6, F)]
    assert len(standings.separations) == len(standings.rows) - 1
    assert separation(standings, E, A) == ("tiebreak", T.POINTS_SCORED, 260, 250)
    assert separation(standings, A, B) == ("shared_rank", None, None, None)
    assert separation(standings, B, C) == ("tiebreak", T.MATCH_POINTS, 2, 0)


# Byes and withdrawals


def test_a_bye_gives_the_configured_bye_points_and_is_counted() -> None:
    scoring = ScoringConfig(bye_points=Decimal("1.5"))
    standings = compute_standings(
        tables=[two(A, B, 250, 0, round_number=1)], byes=[Bye(C, 1)], scoring=scoring
    )
    c = standings.row_for(C)
    assert (c.match_points, c.byes_count, c.tables_played, c.wins) == (Fraction(3, 2), 1, 0, 0)
    assert c.values.buchholz == 0  # a bye brings no opponent


def test_tables_and_byes_may_carry_their_own_scoring_as_in_a_season_table() -> None:
    # A season aggregates tournaments with different scoring: each record brings its own.
    three_one_zero = ScoringConfig(win_points=Decimal(3), bye_points=Decimal("0.5"))
    own = two(A, B, 250, 0)
    own = TableRecord(own.round_number, own.table_id, 2, 250, own.sides, scoring=three_one_zero)
    standings = compute_standings(
        tables=[own, two(C, D, 250, 0)], byes=[Bye(E, 1, three_one_zero), Bye(F, 1)]
    )
    points = {row.entrant_id: row.match_points for row in standings.rows}
    assert points == {A: 3, B: 0, C: 2, D: 0, E: Fraction(1, 2), F: 2}


def test_withdrawn_entrants_keep_their_results_and_are_flagged() -> None:
    tables = [two(A, B, 250, 0, round_number=1), two(C, D, 250, 0, round_number=1)]
    standings = compute_standings(
        tables=tables, withdrawals=[Withdrawal(A, 2)], tiebreaks=[T.MATCH_POINTS]
    )
    a = standings.row_for(A)
    assert (a.rank, a.is_withdrawn, a.withdrawn_round) == (1, True, 2)
    assert not standings.row_for(C).is_withdrawn
    # A's opponent still counts A's points in Buchholz.
    assert standings.row_for(B).values.buchholz == 2


def test_withdrawn_entrants_can_be_listed_after_the_others() -> None:
    tables = [two(A, B, 250, 0), two(C, D, 250, 0)]
    standings = compute_standings(
        tables=tables,
        withdrawals=[Withdrawal(A, 2)],
        tiebreaks=[T.MATCH_POINTS, T.POINTS_SCORED],
        withdrawn_last=True,
    )
    # A has the most points but withdrew; B and D share second place.
    assert [(row.rank, row.entrant_id) for row in standings.rows] == [
        (1, C),
        (2, B),
        (2, D),
        (4, A),
    ]
    assert separation(standings, D, A) == ("withdrawal", None, None, None)


def test_registered_entrants_without_results_are_listed_with_nothing() -> None:
    standings = compute_standings(tables=[two(A, B, 250, 0)], entrant_ids=[A, B, F])
    assert standings.row_for(F).match_points == 0 and standings.row_for(F).tables_played == 0


# Live standings: tables in play


def test_tables_in_play_count_for_nothing_but_are_flagged() -> None:
    playing = two(A, C, 120, 90, finished=False)
    standings = compute_standings(tables=[two(A, B, 250, 0), playing])
    a = standings.row_for(A)
    assert a.match_points == 2 and a.tables_played == 1
    assert a.in_progress_table_ids == (playing.table_id,) and a.is_playing
    assert standings.row_for(C).is_playing and standings.row_for(C).tables_played == 0
    assert not standings.row_for(B).is_playing
    assert standings.is_provisional


def test_standings_without_tables_in_play_are_final() -> None:
    assert not compute_standings(tables=[two(A, B, 250, 0)]).is_provisional


# Input checks


@pytest.mark.parametrize(
    ("tiebreaks", "code"),
    [
        (["match_points", "lot", "wins"], "lot_not_last"),
        (["wins", "wins"], "tiebreak_repeated"),
        (["elo"], "tiebreak_unknown"),
    ],
)
def test_a_bad_tiebreak_order_is_refused(tiebreaks: list[str], code: str) -> None:
    with pytest.raises(StandingsError) as error:
        compute_standings(tables=[], tiebreaks=tiebreaks)
    assert error.value.code == code


def test_tiebreak_names_are_accepted_as_plain_strings() -> None:
    standings = compute_standings(tables=[two(A, B, 250, 0)], tiebreaks=["points_scored"])
    assert standings.tiebreaks == (T.POINTS_SCORED,)


@pytest.mark.parametrize(
    ("player_count", "sides", "code"),
    [
        (5, ((A,), (B,)), "player_count"),
        (3, ((A,), (B,)), "side_count"),
        (2, ((A,), (B,), (C,)), "side_count"),
        (2, ((A,), (A,)), "entrant_twice"),
        (2, ((A,), ()), "empty_side"),
    ],
)
def test_a_malformed_table_record_is_refused(
    player_count: int, sides: tuple[tuple[int, ...], ...], code: str
) -> None:
    with pytest.raises(StandingsError) as error:
        TableRecord(1, 1, player_count, 200, tuple(SideResult(ids, 0) for ids in sides))
    assert error.value.code == code


def test_a_finished_table_with_only_some_placings_is_refused() -> None:
    with pytest.raises(StandingsError) as error:
        TableRecord(1, 1, 2, 250, (SideResult((A,), 500, 1), SideResult((B,), 0, None)))
    assert error.value.code == "placing_invalid"


def test_a_table_recorded_twice_is_refused() -> None:
    record = two(A, B, 250, 0)
    with pytest.raises(StandingsError) as error:
        compute_standings(tables=[record, record])
    assert error.value.code == "table_twice"


def test_values_are_formatted_exactly_for_people() -> None:
    assert format_value(Fraction(15, 2)) == "7.5"
    assert format_value(Fraction(-3)) == "-3"
    assert format_value(None) == ""
    assert to_decimal(Fraction(7, 8), 2) == Decimal("0.88")


# Invariants over seeded random seasons


def random_season(rng: random.Random, entrants: int, tables: int) -> list[TableRecord]:
    """Mixed 2-, 3- and 4-player (rotating-partner) tables with plausible results."""
    ids = list(range(1, entrants + 1))
    records = []
    for table_id in range(1, tables + 1):
        players = rng.choice((2, 3, 4))
        seated = rng.sample(ids, players)
        target = 250 if players == 2 else 200
        side_ids = (
            [(seated[0], seated[2]), (seated[1], seated[3])]
            if players == 4
            else [(e,) for e in seated]
        )
        winner = rng.randrange(len(side_ids))
        sides = []
        for index, group in enumerate(side_ids):
            points_x2 = 2 * target + 10 * rng.randrange(4) if index == winner else 0
            if index != winner:
                points_x2 = 5 * rng.randrange(0, 2 * target // 5)
            sides.append(SideResult(group, points_x2, None, rng.randrange(12)))
        records.append(TableRecord(1 + table_id % 9, table_id, players, target, tuple(sides)))
    return records


def test_random_seasons_keep_ranking_invariants() -> None:
    rng = random.Random(20250101)
    order = [T.MATCH_POINTS, T.HEAD_TO_HEAD, T.WINS, T.TARGET_SHARE, T.SONNEBORN_BERGER]
    for _ in range(40):
        tables = random_season(rng, entrants=rng.randrange(4, 30), tables=rng.randrange(1, 60))
        standings = compute_standings(tables=tables, tiebreaks=order, lot_seed="x")
        rows = standings.rows
        assert [row.rank for row in rows] == sorted(row.rank for row in rows)
        assert rows[0].rank == 1
        for upper, lower, sep in zip(rows[:-1], rows[1:], standings.separations, strict=True):
            assert (sep.upper_entrant_id, sep.lower_entrant_id) == (
                upper.entrant_id,
                lower.entrant_id,
            )
            if sep.is_shared_rank:
                assert upper.rank == lower.rank
                for tiebreak in order:
                    assert upper.values.value(tiebreak) == lower.values.value(tiebreak)
            else:
                assert lower.rank == rows.index(lower) + 1
                assert sep.upper_value is not None and sep.lower_value is not None
                assert sep.upper_value > sep.lower_value
        # Two-sided tables hand out 2 points per credited entrant pair; three-player 4.
        expected = sum(2 * len(t.sides[0].entrant_ids) if len(t.sides) == 2 else 4 for t in tables)
        assert sum(row.match_points for row in rows) == expected
        # The order of the records does not matter.
        shuffled = tables[:]
        rng.shuffle(shuffled)
        again = compute_standings(tables=shuffled, tiebreaks=order, lot_seed="x")
        assert again.rows == standings.rows and again.separations == standings.separations
