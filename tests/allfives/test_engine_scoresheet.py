"""Whole scoresheets (docs/scoresheet.md): the Output document, both entry modes, the
end of a match (R17, R21, R22) and where errors are reported."""

from __future__ import annotations

from typing import Any

import pytest

from allfives import AllFivesError, check, format_check, replay
from tests.allfives.engine_helpers import (
    EVEN_A,
    EVEN_B,
    HEAVY,
    LIGHT,
    ZERO_LINE,
    draw,
    error_of,
    passes,
    play,
    scoresheet,
)


def zero_line_moves(players: int) -> list[dict[str, Any]]:
    return [play(index % players, tile, end) for index, (tile, end) in enumerate(ZERO_LINE)]


def zero_line_hand(players: int, rest: list[list[str]], leader: int = 0) -> dict[str, Any]:
    deal: list[list[str]] = [[] for _ in range(players)]
    for index, (tile, _) in enumerate(ZERO_LINE):
        deal[index % players].append(tile)
    for seat, tiles in enumerate(rest):
        deal[seat].extend(tiles)
    return {"leader": leader, "deal": deal, "moves": zero_line_moves(players)}


BIG_HANDS = {"hand_sizes": {"2": 14, "4": 7}}


def test_output_document_of_a_blocked_tile_by_tile_hand() -> None:
    document = scoresheet(2, [zero_line_hand(2, [LIGHT, HEAVY])], BIG_HANDS)
    verdict = check(document)
    assert verdict["ok"] is True
    (hand,) = verdict["hands"]
    assert hand["plays"][:3] == [
        {"move": 0, "seat": 0, "count": 0, "points": 0},
        {"move": 1, "seat": 1, "count": 2, "points": 0},
        {"move": 2, "seat": 0, "count": 5, "points": 5},
    ]
    assert len(hand["plays"]) == 10
    assert hand["end"] == "blocked" and hand["hand_winner"] == [0]
    assert hand["bonus"] == {"0": 80}
    assert hand["points"] == {"0": 5 + 5 + 80, "1": 5}  # plays 2 and 4 by seat 0, 7 by 1
    assert hand["leader"] == 0 and hand["mode"] == "tiles"
    assert verdict["totals"] == {"0": 90, "1": 5}
    assert verdict["winner"] is None and "winners" not in verdict
    assert verdict["finished"] is False
    assert verdict["next_leader"] is None  # R21: after a block, by lot


def test_the_report_object_matches_its_json() -> None:
    document = scoresheet(4, [zero_line_hand(4, [LIGHT[:4], HEAVY[:4], LIGHT[4:], HEAVY[4:]])])
    document["rules"] = BIG_HANDS
    report = replay(document)
    assert report.players == 4 and report.rules.hand_size(4) == 7
    assert report.totals_x2 == {0: 2 * (5 + 5 + 80), 1: 2 * 5}
    (hand,) = report.hands
    assert hand.hand_winner == [0, 2] and hand.bonus_x2 == {0: 160}
    assert [p.seat for p in hand.plays] == [i % 4 for i in range(10)]
    assert report.to_json() == check(document)


def test_closing_passes_of_a_block_may_be_given() -> None:
    hand = zero_line_hand(2, [LIGHT, HEAVY])
    hand["moves"] += passes(0, 1)
    assert check(scoresheet(2, [hand], BIG_HANDS))["ok"]
    hand["moves"] += passes(0)
    error = error_of(scoresheet(2, [hand], BIG_HANDS))
    assert (error.code, error.hand, error.move) == ("hand_over", 0, 12)


@pytest.mark.parametrize(("players", "rest"), [(2, [EVEN_A, EVEN_B])])
def test_r20_a_tie_for_lowest_scores_nothing_in_a_recorded_hand(
    players: int, rest: list[list[str]]
) -> None:
    verdict = check(scoresheet(players, [zero_line_hand(players, rest)], BIG_HANDS))
    assert verdict["hands"][0]["hand_winner"] == [] and verdict["hands"][0]["bonus"] == {}


def three_player_block_without_deal(left: dict[str, Any]) -> dict[str, Any]:
    """The zero line at three players without a deal: seat 2 draws the boneyard."""
    moves = []
    for index, (tile, end) in enumerate(ZERO_LINE):
        if index == 2:
            moves += [draw(2)] * 7
        moves.append(play(index % 3, tile, end))
    moves += passes(1, 2, 0)
    return {"leader": 0, "moves": moves, "left": left}


