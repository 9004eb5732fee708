"""The tie-break (``tie_break: "extra_hand"``): a tied match goes on one whole hand at a
time, while tied, until one side alone has the highest total."""

from __future__ import annotations

import random
from typing import Any

import pytest

from allfives import AllFivesError, MatchState, Rules, check, replay
from allfives.settlement import Settlement
from allfives.simulate import simulate_match


def _tally(leader: int, scores: list[list[int]], domino: int, left: dict[str, int]) -> Any:
    return {"leader": leader, "scores": scores, "end": {"domino": domino}, "left": left}


#: Seat 0 goes out with 10 (+10 for seat 1's 8 pips): 20 to seat 0.
HAND_A = _tally(0, [[0, 10]], 0, {"1": 8})
#: Seat 1 scores 20, seat 0 goes out against 1 pip: 20 to seat 1, so 20 each after A.
EVEN = _tally(0, [[1, 20]], 0, {"1": 1})
#: Seat 0 goes out with nothing against 1 pip: no points to anyone.
NOTHING = _tally(0, [[0, 0]], 0, {"1": 1})
#: Seat 0 goes out against seat 1's 4 pips: 5 to seat 0.
FIVE = _tally(0, [[0, 0]], 0, {"1": 4})


def _sheet(hands: list[Any], after: int, *, tie_break: bool = True) -> dict[str, Any]:
    rules: dict[str, Any] = {"targets": {"2": 250}, "time_limit": 30}
    if tie_break:
        rules["tie_break"] = "extra_hand"
    return {
        "format": "allfives/1",
        "players": 2,
        "rules": rules,
        "time_called_after": after,
        "hands": hands,
    }


def test_a_tie_when_time_is_called_is_not_the_end_under_a_tie_break() -> None:
    report = replay(_sheet([HAND_A, EVEN], 2))
    assert report.totals_x2 == {0: 40, 1: 40}
    assert report.time_called and not report.finished and report.winners == []
    assert report.deciding == [0, 1]
    # Seat 0 went out, so it leads the extra hand as after any hand (R21).
    assert report.next_leader == 0
    verdict = check(_sheet([HAND_A, EVEN], 2))
    # The verdict says time was called though the match goes on (docs/scoresheet.md).
    assert verdict["finished"] is False and verdict["time_called"] is True


def test_the_extra_hand_decides_the_tied_match() -> None:
    report = replay(_sheet([HAND_A, EVEN, FIVE], 2))
    assert report.finished and report.time_called
    assert report.winners == [0] and report.totals_x2 == {0: 50, 1: 40}
    assert report.deciding == []


def test_a_hand_that_leaves_the_tie_is_followed_by_another() -> None:
    still = replay(_sheet([HAND_A, EVEN, NOTHING], 2))
    assert not still.finished and still.totals_x2 == {0: 40, 1: 40}
    decided = replay(_sheet([HAND_A, EVEN, NOTHING, FIVE], 2))
    assert decided.finished and decided.winners == [0]


def test_nothing_is_taken_after_the_deciding_hand() -> None:
    verdict = check(_sheet([HAND_A, EVEN, FIVE, NOTHING], 2))
    error = verdict["error"]
    assert isinstance(error, dict)
    assert (error["code"], error["hand"]) == ("time_called", 3)


def test_without_a_tie_break_the_tie_stands() -> None:
    report = replay(_sheet([HAND_A, EVEN], 2, tie_break=False))
    assert report.finished and report.winners == [0, 1]


def test_a_split_to_the_target_on_equal_totals_is_played_off() -> None:
    match = MatchState(3, Rules(targets={3: 50}, tie_break="extra_hand"))
    match.score_play(0, 40)
    match.score_play(1, 40)
    # R20's split carries both tied players to the target on equal totals.
    assert not match.settle(Settlement("blocked", (0, 1), {0: 20, 1: 20}))
    match.end_hand(None)
    assert match.deciding == [0, 1] and not match.is_over
    # In the extra hand no play ends the match, though both are past the target.
    assert not match.score_play(1, 10)
    assert not match.score_play(0, 5)
    assert not match.is_over
    # 60 to 55 in points; seat 0's 5 more (10 half-points) level it again at 60.
    match.settle(Settlement("domino", (0,), {0: 10}))
    match.end_hand(0)
    assert match.deciding == [0, 1] and not match.is_over
    match.score_play(1, 5)
    match.settle(Settlement("domino", (1,), {}))
    match.end_hand(1)
    assert match.winners == [1] and match.is_over and match.deciding == []


