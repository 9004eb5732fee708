"""`check`'s fast path for hands with a deal (`allfives.dealt`) gives the verdict the
checked replay through `HandState` gives, on right scoresheets and on corrupted ones:
it may only decide that a hand is right, never differ."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import allfives.scoresheet
from allfives import Rules, check, replay
from allfives.simulate import simulate_matches

Mutation = Callable[[list[dict[str, Any]], random.Random], None]
TILES = [f"{a}-{b}" for a in range(7) for b in range(7)]


def checked_only(document: object, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The verdict with the fast path switched off: every hand through `HandState`."""
    with monkeypatch.context() as patch:
        patch.setattr(allfives.scoresheet, "replay_dealt_hand", lambda *args: None)
        patch.setattr(allfives.scoresheet, "check_dealt", lambda *args: None)
        return check(document)


def retile(moves: list[dict[str, Any]], rng: random.Random) -> None:
    move = rng.choice(moves)
    key = "play" if "play" in move else "draw" if "draw" in move else None
    if key:
        move[key] = rng.choice(TILES)


def re_end(moves: list[dict[str, Any]], rng: random.Random) -> None:
    move = rng.choice(moves)
    move["end"] = rng.choice(["W", "E", "N", "S", None, "X", 1])


def drop_end(moves: list[dict[str, Any]], rng: random.Random) -> None:
    rng.choice(moves).pop("end", None)


def reseat(moves: list[dict[str, Any]], rng: random.Random) -> None:
    rng.choice(moves)["seat"] = rng.choice([0, 1, 2, 3, True, 1.0, "1", None])


def delete(moves: list[dict[str, Any]], rng: random.Random) -> None:
    del moves[rng.randrange(len(moves))]


def swap(moves: list[dict[str, Any]], rng: random.Random) -> None:
    i = rng.randrange(len(moves))
    j = rng.randrange(len(moves))
    moves[i], moves[j] = moves[j], moves[i]


def insert_pass(moves: list[dict[str, Any]], rng: random.Random) -> None:
    i = rng.randrange(len(moves) + 1)
    seat = rng.randrange(4)
    moves.insert(i, {"seat": seat, "pass": rng.choice([True, True, False, 1])})


def insert_draw(moves: list[dict[str, Any]], rng: random.Random) -> None:
    i = rng.randrange(len(moves) + 1)
    moves.insert(i, {"seat": rng.randrange(4), "draw": rng.choice([*TILES, None])})


def extra_field(moves: list[dict[str, Any]], rng: random.Random) -> None:
    move = rng.choice(moves)
    move[rng.choice(["note", "draw", "pass", "play"])] = rng.choice(["1-2", True, None])


def closing_passes(moves: list[dict[str, Any]], rng: random.Random) -> None:
    players = max(move["seat"] for move in moves) + 1  # every seat moves in a hand
    seat = moves[-1]["seat"] + rng.choice([0, 1, 1, 1])
    for k in range(rng.randrange(1, players + 3)):
        moves.append({"seat": (seat + k) % players, "pass": True})


def not_an_object(moves: list[dict[str, Any]], rng: random.Random) -> None:
    moves[rng.randrange(len(moves))] = rng.choice([[], "play", 3, None])  # type: ignore[call-overload]


MUTATIONS: list[Mutation] = [
    retile,
    re_end,
    drop_end,
    reseat,
    delete,
    swap,
    insert_pass,
    insert_draw,
    extra_field,
    closing_passes,
    not_an_object,
]


def documents(players: int, strategy: str) -> Iterator[dict[str, Any]]:
    """Simulated matches under the default rules, and with every tile dealt (no
    boneyard at all) or single-tile hands, to short targets."""
    for rules in (
        Rules(),
        Rules(targets={players: 60}, hand_sizes={players: 28 // players}),
        Rules(targets={players: 30}, hand_sizes={players: 1}),
    ):
        for result in simulate_matches(
            players=players,
            matches=30,
            seed=f"dealt-{players}-{strategy}",
            rules=rules,
            strategies=[strategy],
        ):
            yield json.loads(json.dumps(result.document))


@pytest.mark.parametrize("strategy", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_right_scoresheets_get_the_checked_replays_verdict(
    players: int, strategy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given simulated scoresheets, each hand with its deal
    for document in documents(players, strategy):
        # When they are checked with and without the fast path
        fast = check(document)
        # Then the verdicts are the same, written alike (keys in the same order), and right
        checked = checked_only(document, monkeypatch)
        assert fast == checked
        assert json.dumps(fast) == json.dumps(checked)
        assert fast["ok"] is True
        # And the report of `replay`, whose hands take the fast replay one at a time,
        # says the same
        assert json.dumps(replay(document).to_json()) == json.dumps(checked)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_corrupted_scoresheets_get_the_checked_replays_verdict(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given simulated scoresheets with one hand corrupted in one of many ways
    rng = random.Random(f"corrupt-{players}")
    outcomes = set()
    for document in documents(players, "random"):
        for _ in range(15):
            corrupted = copy.deepcopy(document)
            hand = rng.choice(corrupted["hands"])
            mutation = rng.choice(MUTATIONS)
            if hand["moves"][-1].get("pass") and rng.random() < 0.5:
                mutation = closing_passes  # a blocked hand: try its closing passes
            mutation(hand["moves"], rng)
            if rng.random() < 0.1:
                hand["left"] = {str(rng.randrange(players)): rng.randrange(60)}
            elif rng.random() < 0.05:  # a ``left`` of the wrong shape
                hand["left"] = rng.choice(
                    [{"9": 1}, {"0": "x"}, [1], {"0": ["9-9"]}, {"0": ["0-0", "0-0"]}]
                )
            # When they are checked with and without the fast path
            fast = check(corrupted)
            # Then the two verdicts agree exactly, error and message included
            checked = checked_only(corrupted, monkeypatch)
            assert fast == checked, mutation.__name__
            assert json.dumps(fast) == json.dumps(checked), mutation.__name__
            error = fast.get("error")
            outcomes.add(error["code"] if isinstance(error, dict) else "ok")
    # And the corruptions reached many different rules
    assert len(outcomes) >= 10, outcomes
