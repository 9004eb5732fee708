"""The round clock (R24): time called after hand N ends the match on the totals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from allfives import AllFivesError, MatchState, Rules, check, replay


def _tally(leader: int, scores: list[list[int]], domino: int, left: dict[str, int]) -> Any:
    return {"leader": leader, "scores": scores, "end": {"domino": domino}, "left": left}


#: Two-player tally hands: seat 0 goes out with 10 (+10 for seat 1's 8 pips); seat 0
#: goes out again with nothing (+5); seat 0 goes out after seat 1's 15 (+5).
HAND_A = _tally(0, [[0, 10]], 0, {"1": 8})
HAND_B = _tally(0, [[0, 0]], 0, {"1": 4})
HAND_C = _tally(0, [[1, 15]], 0, {"1": 3})


def _sheet(hands: list[Any], after: int | None, *, limit: int | None = 30) -> dict[str, Any]:
    rules: dict[str, Any] = {"targets": {"2": 250}}
    if limit is not None:
        rules["time_limit"] = limit
    document: dict[str, Any] = {"format": "allfives/1", "players": 2, "rules": rules}
    document["hands"] = hands
    if after is not None:
        document["time_called_after"] = after
    return document


def test_r24_time_called_after_hand_n_ends_the_match_on_the_higher_total() -> None:
    report = replay(_sheet([HAND_A, HAND_B], 2))
    assert report.finished and report.time_called
    assert report.totals_x2 == {0: 50, 1: 0}
    assert report.winners == [0] and report.winner == 0
    verdict = report.to_json()
    assert verdict["finished"] is True and verdict["time_called"] is True


def test_r24_equal_totals_when_time_is_called_are_a_tie() -> None:
    # Seat 0 has 20 after hand A; seat 1 scores 20 and seat 0 goes out against 1 pip (0).
    even = _tally(0, [[1, 20]], 0, {"1": 1})
    report = replay(_sheet([HAND_A, even], 2))
    assert report.totals_x2[0] == report.totals_x2[1] == 40
    assert report.winners == [0, 1] and report.winner == ["0", "1"]


def test_r24_a_hand_after_hand_n_is_refused() -> None:
    verdict = check(_sheet([HAND_A, HAND_B, HAND_C], 2))
    error = verdict["error"]
    assert isinstance(error, dict)
    assert (error["code"], error["rule"], error["hand"]) == ("time_called", "R24", 2)
    assert "after hand 2" in str(error["message"])


def test_r24_before_hand_n_is_complete_the_match_goes_on() -> None:
    report = replay(_sheet([HAND_A], 2))
    assert not report.finished and not report.time_called and report.winners == []
    assert "time_called" not in report.to_json()


def test_r24_a_target_reached_before_time_wins_as_usual() -> None:
    rules_target = {"targets": {"2": 20}, "time_limit": 30}
    document = {
        "format": "allfives/1",
        "players": 2,
        "rules": rules_target,
        "time_called_after": 3,
        "hands": [HAND_A],
    }
    report = replay(document)
    assert report.finished and not report.time_called and report.winners == [0]


def test_r24_time_called_needs_a_rule_set_with_a_clock() -> None:
    verdict = check(_sheet([HAND_A], 1, limit=None))
    error = verdict["error"]
    assert isinstance(error, dict) and error["code"] == "bad_format"
    assert "time_limit" in str(error["message"])


@pytest.mark.parametrize("after", [0, -1, "2", 1.5, True])
def test_r24_time_called_after_must_be_a_count_of_hands(after: object) -> None:
    document = _sheet([HAND_A], 1)
    document["time_called_after"] = after
    error = check(document)["error"]
    assert isinstance(error, dict) and error["code"] == "bad_format"


def test_r24_a_scoresheet_with_time_called_round_trips() -> None:
    document = _sheet([HAND_A, HAND_B], 2)
    again = json.loads(json.dumps(document))
    first, second = replay(document), replay(again)
    assert first.to_json() == second.to_json()
    rules = Rules.from_json(again["rules"])
    assert rules.time_limit == 30 and Rules.from_json(rules.to_json()) == rules
    assert rules != Rules(targets={2: 250})


def test_r24_the_rule_set_refuses_a_bad_time_limit() -> None:
    for bad in (0, -5, "30", 2.5):
        with pytest.raises(AllFivesError) as caught:
            Rules.from_json({"time_limit": bad})
        assert caught.value.code == "bad_format"
    assert Rules.from_json({"time_limit": None}).time_limit is None
    assert "time_limit" not in Rules().to_json()


def test_r24_three_players_all_on_the_top_total_tie_and_the_rest_lose() -> None:
    match = MatchState(3, Rules(time_limit=20))
    match.score_play(0, 10)
    match.score_play(1, 5)
    match.score_play(2, 10)
    match.call_time()
    assert match.winners == [0, 2] and match.time_called
    with pytest.raises(AllFivesError) as caught:
        match.call_time()
    assert caught.value.code == "match_over"