def test_the_same_split_ties_without_a_tie_break() -> None:
    match = MatchState(3, Rules(targets={3: 50}))
    match.score_play(0, 40)
    match.score_play(1, 40)
    assert match.settle(Settlement("blocked", (0, 1), {0: 20, 1: 20}))
    assert match.winners == [0, 1]


def test_at_three_players_the_third_may_take_the_extra_hand() -> None:
    match = MatchState(3, Rules(time_limit=20, tie_break="extra_hand"))
    match.score_play(0, 10)
    match.score_play(2, 10)
    match.score_play(1, 5)
    match.end_hand(None)
    match.call_time()
    assert match.deciding == [0, 2] and match.time_called and not match.is_over
    match.score_play(1, 10)
    match.settle(Settlement("domino", (1,), {1: 0}))
    match.end_hand(1)
    assert match.winners == [1]


def test_a_tally_hand_in_the_play_off_goes_past_the_target_and_never_ends_at_it() -> None:
    sheet = _sheet([HAND_A, EVEN], 2)
    sheet["rules"]["targets"] = {"2": 30}
    # Both pass the target of 30 in the extra hand, and it ends level again: 35 each.
    sheet["hands"].append(_tally(0, [[0, 15], [1, 15]], 0, {"1": 1}))
    level = replay(sheet)
    assert not level.finished and level.totals_x2 == {0: 70, 1: 70}
    sheet["hands"].append({"leader": 0, "scores": [[0, 10]], "end": {"target": True}})
    error = check(sheet)["error"]
    assert isinstance(error, dict)
    assert (error["code"], error["hand"]) == ("target_not_reached", 3)
    sheet["hands"][-1] = FIVE
    assert replay(sheet).winners == [0]


def test_the_rule_set_reads_and_writes_the_tie_break() -> None:
    rules = Rules.from_json({"tie_break": "extra_hand"})
    assert rules.tie_break == "extra_hand"
    assert Rules.from_json(rules.to_json()) == rules
    assert "tie_break" not in Rules().to_json()
    assert rules != Rules()
    with pytest.raises(AllFivesError) as caught:
        Rules.from_json({"tie_break": "coin"})
    assert "tie_break" in str(caught.value)


@pytest.mark.parametrize("seed", range(12))
def test_a_dealt_tile_by_tile_hand_decides_a_play_off_past_the_target(seed: int) -> None:
    # A simulated hand with its deal, first alone (to 250) for its points, then as the
    # extra hand of a match to 25 tied at 20 each when time was called: every play past
    # 25 is taken, and the hand's own points decide it.
    sheet = simulate_match(
        players=2, rules=Rules(), rng=random.Random(seed), strategies=["greedy", "random"]
    )
    dealt = sheet["hands"][0]  # type: ignore[index]
    alone = replay({"format": "allfives/1", "players": 2, "hands": [dealt]})
    p0, p1 = alone.totals_x2[0], alone.totals_x2[1]
    leader = dealt["leader"]
    other = 1 - leader
    # Hand 1: seat 0 out with 10 against 8 pips (20); hand 2: seat 1 scores 20 and the
    # dealt hand's leader goes out against 1 pip, so it leads the extra hand.
    level = _tally(0, [[1, 20]], leader, {str(other): 1})
    report = replay(
        {
            "format": "allfives/1",
            "players": 2,
            "rules": {"targets": {"2": 25}, "time_limit": 30, "tie_break": "extra_hand"},
            "time_called_after": 2,
            "hands": [HAND_A, level, dealt],
        }
    )
    assert report.totals_x2 == {0: 40 + p0, 1: 40 + p1}
    if p0 == p1:
        assert not report.finished and report.winners == []
    else:
        assert report.finished and report.winners == [0 if p0 > p1 else 1]


@pytest.mark.parametrize("seed", [2361, *range(20)])
def test_simulated_matches_under_a_tie_break_are_whole_scoresheets(seed: int) -> None:
    # Three players to 20, where splits to the target on equal totals come up: the
    # simulator follows the play-off past the target, and the engine accepts each sheet.
    rules = Rules(targets={3: 20}, tie_break="extra_hand")
    sheet = simulate_match(players=3, rules=rules, rng=random.Random(seed), strategies=["random"])
    verdict = check(sheet)
    assert verdict.get("error") is None and verdict["finished"] is True
