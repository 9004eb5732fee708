"""Property tests: `check` never raises and `replay` raises only engine errors on any
JSON, however close to a scoresheet; every parse/format pair round-trips."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allfives import (
    ALL_TILES,
    ERRORS,
    AllFivesError,
    Layout,
    Move,
    Rules,
    Tile,
    check,
    replay,
    simulate_match,
)
from allfives.simulate import simulate_matches

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
)
any_json = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=25,
)

tile_texts = st.sampled_from([f"{a}-{b}" for a in range(7) for b in range(7)])
seats = st.integers(-1, 4) | st.sampled_from([True, "0", None])
ends = st.sampled_from(["W", "E", "N", "S", None, "X", 2])
near_tiles = tile_texts | st.sampled_from(["7-7", "", "3_6", None, 36])
moves = st.one_of(
    st.fixed_dictionaries({"seat": seats, "play": near_tiles}, optional={"end": ends}),
    st.fixed_dictionaries({"seat": seats, "draw": near_tiles}),
    st.fixed_dictionaries({"seat": seats, "pass": st.sampled_from([True, False, 1])}),
    any_json,
)
lefts = st.dictionaries(
    st.sampled_from(["0", "1", "2", "3", "4", "x"]),
    st.integers(-5, 200) | st.lists(near_tiles, max_size=10) | any_json,
    max_size=4,
)
tile_hands = st.fixed_dictionaries(
    {"leader": seats, "moves": st.lists(moves, max_size=25)},
    optional={
        "deal": st.lists(st.lists(tile_texts, min_size=4, max_size=10), max_size=4) | any_json,
        "left": lefts,
    },
)
tally_hands = st.fixed_dictionaries(
    {
        "leader": seats,
        "scores": st.lists(
            st.lists(st.integers(-1, 4) | any_json, min_size=2, max_size=2)
            | st.tuples(st.integers(0, 3), st.sampled_from([0, 5, 10, 15, 35, 12])),
            max_size=12,
        ),
        "end": st.sampled_from(
            [{"domino": 0}, {"domino": 2}, {"blocked": True}, {"target": True}, {}, "x"]
        ),
    },
    optional={"left": lefts},
)
near_scoresheets = st.fixed_dictionaries(
    {
        "players": st.sampled_from([2, 3, 4, 4, 5, "3"]),
        "hands": st.lists(tile_hands | tally_hands, max_size=4),
    },
    optional={
        "format": st.sampled_from(["allfives/1", "allfives/2"]),
        "rules": st.fixed_dictionaries(
            {},
            optional={
                "targets": st.dictionaries(
                    st.sampled_from(["2", "3", "4", "5"]), st.integers(-5, 300)
                ),
                "blocked_award": st.sampled_from(["opponents", "difference", "x"]),
                "hand_sizes": st.dictionaries(st.sampled_from(["2", "3", "4"]), st.integers(0, 15)),
            },
        ),
    },
)


def judged_safely(document: object) -> dict[str, Any]:
    verdict = check(document)
    assert isinstance(verdict, dict) and isinstance(verdict["ok"], bool)
    json.dumps(verdict)  # the verdict is JSON
    try:
        report = replay(document)
    except AllFivesError as error:
        assert not verdict["ok"]
        assert verdict["error"] == error.to_json()
        assert error.code in ERRORS
    else:
        assert verdict == report.to_json()
    return verdict


@SETTINGS
@given(any_json)
def test_check_never_raises_on_arbitrary_json(document: object) -> None:
    judged_safely(document)


@SETTINGS
@given(near_scoresheets)
def test_check_never_raises_on_near_scoresheets(document: dict[str, Any]) -> None:
    judged_safely(document)


SIMULATED = [
    result.document
    for players in (2, 3, 4)
    for result in simulate_matches(players=players, matches=2, seed=f"prop-{players}")
]


def mutate(document: dict[str, Any], rng: random.Random, replacement: object) -> dict[str, Any]:
    """Replace, drop or duplicate one value somewhere inside a copy of `document`."""
    document = copy.deepcopy(document)
    node: Any = document
    for _ in range(rng.randrange(1, 6)):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = rng.choice(keys)
        child = node[key]
        if not isinstance(child, dict | list) or not child or rng.random() < 0.3:
            action = rng.randrange(3)
            if action == 0:
                node[key] = replacement
            elif action == 1 and isinstance(node, dict):
                del node[key]
            elif isinstance(node, list):
                node.insert(key, copy.deepcopy(child))
            return document
        node = child
    return document


@SETTINGS
@given(st.integers(0, len(SIMULATED) - 1), st.randoms(use_true_random=False), any_json)
def test_check_never_raises_on_mutated_scoresheets(
    which: int, rng: random.Random, replacement: object
) -> None:
    judged_safely(mutate(SIMULATED[which], rng, replacement))


@SETTINGS
@given(st.integers(0, len(SIMULATED) - 1), st.randoms(use_true_random=False))
def test_a_dropped_or_swapped_move_is_caught(which: int, rng: random.Random) -> None:
    document = copy.deepcopy(SIMULATED[which])
    hand = rng.choice(document["hands"])
    moves = hand["moves"]
    index = rng.randrange(len(moves))
    if rng.random() < 0.5 or index + 1 >= len(moves):
        del moves[index]
    else:
        moves[index], moves[index + 1] = moves[index + 1], moves[index]
        if moves[index] == moves[index + 1]:
            return
    verdict = judged_safely(document)
    if verdict["ok"]:
        # Only possible when the changed hand still follows every rule; then the
        # scores must still be the engine's own.
        assert all(
            play["points"] == (play["count"] if play["count"] % 5 == 0 else 0)
            for out in verdict["hands"]
            for play in out["plays"]
        )


@given(tile_texts)
def test_tile_parse_format_round_trip(text: str) -> None:
    tile = Tile.parse(text)
    assert Tile.parse(str(tile)) is tile
    assert sorted(text.split("-")) == sorted(str(tile).split("-"))


@given(
    st.sampled_from(["play", "draw", "pass"]),
    st.integers(0, 3),
    tile_texts,
    st.sampled_from([None, "W", "E", "N", "S"]),
    st.booleans(),
)
def test_move_json_round_trip(kind: str, seat: int, text: str, end: str | None, seen: bool) -> None:
    obj: dict[str, Any] = {"seat": seat}
    if kind == "play":
        obj["play"] = text
        if end is not None:
            obj["end"] = end
    elif kind == "draw":  # a drawn tile is written canonically, low half first
        obj["draw"] = str(Tile.parse(text)) if seen else None
    else:
        obj["pass"] = True
    move = Move.parse(obj)
    assert move.to_json() == obj
    assert Move.parse(json.loads(json.dumps(move.to_json()))) == move


@given(
    st.dictionaries(st.sampled_from([2, 3, 4]), st.integers(1, 1000)),
    st.dictionaries(st.sampled_from([2, 3, 4]), st.integers(1, 7)),
    st.sampled_from(["opponents", "difference"]),
)
def test_rules_json_round_trip(targets: dict[int, int], sizes: dict[int, int], award: str) -> None:
    rules = Rules(targets=targets, hand_sizes=sizes, blocked_award=award)  # type: ignore[arg-type]
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


@SETTINGS
@given(st.randoms(use_true_random=False), st.integers(1, 28))
def test_layout_text_round_trip(rng: random.Random, steps: int) -> None:
    layout = Layout()
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    for _ in range(steps):
        playable = [
            (tile, end)
            for tile in tiles
            if layout.can_play(tile)
            for end in (layout.ends_for(tile) or [None])
        ]
        if not playable:
            break
        tile, end = rng.choice(playable)
        if layout.is_empty():
            layout.play(tile, west=rng.choice([tile.low, tile.high]))
        else:
            layout.play(tile, end)
        again = Layout.parse(str(layout))
        assert again == layout and str(again) == str(layout)
        assert again.count == layout.count
        assert again.open_ends() == layout.open_ends()
        assert again.tiles() == layout.tiles()


def test_simulated_output_is_stable_json() -> None:
    document = simulate_match(players=3, rules=Rules(), rng=random.Random(2), strategies=["greedy"])
    verdict = check(document)
    assert json.loads(json.dumps(verdict)) == verdict
    assert check(json.loads(json.dumps(document))) == verdict
