"""Chances of winning once time is called (R24) and while a tie is played off
(``tie_break``): the clock's last hands decide on the higher total, and a play-off is
decided by whole hands, never by a play that passes the target."""

from __future__ import annotations

import random

import pytest

from allfives import HandState, Move, Rules
from allfives.chances import HandBook, chances_after_hand, chances_in_hand, playing_off

EXTRA_HAND = Rules.from_json({"tie_break": "extra_hand"})


def _one_hand_share(book: HandBook, totals_x2: list[int], leader: int) -> float:
    """Seat 0's exact share of the win over the book's hands for this leader, when the
    next hand is the last the clock allows: the first side to the target wins at that
    play (R22), else the higher total after the hand; equal totals share."""
    target = book.target_x2
    shares = 0.0
    hands = book.hands[leader]
    for hand in hands:
        totals = totals_x2[:]
        won: list[int] = []
        for side, x2 in hand.plays:
            totals[side] += x2
            if totals[side] >= target:
                won = [side]
                break
        if not won:
            for side, x2 in enumerate(hand.bonus_x2):
                totals[side] += x2
            best = max(totals)
            won = [side for side, total in enumerate(totals) if total == best]
        shares += (1.0 / len(won)) if 0 in won else 0.0
    return shares / len(hands)


def test_once_the_clocks_hands_are_played_the_higher_total_has_won() -> None:
    # Given a two-player book without a tie-break
    book = HandBook.build(players=2, rules=Rules(), greed=(0.5, 0.5), hands=20)
    # When no hand is left on the clock
    ahead = chances_after_hand(
        book, totals_x2=[100, 120], next_leader=0, rng=random.Random(), hands_left=0
    )
    level = chances_after_hand(
        book, totals_x2=[100, 100], next_leader=0, rng=random.Random(), hands_left=0
    )
    # Then the higher total has won and a tie shares the win, with no doubt
    assert (ahead.chances, ahead.standard_error, ahead.samples) == ((0.0, 1.0), 0.0, 0)
    assert (level.chances, level.samples) == ((0.5, 0.5), 0)


def test_with_one_hand_left_the_chance_is_the_books_share_of_that_hand() -> None:
    # Given an even two-player book and side 0 twenty points ahead, far from the target
    book = HandBook.build(players=2, rules=Rules(), greed=(0.5, 0.5), hands=600, seed="clock")
    totals = [300, 260]
    # When time is called with one hand left, and when no clock is called
    last = chances_after_hand(
        book, totals_x2=totals, next_leader=1, rng=random.Random(5), hands_left=1
    )
    open_ended = chances_after_hand(book, totals_x2=totals, next_leader=1, rng=random.Random(5))
    # Then the estimate is the exact share of the book's hands within four standard
    # errors, and the lead is worth much more with one hand left than over a whole match
    exact = _one_hand_share(book, totals, leader=1)
    assert last.chances[0] == pytest.approx(exact, abs=4 * max(last.standard_error, 0.005))
    assert last.chances[0] > open_ended.chances[0] + 0.1


def test_a_tie_when_the_clock_runs_out_is_played_off_under_the_tie_break() -> None:
    # Given a strong player against a random one, level when the clock's hands are done
    strong = (1.0, 0.0)
    played_off = HandBook.build(players=2, rules=EXTRA_HAND, greed=strong, hands=400)
    shared = HandBook.build(players=2, rules=Rules(), greed=strong, hands=400)
    # When the chances are read
    decided = chances_after_hand(
        played_off, totals_x2=[300, 300], next_leader=0, rng=random.Random(6), hands_left=0
    )
    tied = chances_after_hand(
        shared, totals_x2=[300, 300], next_leader=0, rng=random.Random(6), hands_left=0
    )
    # Then the tie-break plays it off, which the stronger player wins more often; without
    # it the tie stands, shared
    assert playing_off(EXTRA_HAND, 2, [300, 300], 0)
    assert decided.samples > 0
    assert decided.chances[0] > 0.6
    assert sum(decided.chances) == pytest.approx(1.0)
    assert tied.chances == (0.5, 0.5)


def test_a_tie_past_the_target_is_played_off_not_shared() -> None:
    # Given a three-player split that left two sides level past the target (200 each)
    book = HandBook.build(players=3, rules=EXTRA_HAND, greed=(0.5, 0.5, 0.5), hands=300)
    totals = [410, 410, 300]
    # When the chances are read with no clock called
    forecast = chances_after_hand(
        book, totals_x2=totals, next_leader=None, rng=random.Random(7), max_se=0.02
    )
    # Then the play-off is simulated: the third side, 55 points behind, can still win it
    # only by getting ahead of both in whole hands; the level sides share the rest evenly
    assert playing_off(EXTRA_HAND, 3, totals, None)
    assert forecast.samples > 0
    assert forecast.chances[2] < 0.2
    assert forecast.chances[0] == pytest.approx(forecast.chances[1], abs=0.08)


def test_no_play_ends_a_play_off_hand_in_the_middle() -> None:
    # Given a play-off hand between players level on 245, where seat 0 led the 5-5 and
    # so stands ten points up, past the target of 250
    book = HandBook.build(players=2, rules=EXTRA_HAND, greed=(0.5, 0.5), hands=300)
    hand = HandState(2, 0, rules=EXTRA_HAND)
    hand.apply(Move.play(0, "5-5"))
    # When the chances are read as a play-off hand
    forecast = chances_in_hand(
        book, state=hand, totals_x2=[510, 490], rng=random.Random(8), max_se=0.02, deciding=True
    )
    # Then the match is not over at that play: seat 0 is the favourite for the whole hand,
    # and seat 1 can still finish it ahead
    assert forecast.samples > 0
    assert 0.5 < forecast.chances[0] < 0.95
    assert forecast.chances[1] > 0.05


def test_the_clocks_last_hand_in_progress_decides_on_the_totals() -> None:
    # Given the clock's last hand in progress, side 0 well ahead and far from the target
    book = HandBook.build(players=2, rules=Rules(), greed=(0.5, 0.5), hands=300)
    hand = HandState(2, 1)
    hand.apply(Move.play(1, "6-6"))
    # When the chances are read with this hand the last, and with no clock
    last = chances_in_hand(
        book, state=hand, totals_x2=[300, 200], rng=random.Random(9), max_se=0.02, hands_left=1
    )
    open_ended = chances_in_hand(
        book, state=hand, totals_x2=[300, 200], rng=random.Random(9), max_se=0.02
    )
    # Then a fifty-point lead with one hand to go is close to a win, worth more than
    # over the rest of a whole match
    assert last.chances[0] > 0.85
    assert last.chances[0] > open_ended.chances[0] + 0.1
