"""The match: cumulative points in half-points, the target, the next leader (R21-R23)."""

from __future__ import annotations

import pytest

from allfives import AllFivesError, MatchState, Rules, tally_marks
from allfives.match import points_json
from allfives.settlement import Settlement


def test_r22_the_first_side_to_reach_its_target_wins_at_that_event() -> None:
    match = MatchState(2, Rules(targets={2: 30}))
    assert not match.score_play(0, 25)
    assert not match.score_play(1, 25)
    assert match.score_play(1, 5)  # 30: reached, even mid-hand
    assert match.winners == [1] and match.is_over and match.next_leader is None
    with pytest.raises(AllFivesError) as caught:
        match.score_play(0, 10)
    assert (caught.value.code, caught.value.rule) == ("match_over", "R22")
    with pytest.raises(AllFivesError):
        match.start_hand(0)
    with pytest.raises(AllFivesError):
        match.settle(Settlement("domino", (0,), {0: 10}))


def test_r22_partners_share_one_score() -> None:
    match = MatchState(4, Rules(targets={4: 20}))
    match.score_play(0, 10)
    assert match.score_play(2, 10)
    assert match.winners == [0] and match.totals_x2 == {0: 40, 1: 0}


def test_r22_a_split_carrying_both_over_the_target_goes_to_the_higher_total() -> None:
    match = MatchState(3, Rules(targets={3: 50}))
    match.score_play(0, 45)
    match.score_play(1, 40)
    assert match.settle(Settlement("blocked", (0, 1), {0: 20, 1: 20}))
    assert match.winners == [0] and match.totals_x2 == {0: 110, 1: 100, 2: 0}


def test_r22_a_split_carrying_both_to_equal_totals_is_a_tie() -> None:
    match = MatchState(3, Rules(targets={3: 50}))
    match.score_play(0, 45)
    match.score_play(1, 45)
    assert match.settle(Settlement("blocked", (0, 1), {0: 10, 1: 10}))
    assert match.winners == [0, 1]


def test_r22_a_split_carrying_one_over_the_target() -> None:
    match = MatchState(3, Rules(targets={3: 50}))
    match.score_play(0, 45)
    assert match.settle(Settlement("blocked", (0, 1), {0: 15, 1: 15}))
    assert match.winners == [0] and match.totals_x2[0] == 105


def test_r21_the_seat_that_went_out_leads_next_and_after_a_block_by_lot() -> None:
    match = MatchState(3)
    match.start_hand(1)  # R5: the first hand goes by lot, any seat
    match.settle(Settlement("domino", (2,), {2: 20}))
    match.end_hand(2)
    assert match.next_leader == 2
    with pytest.raises(AllFivesError) as caught:
        match.start_hand(0)
    assert (caught.value.code, caught.value.rule) == ("wrong_leader", "R21")
    assert caught.value.message == "seat 0 leads, but seat 2 went out and must lead"
    match.start_hand(2)
    match.settle(Settlement("blocked", (), {}))
    match.end_hand(None)
    assert match.next_leader is None
    match.start_hand(0)
    assert match.hands_played == 2


def test_r5_the_first_leader_may_be_any_seat_but_must_be_a_seat() -> None:
    for seat in range(4):
        MatchState(4).start_hand(seat)
    for seat in (4, -1, "0", True):
        with pytest.raises(AllFivesError) as caught:
            MatchState(4).start_hand(seat)  # type: ignore[arg-type]
        assert caught.value.code == "bad_format"


def test_half_points_are_exact_and_written_as_numbers() -> None:
    assert points_json(15) == 7.5 and points_json(16) == 8
    assert isinstance(points_json(16), int)


@pytest.mark.parametrize(
    ("points_x2", "crosses", "strokes", "rest_x2", "text"),
    [
        (0, 0, 0, 0, "0"),
        (10, 0, 1, 0, "|"),
        (90, 0, 9, 0, "|||||||||"),
        (100, 1, 0, 0, "X"),
        (2 * 135, 2, 7, 0, "XX |||||||"),
        (15, 0, 1, 5, "| +2.5"),
        (5, 0, 0, 5, "+2.5"),
    ],
)
def test_r23_tally_marks_strokes_of_five_and_crosses_of_fifty(
    points_x2: int, crosses: int, strokes: int, rest_x2: int, text: str
) -> None:
    marks = tally_marks(points_x2)
    assert (marks.crosses, marks.strokes, marks.rest_x2) == (crosses, strokes, rest_x2)
    assert str(marks) == text
    assert 100 * crosses + 10 * strokes + rest_x2 == points_x2
    with pytest.raises(ValueError):
        tally_marks(-10)
