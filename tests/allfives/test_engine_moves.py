"""Moves of a tile-by-tile scoresheet: their JSON form and its round trip."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from allfives import AllFivesError, Move, Tile


@pytest.mark.parametrize(
    "obj",
    [
        {"seat": 0, "play": "3-6"},
        {"seat": 1, "play": "6-3", "end": "E"},
        {"seat": 2, "play": "5-5", "end": "N"},
        {"seat": 3, "play": "0-1", "end": "S"},
        {"seat": 2, "draw": "2-4"},
        {"seat": 2, "draw": None},
        {"seat": 0, "pass": True},
    ],
)
def test_move_json_round_trip(obj: dict[str, Any]) -> None:
    move = Move.parse(obj)
    assert move.to_json() == obj
    assert Move.parse(move.to_json()) == move
    assert hash(Move.parse(obj)) == hash(move)
    assert pickle.loads(pickle.dumps(move)) == move  # noqa: S301 - our own bytes
    assert eval(repr(move), {"Move": Move}) == move  # noqa: S307 - our own repr


def test_a_play_keeps_the_tile_as_written() -> None:
    move = Move.parse({"seat": 1, "play": "6-3", "end": "E"})
    assert move.tile == Tile.parse("3-6") and move.first == 6 and move.is_play
    assert Move.play(1, "6-3", "E") == move != Move.play(1, "3-6", "E")
    assert Move.play(0, Tile.parse("6-3")).first == 3
    assert Move.draw(1, "2-4").is_draw and Move.pass_turn(1).is_pass


@pytest.mark.parametrize(
    "obj",
    [
        [],
        "play 3-6",
        {"seat": 0},
        {"seat": 0, "play": "3-6", "draw": "1-1"},
        {"seat": 0, "play": "3-6", "pass": True},
        {"seat": 0, "pass": False},
        {"seat": 0, "pass": "yes"},
        {"seat": 0, "play": None},
        {"seat": 0, "play": "3-7"},
        {"seat": 0, "play": "3-6", "end": "X"},
        {"seat": 0, "play": "3-6", "end": 1},
        {"seat": 0, "draw": 5},
        {"seat": 4, "pass": True},
        {"seat": -1, "pass": True},
        {"seat": True, "pass": True},
        {"seat": "0", "pass": True},
        {"play": "3-6"},
    ],
)
def test_move_parse_refuses_what_is_not_a_move(obj: object) -> None:
    with pytest.raises(AllFivesError) as caught:
        Move.parse(obj)
    assert caught.value.code == "bad_format"


def test_move_constructor_checks_its_parts() -> None:
    with pytest.raises(AllFivesError):
        Move("play", 0)
    with pytest.raises(AllFivesError):
        Move("play", 0, Tile.parse("1-2"), first=4)
    with pytest.raises(AllFivesError):
        Move("draw", 0, end="E")
    with pytest.raises(AllFivesError):
        Move("pass", 0, Tile.parse("1-2"))
    with pytest.raises(AllFivesError):
        Move("jump", 0)  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        Move.pass_turn(0).seat = 1  # type: ignore[misc]
    assert Move.pass_turn(0) != "pass"
