"""The pure rating maths: one update for every table kind, ties, win probabilities, order.

No Django: these build ``Match`` values by hand.
"""

from __future__ import annotations

import math
import random

import pytest

from ratings.maths import (
    INITIAL,
    Match,
    RatingInputError,
    Skill,
    Update,
    conservative_rating,
    rate_match,
    rate_matches,
    win_probabilities,
)

A, B, C, D = 1, 2, 3, 4


def after(updates: list[Update], subject: int) -> Skill:
    return next(u.after for u in updates if u.subject == subject)


def test_new_player_displays_zero_and_the_winner_of_two_climbs_above_the_loser() -> None:
    # Given two new players
    assert conservative_rating(INITIAL) == pytest.approx(0.0)
    # When A beats B
    updates = rate_match(Match(sides=((A,), (B,)), placings=(1, 2)), {})
    # Then A's mu rises, B's falls by as much, both grow surer
    a, b = after(updates, A), after(updates, B)
    assert a.mu > INITIAL.mu > b.mu
    assert a.mu - INITIAL.mu == pytest.approx(INITIAL.mu - b.mu)
    assert a.sigma < INITIAL.sigma and b.sigma < INITIAL.sigma
    assert a.display > b.display
    assert [u.expected for u in updates] == pytest.approx([0.5, 0.5])


def test_a_tie_between_equals_moves_no_mean() -> None:
    updates = rate_match(Match(sides=((A,), (B,)), placings=(1, 1)), {})
    assert after(updates, A).mu == pytest.approx(INITIAL.mu)
    assert after(updates, B).mu == pytest.approx(INITIAL.mu)
    assert after(updates, A).sigma < INITIAL.sigma


def test_a_tie_with_a_weaker_player_costs_the_stronger_one() -> None:
    skills = {A: Skill(30.0, 4.0), B: Skill(20.0, 4.0)}
    updates = rate_match(Match(sides=((A,), (B,)), placings=(1, 1)), skills)
    assert after(updates, A).mu < 30.0
    assert after(updates, B).mu > 20.0


def test_partners_rise_and_fall_together_at_a_four_player_table() -> None:
    # Given seats 0+2 (A, C) against 1+3 (B, D), all new
    match = Match(sides=((A, C), (B, D)), placings=(1, 2))
    # When A and C win
    updates = rate_match(match, {})
    # Then both winners gain the same and both losers lose the same
    assert after(updates, A) == after(updates, C)
    assert after(updates, B) == after(updates, D)
    assert after(updates, A).mu > INITIAL.mu > after(updates, B).mu
    assert [u.side_index for u in updates] == [0, 0, 1, 1]


def test_the_weaker_partner_moves_more_when_partners_differ_in_certainty() -> None:
    skills = {A: Skill(25.0, 2.0), C: Skill(25.0, 8.0)}
    updates = rate_match(Match(sides=((A, C), (B, D)), placings=(1, 2)), skills)
    assert after(updates, C).mu - 25.0 > after(updates, A).mu - 25.0 > 0


def test_three_players_are_rated_by_placing() -> None:
    updates = rate_match(Match(sides=((A,), (B,), (C,)), placings=(2, 1, 3)), {})
    assert after(updates, B).mu > after(updates, A).mu > after(updates, C).mu
    assert after(updates, B).mu > INITIAL.mu > after(updates, C).mu
    assert [u.expected for u in updates] == pytest.approx([1 / 3] * 3)


def test_three_players_sharing_first_place_gain_alike() -> None:
    updates = rate_match(Match(sides=((A,), (B,), (C,)), placings=(1, 1, 3)), {})
    assert after(updates, A) == after(updates, B)
    assert after(updates, A).mu > INITIAL.mu > after(updates, C).mu


def test_first_place_share_splits_a_shared_first_place() -> None:
    match = Match(sides=((A,), (B,), (C,)), placings=(1, 1, 3))
    assert [match.first_place_share(i) for i in range(3)] == [0.5, 0.5, 0.0]
    assert Match(sides=((A,), (B,)), placings=(2, 1)).first_place_share(1) == 1.0


def test_win_probabilities_sum_to_one_and_favour_the_stronger_side() -> None:
    strong, weak = Skill(30.0, 2.0), Skill(20.0, 2.0)
    two = win_probabilities([[strong], [weak]])
    three = win_probabilities([[weak], [strong], [INITIAL]])
    assert sum(two) == pytest.approx(1.0) and two[0] > 0.5
    assert sum(three) == pytest.approx(1.0) and max(three) == three[1]
    # More uncertainty means a less confident prediction.
    unsure = win_probabilities([[Skill(30.0, 8.0)], [Skill(20.0, 8.0)]])
    assert 0.5 < unsure[0] < two[0]


def test_win_probabilities_match_the_plackett_luce_likelihood() -> None:
    a, b = Skill(28.0, 3.0), Skill(22.0, 4.0)
    c = math.sqrt(3.0**2 + 4.0**2 + 2 * (25 / 6) ** 2)
    expected = 1 / (1 + math.exp(-(28.0 - 22.0) / c))
    assert win_probabilities([[a], [b]])[0] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("sides", "placings"),
    [
        (((A,),), (1,)),
        (((A,), (B,)), (1,)),
        (((A,), ()), (1, 2)),
        (((A,), (A,)), (1, 2)),
        (((A,), (B,)), (0, 1)),
    ],
)
def test_a_malformed_match_is_refused(
    sides: tuple[tuple[int, ...], ...], placings: tuple[int, ...]
) -> None:
    with pytest.raises(RatingInputError):
        Match(sides=sides, placings=placings)


def test_rating_the_same_matches_in_the_same_order_is_bit_for_bit_repeatable() -> None:
    # Given a few hundred random matches of every table kind
    rng = random.Random(10)
    matches = []
    for _ in range(300):
        size = rng.choice((2, 3, 4))
        ids = rng.sample(range(12), size)
        if size == 4:
            matches.append(Match(sides=((ids[0], ids[2]), (ids[1], ids[3])), placings=(1, 2)))
        else:
            placings = tuple(rng.randint(1, size) for _ in ids)
            matches.append(Match(sides=tuple((i,) for i in ids), placings=placings))
    # When they are rated twice, once in two halves with the state carried over
    once: dict[int, Skill] = {}
    list(rate_matches(matches, once))
    halves: dict[int, Skill] = {}
    list(rate_matches(matches[:150], halves))
    carried = dict(halves)
    list(rate_matches(matches[150:], carried))
    # Then the results are identical floats
    assert once == carried
    assert len(once) == 12


def test_a_four_player_table_is_predicted_less_surely_than_a_two_player_one() -> None:
    # Given the same gap in skill, at two seats and (split over partners) at four
    strong, weak = Skill(30.0, 2.0), Skill(20.0, 2.0)
    two = win_probabilities([[strong], [weak]])[0]
    four = win_probabilities([[strong, INITIAL], [weak, INITIAL]])[0]
    # Then four-player luck (a larger beta) pulls the prediction towards even
    assert 0.5 < four < two


def test_partnerships_rated_as_units_use_the_four_player_spread() -> None:
    units = Match(sides=((A,), (B,)), placings=(1, 2), seats=4)
    singles = Match(sides=((A,), (B,)), placings=(1, 2))
    assert units.table_size == 4 and singles.table_size == 2
    # A noisier table teaches less: the winner gains less.
    assert after(rate_match(units, {}), A).mu < after(rate_match(singles, {}), A).mu


def test_a_table_of_five_is_refused() -> None:
    with pytest.raises(RatingInputError):
        Match(sides=((A, B, C), (D, 5)), placings=(1, 2))
