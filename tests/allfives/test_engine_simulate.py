"""Simulated matches: complete scoresheets that `check` reproduces exactly, a seed
fixes everything, and the two strategies."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from allfives import HandState, MatchState, Move, Rules, check, simulate_match, simulate_matches
from allfives.hand import deal_tiles
from allfives.simulate import play_match, summarize
from allfives.strategies import STRATEGIES, choose_greedy, choose_move, choose_random
from allfives.tiles import PIPS, TEXT
from tests.allfives.engine_helpers import documented_winner

STRATEGY_SETS = [["random"], ["greedy"], ["greedy", "random"], ["random", "greedy", "random"]]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("strategies", [["random"], ["greedy"], "mixed"])
def test_check_reproduces_the_simulators_scores_exactly(
    players: int, strategies: list[str] | str
) -> None:
    names = (["greedy", "random"] * 2)[:players] if strategies == "mixed" else strategies
    assert isinstance(names, list)
    for result in simulate_matches(
        players=players, matches=30, seed=f"repro-{players}", strategies=names
    ):
        document = json.loads(json.dumps(result.document))  # as stored and read back
        verdict = check(document)
        assert verdict["ok"], verdict
        stats = result.stats
        assert verdict["totals"] == {str(s): x2 / 2 for s, x2 in stats.totals_x2.items()}
        assert verdict["winner"] == documented_winner(stats.winners) and verdict["finished"]
        assert len(verdict["hands"]) == len(stats.hands)
        for hand, seen in zip(verdict["hands"], stats.hands, strict=True):
            assert hand["end"] == seen.end
            assert sum(p["points"] for p in hand["plays"]) == seen.play_points_x2 / 2
            assert sum(hand["bonus"].values()) == seen.bonus_x2 / 2


def test_a_seed_fixes_the_match() -> None:
    def run(seed: int) -> dict[str, object]:
        return simulate_match(
            players=3, rules=Rules(), rng=random.Random(seed), strategies=["random"]
        )

    assert run(11) == run(11)
    assert run(11) != run(12)
    first = [r.document for r in simulate_matches(players=2, matches=3, seed=9)]
    again = [r.document for r in simulate_matches(players=2, matches=3, seed="9")]
    assert first == again
    alone = play_match(
        players=2, rules=Rules(), rng=random.Random("9:2"), strategies=["random"]
    ).document
    assert alone == first[2]


def test_r5_the_first_leader_is_drawn_by_lot() -> None:
    leaders = Counter(
        result.document["hands"][0]["leader"]  # type: ignore[index]
        for result in simulate_matches(players=4, matches=60, seed="lot")
    )
    assert set(leaders) == {0, 1, 2, 3}


def test_r21_simulated_leaders_follow_the_seat_that_went_out() -> None:
    for result in simulate_matches(players=3, matches=10, seed="lead"):
        verdict = check(result.document)
        hands = result.document["hands"]
        assert isinstance(hands, list)
        for before, after in zip(verdict["hands"], hands[1:], strict=False):  # type: ignore[arg-type]
            if before["end"] == "domino":
                assert after["leader"] == before["hand_winner"][0]


def test_a_simulated_scoresheet_has_deals_and_named_draws() -> None:
    document = simulate_match(players=4, rules=Rules(), rng=random.Random(3), strategies=["greedy"])
    assert document["format"] == "allfives/1" and document["players"] == 4
    for hand in document["hands"]:  # type: ignore[attr-defined]
        assert sorted(len(seat) for seat in hand["deal"]) == [5, 5, 5, 5]
        for move in hand["moves"]:
            assert move.get("draw", "") is not None
            if "play" in move and move is not hand["moves"][0]:
                assert "end" in move


def test_rules_reach_the_simulated_scoresheet() -> None:
    rules = Rules(targets={2: 50}, blocked_award="difference")
    result = play_match(players=2, rules=rules, rng=random.Random(1), strategies=["random"])
    assert result.document["rules"] == rules.to_json()
    assert max(result.stats.totals_x2.values()) >= 100


def test_greedy_takes_the_best_score_then_the_heaviest_tile() -> None:
    deal = [
        ["3-6", "0-0", "0-1", "0-2", "0-4", "1-1", "1-2", "1-4", "2-4"],
        ["6-6", "6-1", "3-4", "2-6", "5-6", "0-5", "1-5", "2-5", "4-4"],
    ]
    hand = HandState(2, 0, deal=deal)
    hand.apply(Move.play(0, "3-6"))
    # Seat 1's options: [6|6] E scores 3+12=15, [3|4] W 10, [5|6] E 8, [2|6] E 5, [1|6] E 4.
    options = hand.options(1)
    assert choose_greedy(hand, options, random.Random(0)) == (27, 1)  # [6|6] on E
    assert choose_move(hand, "greedy", random.Random(0)) == Move.play(1, "6-6", "E")
    hand.apply(Move.play(1, "2-6", "E"))  # 3 + 2 = 5
    # Seat 0: [2|4] E makes 3 + 4 = 7, [1|2] E 4, [0|2] E 3: nothing scores; heaviest first.
    best = choose_greedy(hand, hand.options(0), random.Random(0))
    assert PIPS[best[0]] == max(PIPS[t] for t, _ in hand.options(0))


def test_random_strategy_picks_every_legal_play_sometimes() -> None:
    hand = HandState(2, 0, deal=[
        ["3-6", "0-0", "0-1", "0-2", "0-4", "1-1", "1-2", "1-4", "2-4"],
        ["6-6", "6-1", "3-4", "2-6", "5-6", "0-5", "1-5", "2-5", "4-4"],
    ])  # fmt: skip
    hand.apply(Move.play(0, "3-6"))
    options = hand.options(1)
    rng = random.Random(4)
    seen = {choose_random(hand, options, rng) for _ in range(200)}
    assert seen == set(options)
    over = HandState(2, 0, rules=Rules(hand_sizes={2: 1}), deal=[["1-1"], ["2-2"]])
    over.apply(Move.play(0, "1-1"))
    with pytest.raises(ValueError):
        choose_move(over, "random", rng)


def test_strategies_are_named_and_checked() -> None:
    assert set(STRATEGIES) == {"random", "greedy"}
    with pytest.raises(ValueError):
        simulate_match(players=3, rules=Rules(), rng=random.Random(1), strategies=["clever"])
    with pytest.raises(ValueError):
        simulate_match(
            players=3, rules=Rules(), rng=random.Random(1), strategies=["random", "greedy"]
        )


def test_summary_figures() -> None:
    results = [r.stats for r in simulate_matches(players=2, matches=20, seed="sum")]
    summary = summarize(results)
    hands = sum(len(r.hands) for r in results)
    assert summary["matches"] == 20 and summary["hands"] == hands
    assert summary["hands_per_match"] == round(hands / 20, 3)
    ends = summary["ends"]
    assert isinstance(ends, dict) and sum(ends.values()) == hands
    assert 0 < ends["target"] <= 20  # some matches end at a settlement instead
    assert 0 <= summary["blocked_rate"] <= 1  # type: ignore[operator]
    assert summary["play_points_per_hand"] > 0  # type: ignore[operator]
    assert summary["ties"] == sum(1 for r in results if len(r.winners) > 1)
    assert summarize([])["hands"] == 0


def reference_match(players: int, rules: Rules, rng: random.Random, names: list[str]) -> object:
    """A match played through the checked public API (`HandState.apply`, `choose_move`),
    drawing on `rng` in the simulator's documented order: the lot, each deal
    (`deal_tiles`), a strategy's choice only among two or more plays, a new lot
    after a block."""
    match = MatchState(players, rules)
    hands: list[object] = []
    leader = rng.randrange(players)
    while True:
        dealt, boneyard = deal_tiles(players, rules, rng)
        deal = [[TEXT[t] for t in hand] for hand in dealt]
        state = HandState(players, leader, rules=rules, deal=deal)
        moves = []
        over = False
        while not state.is_over():
            seat = state.turn
            assert seat is not None
            plays = [move for move in state.legal_moves() if move.is_play]
            move = plays[0] if len(plays) == 1 else choose_move(state, names[seat], rng)
            if move.is_draw:
                move = Move.draw(seat, TEXT[boneyard.pop()])
            points = state.apply(move)
            moves.append(move.to_json())
            if points and match.score_play(seat, points):
                over = True
                break
        hands.append({"leader": leader, "deal": deal, "moves": moves})
        if over:
            break
        match.settle(state.settle())
        match.end_hand(state.went_out)
        if match.is_over:
            break
        leader = rng.randrange(players) if match.next_leader is None else match.next_leader
    return {"format": "allfives/1", "players": players, "rules": rules.to_json(), "hands": hands}


@pytest.mark.parametrize(
    ("players", "names"),
    [
        *[(players, [name]) for players in (2, 3, 4) for name in ("random", "greedy")],
        (3, ["greedy", "random", "random"]),
        (4, ["random", "greedy", "greedy", "random"]),
    ],
)
def test_the_simulator_plays_what_the_checked_api_plays(players: int, names: list[str]) -> None:
    # Given each seat's strategy, under the default rules, with three-tile hands to 60,
    # and with every tile dealt (no boneyard: blocked hands) to 60
    seats = names * players if len(names) == 1 else names
    for rules in (
        Rules(),
        Rules(targets={players: 60}, hand_sizes={players: 3}),
        Rules(targets={players: 60}, hand_sizes={players: 28 // players}),
    ):
        for k in range(40):
            # When one seed plays a match in the simulator and through HandState
            simulated = play_match(
                players=players, rules=rules, rng=random.Random(f"ref:{k}"), strategies=names
            ).document
            reference = reference_match(players, rules, random.Random(f"ref:{k}"), seats)
            # Then every deal, move and face drawn is the same
            assert simulated == reference
