"""Every error code, provoked from a scoresheet, with its rule number and message."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from allfives import (
    ERRORS,
    AllFivesError,
    FormatError,
    IllegalMoveError,
    MatchError,
    ScoreError,
    check,
    replay,
)
from allfives.errors import engine_error
from tests.allfives.engine_helpers import DEAL_A, draw, error_of, passes, play, scoresheet


def tiles_hand(moves: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"leader": 0, "moves": moves, **extra}


def tally_hand(scores: list[Any], end: dict[str, Any], left: Any = None) -> dict[str, Any]:
    hand: dict[str, Any] = {"leader": 0, "scores": scores, "end": end}
    if left is not None:
        hand["left"] = left
    return hand


PROVOKED: dict[str, dict[str, Any]] = {
    "bad_format": {"players": 2, "hands": "none"},
    "bad_players": {"players": 5, "hands": []},
    "bad_deal": scoresheet(2, [tiles_hand([], deal=[DEAL_A[0], DEAL_A[1][:-1]])]),
    "not_your_turn": scoresheet(2, [tiles_hand([play(1, "3-6")])]),
    "tile_already_played": scoresheet(2, [tiles_hand([play(0, "5-5"), play(1, "5-5", "W")])]),
    "tile_not_in_hand": scoresheet(2, [tiles_hand([play(0, "0-0")], deal=DEAL_A)]),
    "tile_not_in_boneyard": scoresheet(
        2, [tiles_hand([play(0, "3-6"), draw(1, "3-3")], deal=DEAL_A)]
    ),
    "tile_does_not_match": scoresheet(2, [tiles_hand([play(0, "3-6"), play(1, "1-4", "W")])]),
    "ambiguous_end": scoresheet(2, [tiles_hand([play(0, "3-3"), play(1, "3-4")])]),
    "lead_has_no_end": scoresheet(2, [tiles_hand([play(0, "3-6", "W")])]),
    "branch_not_open": scoresheet(2, [tiles_hand([play(0, "5-5"), play(1, "5-1", "N")])]),
    "must_play": scoresheet(2, [tiles_hand([draw(0)])]),
    "must_play_drawn_tile": scoresheet(
        2, [tiles_hand([play(0, "3-6"), draw(1, "6-1"), play(1, "3-2", "W")])]
    ),
    "drew_past_playable": scoresheet(2, [tiles_hand([play(0, "3-6"), draw(1, "6-1"), draw(1)])]),
    "boneyard_empty": scoresheet(2, [tiles_hand([play(0, "3-6")] + [draw(1)] * 11)]),
    "illegal_pass": scoresheet(2, [tiles_hand([play(0, "3-6"), *passes(1)])]),
    "hand_over": scoresheet(
        2, [tiles_hand([play(0, "1-2"), *passes(1)], left={"1": 5})], {"hand_sizes": {"2": 1}}
    ),
    "hand_incomplete": scoresheet(2, [tiles_hand([play(0, "3-6")])]),
    "bad_points": scoresheet(2, [tally_hand([[0, 12]], {"domino": 0}, {"1": 3})]),
    "left_missing": scoresheet(2, [tally_hand([], {"domino": 0})]),
    "left_disagrees": scoresheet(2, [tally_hand([], {"domino": 0}, {"0": 5, "1": 3})]),
    "target_not_reached": scoresheet(2, [tally_hand([[0, 10]], {"target": True})]),
    "match_over": scoresheet(
        2, [tiles_hand([play(0, "5-5"), play(1, "5-0", "W")])], {"targets": {"2": 10}}
    ),
    "wrong_leader": scoresheet(
        2,
        [
            tally_hand([], {"domino": 1}, {"0": 3}),
            tally_hand([], {"blocked": True}, {"0": 3, "1": 4}),
        ],
    ),
    "time_called": {
        **scoresheet(
            2,
            [
                tally_hand([], {"domino": 0}, {"1": 3}),
                tally_hand([], {"domino": 0}, {"1": 3}),
            ],
            {"time_limit": 30},
        ),
        "time_called_after": 1,
    },
}


class Misbehaving(dict[str, Any]):
    """Not JSON: a mapping whose look-ups fail, standing in for an engine bug."""

    def get(self, key: str, default: Any = None) -> Any:
        raise RuntimeError("no look-ups today")


def test_every_error_code_is_provoked_here() -> None:
    assert set(PROVOKED) | {"internal_error"} == set(ERRORS)


def test_check_never_raises_even_for_an_engine_failure() -> None:
    document = Misbehaving(players=2, hands=[])
    with pytest.raises(RuntimeError):
        replay(document)  # replay shows the failure itself...
    verdict = check(document)  # ...check reports it, as it must never raise
    assert verdict["ok"] is False
    error = verdict["error"]
    assert error["code"] == "internal_error" and error["rule"] is None
    assert "RuntimeError: no look-ups today" in error["message"]


@pytest.mark.parametrize("code", sorted(PROVOKED))
def test_each_error_code_is_provoked_with_its_rule_and_message(code: str) -> None:
    error = error_of(PROVOKED[code])
    assert error.code == code
    assert error.rule == ERRORS[code].rule
    assert error.message and "{" not in error.message
    assert set(error.to_json()) == {"hand", "move", "code", "rule", "message"}
    assert isinstance(error, ValueError)
    assert error.hand in (0, 1, None)


def test_rule_numbers_are_rules_md_numbers() -> None:
    for spec in ERRORS.values():
        assert spec.rule is None or (spec.rule[0] == "R" and 1 <= int(spec.rule[1:]) <= 24)


@pytest.mark.parametrize(
    ("code", "family"),
    [
        ("bad_format", FormatError),
        ("tile_does_not_match", IllegalMoveError),
        ("bad_points", ScoreError),
        ("match_over", MatchError),
    ],
)
def test_errors_come_in_families(code: str, family: type[AllFivesError]) -> None:
    assert isinstance(error_of(PROVOKED[code]), family)


def test_message_params_let_a_ui_translate() -> None:
    error = error_of(PROVOKED["tile_does_not_match"])
    assert error.params == {
        "tile": "[1|4]",
        "end": "W",
        "end_name": "west",
        "pips": 3,
        "seat": 1,
    }
    assert ERRORS["tile_does_not_match"].template.format_map(error.params) in error.message


def test_errors_survive_pickling_and_keep_their_place() -> None:
    error = engine_error("illegal_pass", seat=1, reason="x", reason_code="can_play")
    error.located(hand=2, move=7)
    error.located(hand=3, move=8)  # the innermost position wins
    again = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own bytes
    assert type(again) is IllegalMoveError
    assert (
        again.to_json()
        == error.to_json()
        == {
            "hand": 2,
            "move": 7,
            "code": "illegal_pass",
            "rule": "R15",
            "message": "seat 1 may not pass: x",
        }
    )
    assert str(again) == again.message


def test_r7_a_tile_that_fits_no_open_end_is_refused_as_not_matching() -> None:
    # Given [1|4] played after the lead [3|6] with no end named: it fits neither end
    document = scoresheet(2, [tiles_hand([play(0, "3-6"), play(1, "1-4")])])
    # When the scoresheet is checked
    verdict = check(document)
    # Then the format's code for a tile that does not match is given, worded for no end
    assert verdict["error"] == {
        "hand": 0,
        "move": 1,
        "code": "tile_does_not_match",
        "rule": "R7",
        "message": "seat 1: [1|4] fits no open end (W 3, E 6)",
    }
    # And a UI gets what it needs to say so in its own words
    error = error_of(document)
    assert error.params == {
        "tile": "[1|4]",
        "ends": "W 3, E 6",
        "variant": "no_end",
        "open_pips": {"W": 3, "E": 6},
        "seat": 1,
    }
    assert "tile_fits_no_end" not in ERRORS
