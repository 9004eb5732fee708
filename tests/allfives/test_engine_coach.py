"""The coach on hand-made tile-by-tile hands: which plays left points on the table and
how many, with a deal (every tile known) and without one (only tiles known to be held)."""

from __future__ import annotations

from typing import Any

import pytest

from allfives.coach import Advice, PlayOption, coach_hand
from allfives.errors import AllFivesError
from allfives.tiles import Tile
from tests.allfives.engine_helpers import DEAL_A, draw, play


def hand(moves: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {"leader": 0, "moves": moves, **more}


def option(tile: str, end: str | None, points: int) -> PlayOption:
    return PlayOption(Tile.parse(tile), end, points)


# [1|2] leads (count 3: nothing); [2|0] on the 2 leaves 1 and 0 (1: nothing); [0|5] on
# the 0 leaves 1 and 5 (6: nothing). Led instead, [0|5] alone counts 5.
MISSED_LEAD = [play(0, "1-2"), play(1, "2-0"), play(0, "0-5", "E")]


def test_without_a_deal_a_tile_laid_later_shows_a_better_lead() -> None:
    # given seat 1 (index 0) laid [0|5] later without drawing in between
    advice = coach_hand(hand(MISSED_LEAD), players=2)
    # then it held [0|5] at the lead, which would have scored 5
    assert [a.move for a in advice] == [0, 1, 2]
    lead = advice[0]
    assert lead.played == option("1-2", None, 0)
    assert lead.best == option("0-5", None, 5)
    assert lead.missed == 5
    # and the other two plays were the best known
    assert [a.missed for a in advice[1:]] == [0, 0]


def test_the_end_a_play_takes_is_named_when_the_record_leaves_it_out() -> None:
    # given [2|0] written with no end: it fits only the 2 on the east (R7)
    advice = coach_hand(hand(MISSED_LEAD), players=2)
    assert advice[1].played == option("2-0", "E", 0)
    assert advice[1].seat == 1


def test_a_tile_drawn_face_up_was_not_held_before_the_draw() -> None:
    # given seat 1 drew [0|5] face up before laying it (it fits the 0, so at once, R14)
    moves = [play(0, "1-2"), play(1, "2-0"), draw(0, "0-5"), play(0, "0-5", "E")]
    advice = coach_hand(hand(moves), players=2)
    # then the coach does not hold the lead against it
    assert advice[0].best == advice[0].played
    assert [a.missed for a in advice] == [0, 0, 0]


def test_a_draw_whose_face_was_not_seen_ends_what_is_known() -> None:
    # given seat 1 drew a tile unseen before laying [0|5]: it may be the drawn one
    moves = [play(0, "1-2"), play(1, "2-0"), draw(0), play(0, "0-5", "E")]
    advice = coach_hand(hand(moves), players=2)
    # then the lead is not marked
    assert advice[0].missed == 0


def test_the_tiles_left_at_the_end_were_held_all_along() -> None:
    # given the scoresheet lists [5|5] as left in seat 1's hand, with no draw in the hand
    advice = coach_hand(hand(MISSED_LEAD, left={"0": ["5-5"], "1": 8}), players=2)
    # then [5|5] was open at the lead (alone it counts 10) and beats [0|5]
    assert advice[0].best == option("5-5", None, 10)
    assert advice[0].missed == 10
    # and at seat 1's second play [5|5] fits no end (1 and 0), so nothing was missed
    assert advice[2].missed == 0


def test_a_tile_left_at_the_end_but_drawn_during_the_hand_was_not_held_before() -> None:
    # given seat 1 drew [5|5] (it fits neither 1 nor 0), then [0|5], laid at once
    moves = [play(0, "1-2"), play(1, "2-0"), draw(0, "5-5"), draw(0, "0-5"), play(0, "0-5")]
    advice = coach_hand(hand(moves, left={"0": ["5-5"]}), players=2)
    # then neither is held against the lead
    assert advice[0].best == option("1-2", None, 0)
    assert advice[-1].played == option("0-5", "E", 0)


# [5|1] leads (W 5, E 1: 6); [1|3] on the 1 leaves 5 and 3 (8). The drawn [3|5] fits
# both: on the west it leaves 3 and 3 (6: nothing); on the east 5 and 5 (10).
DRAWN_BOTH_ENDS = [play(0, "5-1"), play(1, "1-3"), draw(0, "3-5")]


def test_a_drawn_tile_laid_on_the_worse_end_misses_the_better_end() -> None:
    # given the drawn tile must be laid at once (R14) and went west
    advice = coach_hand(hand([*DRAWN_BOTH_ENDS, play(0, "3-5", "W")]), players=2)
    # then the coach offers only the drawn tile, on the east, for 10
    last = advice[-1]
    assert last.played == option("3-5", "W", 0)
    assert last.best == option("3-5", "E", 10)
    assert last.missed == 10


def test_a_drawn_tile_laid_on_the_better_end_misses_nothing() -> None:
    advice = coach_hand(hand([*DRAWN_BOTH_ENDS, play(0, "3-5", "E")]), players=2)
    assert advice[-1].played == option("3-5", "E", 10)
    assert advice[-1].missed == 0


def test_with_a_deal_every_tile_in_hand_is_weighed() -> None:
    # given deal A: seat 1 (index 0) holds [3|6], [6|6], [0|6] ...; seat 2 holds no 3 or 6
    moves = [play(0, "0-3"), play(1, "0-5", "W")]
    advice = coach_hand(hand(moves, deal=DEAL_A), players=2)
    # then the lead [0|3] (3: nothing) is marked against the one lead that scores:
    # [2|3] alone counts 5 ([6|6] counts 12, [3|6] 9: nothing)
    assert advice[0].played == option("0-3", None, 0)
    assert advice[0].best == option("2-3", None, 5)
    assert advice[0].missed == 5
    # and seat 2's [0|5] on the 0 (5 and 3: 8, nothing) is measured against its whole
    # hand: [0|1] on the 0 (1 and 3: 4) and [0|2] (2 and 3: 5) — [0|2] scores 5
    assert advice[1].played == option("0-5", "W", 0)
    assert advice[1].best == option("0-2", "W", 5)
    assert advice[1].missed == 5


def test_only_plays_are_advised_on() -> None:
    moves = [play(0, "5-1"), play(1, "1-3"), draw(0, "3-5"), play(0, "3-5", "E")]
    advice = coach_hand(hand(moves), players=2)
    assert all(isinstance(a, Advice) for a in advice)
    assert [a.move for a in advice] == [0, 1, 3]


@pytest.mark.parametrize(
    ("document", "players", "code"),
    [
        ({"leader": "0", "moves": []}, 2, "bad_format"),
        ({"leader": 0, "moves": {"seat": 0}}, 2, "bad_format"),
        ({"leader": 0, "moves": []}, 5, "bad_players"),
    ],
)
def test_a_malformed_hand_is_refused_with_a_code(
    document: dict[str, Any], players: int, code: str
) -> None:
    with pytest.raises(AllFivesError) as caught:
        coach_hand(document, players=players)
    assert caught.value.code == code
