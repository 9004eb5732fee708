"""The mapping from ratings to simulated players (``matches.chances``): calibrated, so
that at the start of a match the simulation gives the chance the ratings give."""

from __future__ import annotations

import math
import random

import pytest

from allfives import Rules
from allfives.chances import HandBook, chances_after_hand
from matches.chances import greed_for


def test_greed_grows_with_strength_and_stays_between_random_and_greedy() -> None:
    # Given strengths from far below to far above the table's average
    strengths = [-5.0, -1.0, -0.3, 0.0, 0.3, 1.0, 5.0]
    # When each is mapped to a greed
    greeds = [greed_for(x, players=2) for x in strengths]
    # Then greed grows with strength, 0.5 at the average, clamped to 0..1
    assert greeds == sorted(greeds)
    assert greeds[0] == 0.0 and greeds[-1] == 1.0 and greeds[3] == 0.5


@pytest.mark.parametrize("edge", [0.4, 0.8])
def test_two_sides_mapped_from_their_ratings_win_as_often_as_the_ratings_say(
    edge: float,
) -> None:
    # Given two sides whose ratings make side 0 `edge` stronger in log-weight
    # (ratings.maths.side_strengths: +edge/2 and -edge/2 around the table's mean)
    expected = 1 / (1 + math.exp(-edge))
    greed = (greed_for(edge / 2, players=2), greed_for(-edge / 2, players=2))
    book = HandBook.build(players=2, rules=Rules(), greed=greed, hands=1500, seed="map")
    # When the chance at the start of the match is simulated
    forecast = chances_after_hand(
        book, totals_x2=[0, 0], next_leader=None, rng=random.Random(9), max_se=0.01
    )
    # Then it is the ratings' chance, within the curve's rounding and the estimate's error
    assert forecast.chances[0] == pytest.approx(expected, abs=0.05)
