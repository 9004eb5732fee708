"""The legal moves of a state with the points each would score at once (R12), as a
coach reads them: `HandState.scored_moves` and `HandState.move_points`."""

from __future__ import annotations

import random

import pytest

from allfives import AllFivesError, HandState, Move, Rules
from allfives.hand import deal_masks
from allfives.strategies import choose_move


def points_by_applying(state: HandState, move: Move) -> int:
    """Reference: make the move on a copy through `apply`, which checks every rule."""
    trial = state.copy()
    if move.is_draw and state.dealt:
        boneyard = state.boneyard() or ()
        move = Move.draw(move.seat, boneyard[0])
    return trial.apply(move)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_scored_move_scores_what_applying_it_scores(players: int) -> None:
    # Given seeded hands played out by random players, with a deal
    rng = random.Random(f"scored:{players}")
    checked = 0
    for _ in range(200):
        masks, _ = deal_masks(players, Rules(), rng)
        state = HandState.from_masks(players, rng.randrange(players), Rules(), masks)
        while not state.is_over():
            # When the moves are listed with their points
            scored = state.scored_moves()
            # Then they are exactly the legal moves, each scoring what `apply` scores
            assert [move for move, _ in scored] == state.legal_moves()
            for move, points in scored:
                assert points == points_by_applying(state, move)
                checked += 1
            move = choose_move(state, "random", rng)
            if move.is_draw:
                move = Move.draw(move.seat, (state.boneyard() or ())[0])
            state.apply(move)
    assert checked > 10_000


def test_scored_moves_without_a_deal_include_unseen_tiles_and_the_draw() -> None:
    # Given a hand entered without a deal, after the lead [5|5]
    state = HandState(2, 0)
    state.apply(Move.play(0, "5-5"))
    # When seat 1's moves are scored
    scored = {
        (str(move.tile), move.end, move.kind): points for move, points in state.scored_moves()
    }
    # Then every unseen 5 may go west or east, [0|5] keeps the count at 10, and a draw scores 0
    assert scored[("0-5", "W", "play")] == 10
    assert scored[("5-6", "E", "play")] == 0  # 6 + spinner 10 = 16
    assert scored[("None", None, "draw")] == 0
    assert len(scored) == 2 * 6 + 1


def test_move_points_refuses_a_move_that_breaks_a_rule_and_changes_nothing() -> None:
    # Given a fresh hand with seat 0 to lead
    state = HandState(2, 0)
    # When seat 1 asks what a lead would score
    with pytest.raises(AllFivesError) as caught:
        state.move_points(Move.play(1, "5-5"))
    # Then it is refused as `apply` refuses it, and the lead is still to come
    assert caught.value.code == "not_your_turn"
    assert state.layout.is_empty() and state.turn == 0
    assert state.move_points(Move.play(0, "5-5")) == 10


def test_a_finished_hand_has_no_scored_moves() -> None:
    # Given a hand that ended in a domino
    state = HandState(2, 0, deal=[["5-5"], ["0-0"]], rules=Rules(hand_sizes={2: 1}))
    state.apply(Move.play(0, "5-5"))
    # Then nothing more can be scored
    assert state.is_over() and state.scored_moves() == []