@pytest.mark.parametrize(("award", "each"), [("opponents", 42.5), ("difference", 32.5)])
def test_r20_three_player_split_into_halves_from_recorded_tiles(award: str, each: float) -> None:
    # Seats 0 and 1 tie at 20; seat 2 holds the other 86: 85 (or 66 -> 65) split.
    left = {"0": ["6-6", "2-2", "1-3"], "1": ["1-1", "1-4", "2-3", "3-5"], "2": 86}
    document = scoresheet(3, [three_player_block_without_deal(left)], {"blocked_award": award})
    verdict = check(document)
    assert verdict["ok"], verdict
    hand = verdict["hands"][0]
    assert hand["end"] == "blocked" and hand["hand_winner"] == [0, 1]
    assert hand["bonus"] == {"0": each, "1": each}
    assert verdict["totals"] == {"0": each, "1": each + 10, "2": 5}  # plays 2, 4 and 7
    report = replay(document)
    assert report.hands[0].bonus_x2 == {0: int(2 * each), 1: int(2 * each)}


def test_without_a_deal_left_must_be_possible() -> None:
    left = {"0": ["6-6", "2-2", "1-3"], "1": ["1-1", "1-4", "2-3", "3-5"], "2": 90}
    error = error_of(scoresheet(3, [three_player_block_without_deal(left)]))
    assert (error.code, error.rule, error.hand, error.move) == ("left_disagrees", "R1", 0, None)
    error = error_of(scoresheet(3, [three_player_block_without_deal({"0": 20, "1": 20})]))
    assert (error.code, error.seat) == ("left_missing", 2)
    left = {"0": ["0-6", "2-2", "1-3"], "1": 20, "2": 86}
    assert error_of(scoresheet(3, [three_player_block_without_deal(left)])).code == (
        "left_disagrees"
    )


def test_r17_r22_the_last_tile_reaching_the_target_ends_the_match_unsettled() -> None:
    rules = {"targets": {"2": 10}, "hand_sizes": {"2": 1}}
    hand = {"leader": 0, "deal": [["5-5"], ["6-6"]], "moves": [play(0, "5-5")]}
    verdict = check(scoresheet(2, [hand], rules))
    assert verdict["ok"]
    assert verdict["hands"][0]["end"] == "target" and verdict["hands"][0]["bonus"] == {}
    assert verdict["totals"] == {"0": 10, "1": 0}
    assert verdict["winner"] == 0 and verdict["finished"] and verdict["next_leader"] is None
    # With a higher target the same domino is settled: 12 pips round to 10.
    rules["targets"] = {"2": 25}
    verdict = check(scoresheet(2, [hand], rules))
    assert verdict["hands"][0]["end"] == "domino"
    assert verdict["totals"] == {"0": 20, "1": 0} and verdict["next_leader"] == 0
    # Reached by the settlement: the match ends there.
    rules["targets"] = {"2": 20}
    verdict = check(scoresheet(2, [hand], rules))
    assert verdict["finished"] and verdict["winner"] == 0
    assert verdict["hands"][0]["end"] == "domino"


def test_r22_nothing_may_follow_the_event_that_reaches_the_target() -> None:
    hands = [{"leader": 0, "moves": [play(0, "5-5"), play(1, "5-0", "W")]}]
    error = error_of(scoresheet(2, hands, {"targets": {"2": 10}}))
    assert (error.code, error.rule, error.hand, error.move) == ("match_over", "R22", 0, 1)
    hands = [
        {"leader": 0, "moves": [play(0, "5-5")]},
        {"leader": 1, "scores": [], "end": {"blocked": True}, "left": {"0": 1, "1": 2}},
    ]
    error = error_of(scoresheet(2, hands, {"targets": {"2": 10}}))
    assert (error.code, error.hand, error.move) == ("match_over", 1, None)


def test_r21_a_hand_after_a_domino_is_led_by_the_seat_that_went_out() -> None:
    first = {"leader": 0, "scores": [[0, 10]], "end": {"domino": 1}, "left": {"0": 4}}
    second = {"leader": 0, "scores": [], "end": {"blocked": True}, "left": {"0": 1, "1": 2}}
    error = error_of(scoresheet(2, [first, second]))
    assert (error.code, error.rule, error.hand) == ("wrong_leader", "R21", 1)
    second["leader"] = 1
    third = {"leader": 0, "scores": [], "end": {"blocked": True}, "left": {"0": 1, "1": 2}}
    verdict = check(scoresheet(2, [first, second, third]))
    assert verdict["ok"] and verdict["next_leader"] is None  # third hand by lot: any seat


