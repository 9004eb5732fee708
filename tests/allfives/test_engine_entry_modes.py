"""The three ways to enter a hand agree: with the deal, tile by tile without it
(draws unseen, remaining tiles or pips given), and as a tally. Each simulated
match is re-entered the other two ways and must check to the same scores."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from allfives import HandState, Rules, check
from allfives.simulate import simulate_matches


def remaining(document: dict[str, Any], index: int) -> HandState:
    rules = Rules.from_json(document.get("rules"))
    return HandState.from_json(document["hands"][index], players=document["players"], rules=rules)


def left_for(state: HandState, rng: random.Random) -> dict[str, Any]:
    left: dict[str, Any] = {}
    for seat in range(state.players):
        tiles = state.hand(seat)
        if rng.random() < 0.5:
            left[str(seat)] = [str(tile) for tile in tiles]
        else:
            left[str(seat)] = sum(tile.pips for tile in tiles)
    return left


def without_deal(document: dict[str, Any], verdict: dict[str, Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    players = document["players"]
    result = copy.deepcopy(document)
    for index, hand in enumerate(result["hands"]):
        state = remaining(document, index)
        del hand["deal"]
        for move in hand["moves"]:
            if "draw" in move and rng.random() < 0.5:
                move["draw"] = None  # face not seen
        if verdict["hands"][index]["end"] == "blocked":
            last = hand["moves"][-1]
            seat = last["seat"] if "draw" in last else (last["seat"] + 1) % players
            hand["moves"] += [{"seat": (seat + k) % players, "pass": True} for k in range(players)]
        if verdict["hands"][index]["end"] != "target":
            hand["left"] = left_for(state, rng)
    return result


def as_tally(document: dict[str, Any], verdict: dict[str, Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    hands = []
    for index, (hand, out) in enumerate(zip(document["hands"], verdict["hands"], strict=True)):
        tally: dict[str, Any] = {
            "leader": hand["leader"],
            "scores": [[p["seat"], p["points"]] for p in out["plays"] if p["points"]],
        }
        state = remaining(document, index)
        if out["end"] == "target":
            tally["end"] = {"target": True}
        elif out["end"] == "domino":
            tally["end"] = {"domino": state.went_out}
            tally["left"] = left_for(state, rng)
            tally["left"][str(state.went_out)] = 0
        else:
            tally["end"] = {"blocked": True}
            tally["left"] = {
                str(seat): sum(tile.pips for tile in state.hand(seat))
                for seat in range(state.players)
            }
        hands.append(tally)
    return {**document, "hands": hands}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("award", ["opponents", "difference"])
def test_every_entry_mode_gives_the_same_scores(players: int, award: str) -> None:
    rules = Rules(targets={players: 150}, blocked_award=award)  # type: ignore[arg-type]
    for k, result in enumerate(
        simulate_matches(players=players, matches=25, seed=f"modes-{award}", rules=rules)
    ):
        document = result.document
        verdict = check(document)
        assert verdict["ok"], verdict
        for other in (without_deal(document, verdict, k), as_tally(document, verdict, k)):
            again = check(other)
            assert again["ok"], again
            assert again["totals"] == verdict["totals"]
            assert again["winner"] == verdict["winner"]
            for mine, theirs in zip(again["hands"], verdict["hands"], strict=True):
                assert mine["end"] == theirs["end"]
                assert mine["bonus"] == theirs["bonus"]
                assert mine["points"] == theirs["points"]
                assert mine["hand_winner"] == theirs["hand_winner"]
