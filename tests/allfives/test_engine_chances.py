"""Chances of winning by simulation (`allfives.chances`): calibrated against simulated
matches whose players' strengths are known, and exact where the match is decided."""

from __future__ import annotations

import math
import random

import pytest

from allfives import HandState, Move, Rules
from allfives.chances import (
    HandBook,
    chances_after_hand,
    chances_in_hand,
    mixed_strategy,
)
from allfives.simulate import play_match

#: Greed of seat 0 and seat 1 in the calibration matches: strong against weak, equals,
#: weak against strong.
PAIRS = ((1.0, 0.2), (0.6, 0.6), (0.1, 0.8))
MATCHES = 2000


@pytest.mark.slow
def test_predicted_chances_after_each_hand_agree_with_outcomes_in_every_decile() -> None:
    # Given 2,000 seeded two-player matches between simulated players of known greed
    rules = Rules()
    books = {
        pair: HandBook.build(players=2, rules=rules, greed=pair, hands=1000, seed=f"cal{pair}")
        for pair in PAIRS
    }
    rng = random.Random("calibration")
    # bins[d] holds (predicted, won) with at most one prediction per match, so that
    # the outcomes in a bin are independent and the binomial error applies.
    bins: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for k in range(MATCHES):
        pair = PAIRS[k % len(PAIRS)]
        played = play_match(
            players=2,
            rules=rules,
            rng=random.Random(f"truth:{k}"),
            strategies=[mixed_strategy(g) for g in pair],
        )
        won = 1.0 if played.stats.winners == [0] else 0.0
        seen: set[int] = set()
        # When: the chance of seat 0 is predicted after each hand that leaves the match open
        for hand in played.stats.hands[:-1]:
            forecast = chances_after_hand(
                books[pair],
                totals_x2=list(hand.totals_x2),
                next_leader=hand.next_leader,
                rng=rng,
                max_se=0.05,
                max_samples=100,
            )
            decile = min(int(forecast.chances[0] * 10), 9)
            if decile not in seen:
                seen.add(decile)
                bins[decile].append((forecast.chances[0], won))
    # Then in every decile the share of matches won is the mean prediction, within
    # three binomial standard errors (and the predictions' own noise, at most 5 points)
    checked = 0
    for decile, pairs in enumerate(bins):
        if len(pairs) < 30:
            continue
        predicted = sum(p for p, _ in pairs) / len(pairs)
        observed = sum(w for _, w in pairs) / len(pairs)
        error = math.sqrt(max(predicted * (1 - predicted), 0.01) / len(pairs))
        assert abs(observed - predicted) <= 3 * error + 0.05 / math.sqrt(len(pairs)), (
            decile,
            len(pairs),
            predicted,
            observed,
        )
        checked += 1
    assert checked >= 8  # the predictions spread over most deciles


def test_a_side_past_its_target_has_won() -> None:
    # Given a book for a two-player table (target 250)
    book = HandBook.build(players=2, rules=Rules(), greed=(0.5, 0.5), hands=20)
    # When the totals show side 1 past the target
    forecast = chances_after_hand(book, totals_x2=[100, 500], next_leader=0, rng=random.Random())
    # Then side 1 has won, with no doubt
    assert forecast.chances == (0.0, 1.0)
    assert forecast.standard_error == 0.0


def test_the_estimate_stops_at_the_standard_error_asked_for() -> None:
    # Given an even three-player table
    book = HandBook.build(players=3, rules=Rules(), greed=(0.5, 0.5, 0.5), hands=300)
    # When the chances at the start are asked within 1.5 points
    forecast = chances_after_hand(
        book, totals_x2=[0, 0, 0], next_leader=None, rng=random.Random(3), max_se=0.015
    )
    # Then the standard error reached is at most that, and the chances add up to one
    assert forecast.standard_error <= 0.015
    assert sum(forecast.chances) == pytest.approx(1.0)
    assert forecast.samples >= 400


def test_a_side_one_play_from_the_target_mid_hand_is_the_favourite() -> None:
    # Given a hand in progress where seat 0 has 245 of 250 and the lead scored
    book = HandBook.build(players=2, rules=Rules(), greed=(0.5, 0.5), hands=200)
    hand = HandState(2, 1)
    hand.apply(Move.play(1, "6-6"))
    # When the chances are read from the spectator's view
    forecast = chances_in_hand(
        book, state=hand, totals_x2=[490, 0], rng=random.Random(4), max_se=0.02
    )
    # Then seat 0 is very likely to win, and the estimate is within what was asked
    assert forecast.chances[0] > 0.8
    assert forecast.standard_error <= 0.02


def test_a_finished_or_dealt_hand_is_refused_mid_hand() -> None:
    # Given a book and a hand with its deal known
    book = HandBook.build(players=2, rules=Rules(), greed=(0.5, 0.5), hands=10)
    dealt = HandState(
        2,
        0,
        deal=[
            ["5-5", "0-1", "0-2", "0-3", "0-4", "0-6", "1-1", "1-2", "1-3"],
            ["0-5", "1-5", "1-4", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"],
        ],
    )
    # When / Then it is refused: a spectator does not see the deal
    with pytest.raises(ValueError, match="spectator"):
        chances_in_hand(book, state=dealt, totals_x2=[0, 0], rng=random.Random())


def test_a_greedy_player_beats_a_random_one_more_often_than_not() -> None:
    # Given a greedy seat 0 against a random seat 1
    book = HandBook.build(players=2, rules=Rules(), greed=(1.0, 0.0), hands=400, seed=2)
    # When the chances at the start are estimated
    forecast = chances_after_hand(
        book, totals_x2=[0, 0], next_leader=None, rng=random.Random(5), max_se=0.02
    )
    # Then the greedy player is the favourite
    assert forecast.chances[0] > 0.55


@pytest.mark.parametrize("players", [2, 3, 4])
def test_chances_can_be_read_after_every_play_of_recorded_hands(players: int) -> None:
    # Given seeded simulated hands replayed as entered, without their deals
    rules = Rules()
    book = HandBook.build(players=players, rules=rules, greed=[0.5] * players, hands=100)
    sides = 2 if players == 4 else players
    reads = 0
    for k in range(6):
        played = play_match(
            players=players, rules=rules, rng=random.Random(f"replay:{k}"), strategies=["greedy"]
        )
        hand = played.document["hands"][0]
        assert isinstance(hand, dict)
        state = HandState(players, hand["leader"], rules=rules)
        for raw in hand["moves"]:
            move = Move.parse(raw)
            state.apply(move)
            if move.kind != "play" or state.is_over():
                continue
            # When the chances are read after the play (an empty boneyard included)
            forecast = chances_in_hand(
                book,
                state=state,
                totals_x2=[0] * sides,
                rng=random.Random(k),
                max_se=0.1,
                max_samples=20,
            )
            # Then they are chances that add up to one
            assert sum(forecast.chances) == pytest.approx(1.0)
            reads += 1
    assert reads > 30