def test_r5_the_first_hand_may_be_led_by_any_seat() -> None:
    for leader in range(3):
        hand = {"leader": leader, "scores": [], "end": {"domino": leader}, "left": {}}
        hand["left"] = {str(s): 5 for s in range(3) if s != leader}
        assert check(scoresheet(3, [hand]))["next_leader"] == leader


def test_r5_holding_the_highest_double_gives_no_right_to_lead() -> None:
    deal = [["0-1"], ["6-6"]]
    hand = {"leader": 0, "deal": deal, "moves": [play(0, "0-1")]}
    assert check(scoresheet(2, [hand], {"hand_sizes": {"2": 1}}))["ok"]


def test_a_hand_that_stops_before_its_end_is_incomplete() -> None:
    hand = {"leader": 0, "moves": [play(0, "5-5"), play(1, "5-0", "W")], "left": {"0": 1}}
    error = error_of(scoresheet(2, [hand]))
    assert (error.code, error.rule, error.hand, error.move) == ("hand_incomplete", "R16", 0, None)


def test_the_error_names_hand_and_move() -> None:
    hands = [
        {"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}, "left": {"1": 12}},
        {"leader": 0, "moves": [play(0, "3-6"), play(1, "1-4", "W")]},
    ]
    verdict = check(scoresheet(2, hands))
    assert verdict == {
        "ok": False,
        "error": {
            "hand": 1,
            "move": 1,
            "code": "tile_does_not_match",
            "rule": "R7",
            "message": "seat 1: [1|4] does not match the west end (3)",
        },
    }


# ----------------------------------------------------------------------------- tally


def tally(leader: int, scores: list[list[int]], end: dict[str, Any], left: Any) -> dict[str, Any]:
    hand: dict[str, Any] = {"leader": leader, "scores": scores, "end": end}
    if left is not None:
        hand["left"] = left
    return hand


def test_tally_hand_as_in_scoresheet_md() -> None:
    hand = tally(1, [[1, 10], [2, 15], [1, 5]], {"domino": 2}, {"0": 12, "1": 7, "2": 0})
    verdict = check(scoresheet(3, [hand]))
    assert verdict["ok"], verdict
    (out,) = verdict["hands"]
    assert out["plays"] == [
        {"move": None, "seat": 1, "count": None, "points": 10},
        {"move": None, "seat": 2, "count": None, "points": 15},
        {"move": None, "seat": 1, "count": None, "points": 5},
    ]
    assert out["end"] == "domino" and out["hand_winner"] == [2]
    assert out["bonus"] == {"2": 20}  # 12 + 7 = 19 -> 20
    assert out["points"] == {"0": 0, "1": 15, "2": 35}
    assert out["mode"] == "tally"
    assert verdict["next_leader"] == 2


@pytest.mark.parametrize(
    ("players", "end", "left", "award", "winner", "bonus"),
    [
        (2, {"domino": 0}, {"1": 23}, "opponents", [0], {"0": 25}),
        (3, {"domino": 1}, {"0": 13, "2": 13}, "opponents", [1], {"1": 25}),
        (4, {"domino": 3}, {"0": 8, "2": 30}, "opponents", [1, 3], {"1": 40}),
        (2, {"blocked": True}, {"0": 10, "1": 23}, "opponents", [0], {"0": 25}),
        (2, {"blocked": True}, {"0": 10, "1": 23}, "difference", [0], {"0": 15}),
        (3, {"blocked": True}, {"0": 4, "1": 9, "2": 20}, "opponents", [0], {"0": 30}),
        (3, {"blocked": True}, {"0": 4, "1": 9, "2": 20}, "difference", [0], {"0": 20}),
        (4, {"blocked": True}, {"0": 3, "1": 10, "2": 4, "3": 6}, "opponents", [0, 2], {"0": 15}),
        (4, {"blocked": True}, {"0": 3, "1": 10, "2": 4, "3": 6}, "difference", [0, 2], {"0": 10}),
        (2, {"blocked": True}, {"0": 11, "1": 11}, "opponents", [], {}),
        (4, {"blocked": True}, {"0": 5, "1": 4, "2": 6, "3": 7}, "difference", [], {}),
        (
            3,
            {"blocked": True},
            {"0": 4, "1": 4, "2": 19},
            "difference",
            [0, 1],
            {"0": 7.5, "1": 7.5},
        ),
        (3, {"blocked": True}, {"0": 4, "1": 4, "2": 11}, "opponents", [0, 1], {"0": 5, "1": 5}),
        (3, {"blocked": True}, {"0": 7, "1": 7, "2": 7}, "opponents", [], {}),
    ],
)
def test_r19_r20_every_settlement_in_tally_entry(
    players: int,
    end: dict[str, Any],
    left: dict[str, int],
    award: str,
    winner: list[int],
    bonus: dict[str, float],
) -> None:
    document = scoresheet(players, [tally(0, [], end, left)], {"blocked_award": award})
    if "domino" in end:
        document["hands"][0]["leader"] = 0
    verdict = check(document)
    assert verdict["ok"], verdict
    assert verdict["hands"][0]["hand_winner"] == winner
    assert verdict["hands"][0]["bonus"] == bonus
    assert verdict["totals"] == {
        str(side): bonus.get(str(side), 0) for side in range(2 if players == 4 else players)
    }


def test_r22_a_split_carrying_both_over_the_target_ties_the_match() -> None:
    first = tally(0, [[0, 20], [1, 20], [0, 25], [1, 25]], {"domino": 2}, {"0": 0, "1": 1})
    second = tally(2, [], {"blocked": True}, {"0": 5, "1": 5, "2": 20})
    verdict = check(scoresheet(3, [first, second], {"targets": {"3": 50}}))
    assert verdict["ok"], verdict
    assert verdict["totals"] == {"0": 55, "1": 55, "2": 0}  # 20 split: 10 each
    assert verdict["finished"] and verdict["winner"] == ["0", "1"] and "winners" not in verdict
    report = replay(scoresheet(3, [first, second], {"targets": {"3": 50}}))
    assert report.winners == [0, 1] and report.winner == ["0", "1"]


def test_r22_a_split_carrying_both_over_the_target_goes_to_the_higher_total() -> None:
    first = tally(0, [[0, 20], [1, 20], [0, 25], [1, 20]], {"domino": 2}, {"0": 0, "1": 1})
    second = tally(2, [], {"blocked": True}, {"0": 5, "1": 5, "2": 25})
    verdict = check(scoresheet(3, [first, second], {"targets": {"3": 50}}))
    assert verdict["totals"] == {"0": 57.5, "1": 52.5, "2": 0}  # 25 split: 12.5 each
    assert verdict["winner"] == 0 and "winners" not in verdict


def test_tally_target_reached_by_a_play() -> None:
    hand = tally(0, [[0, 15], [1, 10]], {"target": True}, None)
    verdict = check(scoresheet(2, [hand], {"targets": {"2": 10}}))
    assert verdict["ok"] is False and verdict["error"]["code"] == "match_over"
    assert verdict["error"]["move"] == 1
    hand = tally(0, [[1, 5], [0, 15]], {"target": True}, None)
    verdict = check(scoresheet(2, [hand], {"targets": {"2": 15}}))
    assert verdict["ok"] and verdict["winner"] == 0 and verdict["hands"][0]["end"] == "target"
    # A domino recorded instead is fine when its last tile was the winning play...
    hand = tally(0, [[1, 5], [0, 15]], {"domino": 0}, {"1": 20})
    assert check(scoresheet(2, [hand], {"targets": {"2": 15}}))["hands"][0]["end"] == "target"
    # ...but not when another seat went out after the match was won.
    hand = tally(0, [[1, 5], [0, 15]], {"domino": 1}, {"0": 20})
    assert error_of(scoresheet(2, [hand], {"targets": {"2": 15}})).code == "match_over"
    hand = tally(0, [[1, 5]], {"target": True}, None)
    error = error_of(scoresheet(2, [hand], {"targets": {"2": 15}}))
    assert (error.code, error.rule) == ("target_not_reached", "R22")


@pytest.mark.parametrize("points", [3, 40, -5, 7.5, "10", None, True])
def test_r12_a_tally_play_scores_0_or_5_to_35(points: object) -> None:
    hand = tally(0, [[0, 10], [1, points]], {"domino": 0}, {"1": 3})  # type: ignore[list-item]
    error = error_of(scoresheet(2, [hand]))
    assert (error.code, error.rule, error.move) == ("bad_points", "R12", 1)


@pytest.mark.parametrize(
    ("players", "end", "left"),
    [
        (2, {"domino": 0}, {"0": 5, "1": 10}),  # the winner holds no tile
        (2, {"domino": 0}, {"0": ["1-1"], "1": 10}),
        (3, {"domino": 0}, {"1": 0, "2": 0}),  # only [0|0] weighs nothing
        (2, {"domino": 0}, {"1": -2}),
        (2, {"domino": 0}, {"1": 160}),  # more than 19 tiles can carry
        (2, {"domino": 0}, {"1": [f"{a}-{b}" for a in range(7) for b in range(a, 7)][:20]}),
        (3, {"blocked": True}, {"0": 50, "1": 50, "2": 50}),  # over 147
        (2, {"blocked": True}, {"0": [], "1": 4}),  # each still holds a tile
        (2, {"blocked": True}, {"0": ["1-1", "1-1"], "1": 4}),
        (2, {"blocked": True}, {"0": ["1-1"], "1": ["1-1"]}),
        (2, {"blocked": True}, {"0": ["0-1", "2-3", "4-5"], "1": ["6-6", "1-2"]}),
    ],
)
def test_tally_refuses_impossible_remaining_figures(
    players: int, end: dict[str, Any], left: dict[str, Any]
) -> None:
    error = error_of(scoresheet(players, [tally(0, [], end, left)]))
    assert (error.code, error.rule) == ("left_disagrees", "R1")


def test_tally_needs_the_pips_that_settle_the_hand() -> None:
    error = error_of(scoresheet(4, [tally(0, [], {"domino": 0}, {"1": 3})]))
    assert (error.code, error.seat) == ("left_missing", 3)
    # The partner's pips are not needed (R19), nor is `left` after the target.
    assert check(scoresheet(4, [tally(0, [], {"domino": 0}, {"1": 3, "3": 4})]))["ok"]


@pytest.mark.parametrize(
    "document",
    [
        None,
        [],
        "allfives",
        {"players": 2},
        {"players": 2, "hands": {}},
        {"format": "allfives/2", "players": 2, "hands": []},
        {"players": 2, "hands": [[]]},
        {"players": 2, "hands": [{"scores": []}]},
        {"players": 2, "hands": [{"leader": "0", "scores": []}]},
        {"players": 2, "hands": [{"leader": 0}]},
        {"players": 2, "hands": [{"leader": 0, "scores": [], "moves": []}]},
        {"players": 2, "hands": [{"leader": 0, "moves": {}}]},
        {"players": 2, "hands": [{"leader": 0, "moves": [5]}]},
        {"players": 2, "hands": [{"leader": 0, "moves": [{"seat": 2, "pass": True}]}]},
        {"players": 2, "hands": [{"leader": 0, "moves": [{"seat": 0}]}]},
        {"players": 2, "hands": [{"leader": 0, "moves": [{"seat": 0, "play": 36}]}]},
        {"players": 2, "hands": [{"leader": 0, "moves": [{"seat": 0, "draw": 1}]}]},
        {"players": 2, "hands": [{"leader": 0, "moves": [{"seat": 0, "pass": 1}]}]},
        {"players": 2, "hands": [{"leader": 0, "moves": [{"seat": 0, "play": "1-2", "end": 3}]}]},
        {"players": 2, "hands": [{"leader": 0, "scores": "10"}]},
        {"players": 2, "hands": [{"leader": 0, "scores": [[0]], "end": {"blocked": True}}]},
        {"players": 2, "hands": [{"leader": 0, "scores": [], "end": "domino"}]},
        {"players": 2, "hands": [{"leader": 0, "scores": [], "end": {"domino": 5}}]},
        {"players": 2, "hands": [{"leader": 0, "scores": [], "end": {"blocked": 1}}]},
        {"players": 2, "hands": [{"leader": 0, "scores": [], "end": {"blocked": True}, "left": 3}]},
        {
            "players": 2,
            "hands": [{"leader": 0, "scores": [], "end": {"blocked": True}, "left": {"x": 1}}],
        },
        {
            "players": 2,
            "hands": [{"leader": 0, "scores": [], "end": {"blocked": True}, "left": {"0": "1"}}],
        },
        {"players": 2, "rules": {"targets": {"2": "x"}}, "hands": []},
    ],
)
def test_what_is_not_a_scoresheet_is_bad_format(document: object) -> None:
    verdict = check(document)
    assert verdict["ok"] is False and verdict["error"]["code"] == "bad_format", verdict
    with pytest.raises(AllFivesError):
        replay(document)


def test_an_empty_match() -> None:
    assert check(scoresheet(4, [])) == {
        "ok": True,
        "hands": [],
        "totals": {"0": 0, "1": 0},
        "winner": None,
        "finished": False,
        "next_leader": None,
    }


@pytest.mark.parametrize("given", ["allfives/99", "allfives/1 ", "ALLFIVES/1", 123, None, 1.0])
def test_any_format_but_allfives_1_is_bad_format(given: object) -> None:
    # Given an otherwise good scoresheet naming another format
    document = {"format": given, "players": 2, "hands": []}
    # Then the engine refuses it, whether the format is required or not
    assert check(document)["error"]["code"] == "bad_format"
    for required in (False, True):
        with pytest.raises(AllFivesError) as refused:
            format_check(document, required=required)
        assert refused.value.code == "bad_format"


def test_a_left_out_format_means_allfives_1_unless_required() -> None:
    # Given a scoresheet without "format"
    document = {"players": 2, "hands": []}
    # Then replaying reads it as allfives/1, but a required format refuses it
    assert check(document)["ok"] is True
    format_check(document)
    with pytest.raises(AllFivesError) as refused:
        format_check(document, required=True)
    assert refused.value.code == "bad_format"
    format_check({**document, "format": "allfives/1"}, required=True)


def test_r22_a_finished_match_always_names_its_winner_and_a_tie_names_both_sides() -> None:
    # Given a three-player match whose split carries seats 0 and 1 to 55 each (target 50)
    first = tally(0, [[0, 20], [1, 20], [0, 25], [1, 25]], {"domino": 2}, {"0": 0, "1": 1})
    tied = tally(2, [], {"blocked": True}, {"0": 5, "1": 5, "2": 20})
    # And the same match where seat 0 ends higher
    won = tally(2, [], {"blocked": True}, {"0": 5, "1": 5, "2": 25})
    won_first = tally(0, [[0, 20], [1, 20], [0, 25], [1, 20]], {"domino": 2}, {"0": 0, "1": 1})
    rules = {"targets": {"3": 50}}
    # When both are checked
    tie = check(scoresheet(3, [first, tied], rules))
    single = check(scoresheet(3, [won_first, won], rules))
    # Then the tie lists both tied sides by their names, and a single winner is its side
    assert tie["finished"] and tie["winner"] == ["0", "1"]
    assert single["finished"] and single["winner"] == 0
    # And no second field repeats it
    assert "winners" not in tie and "winners" not in single


@pytest.mark.parametrize(
    ("targets", "ok"),
    [({"2": 250}, True), ({"2": 250.0}, False), ({"2": True}, False), ({2: 250}, True)],
)
def test_a_rule_set_read_once_is_not_taken_for_one_that_only_looks_equal(
    targets: dict[Any, Any], ok: bool
) -> None:
    # Given a scoresheet whose rules were read before (check remembers a rule set)
    hand = {"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}, "left": {"1": 13}}
    assert check({"players": 2, "rules": {"targets": {"2": 250}}, "hands": [hand]})["ok"]
    # When rules equal to them in Python but not as JSON (250.0, true) are checked
    verdict = check({"players": 2, "rules": {"targets": targets}, "hands": [hand]})
    # Then each is judged on its own: only a whole number is a target
    assert verdict["ok"] is ok
    if not ok:
        assert verdict["error"]["code"] == "bad_format"


@pytest.mark.parametrize(
    "deal",
    [
        [["0-0", "0-1"], ["0-1", "0-2"]],  # a tile in two hands
        [["0-0", "0-0"], ["0-1", "0-2"]],  # a tile twice in one hand
        [["0-0", "0-1", "0-2"], ["0-3"]],  # the right number of tiles, unevenly
    ],
)
def test_a_deal_read_in_one_pass_still_names_what_is_wrong(deal: list[list[str]]) -> None:
    # Given a hand of two tiles each whose deal breaks R1 or R3
    moves = [{"seat": 0, "play": "0-0"}]
    document = {
        "players": 2,
        "rules": {"hand_sizes": {"2": 2}},
        "hands": [{"leader": 0, "deal": deal, "moves": moves}],
    }
    # When it is checked
    verdict = check(document)
    # Then the deal is refused, as the checked reading refuses it
    assert verdict["ok"] is False
    assert verdict["error"]["code"] == "bad_deal"
