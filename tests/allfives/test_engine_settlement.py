"""End-of-hand points (R18-R20), every branch, checked against the rule text."""

from __future__ import annotations

import itertools

import pytest

from allfives import round_to_five
from allfives.settlement import Settlement, settle_blocked, settle_domino
from tests.allfives.engine_helpers import reference_settlement, round5


@pytest.mark.parametrize(
    ("pips", "rounded"), [(12, 10), (13, 15), (2, 0), (0, 0), (39, 40), (41, 40), (44, 45)]
)
def test_r18_round_once_to_the_nearest_five(pips: int, rounded: int) -> None:
    assert round_to_five(pips) == rounded


def test_r18_rounding_matches_the_rule_text_everywhere() -> None:
    assert all(round_to_five(n) == round5(n) for n in range(400))


def test_r18_opponents_are_pooled_before_rounding() -> None:
    # Three opponents with 13 each: round(39) = 40, not 3 x round(13) = 45.
    assert round_to_five(13 + 13 + 13) == 40 != 3 * round_to_five(13)
    # The same at the table: two opponents with 13 each give 25, not 30.
    assert settle_domino(winner=0, pips=[0, 13, 13], players=3).bonus_x2 == {0: 2 * 25}


@pytest.mark.parametrize(
    ("players", "winner", "pips", "hand_winner", "bonus"),
    [
        (2, 1, [17, 0], (1,), {1: 15}),
        (3, 2, [9, 14, 0], (2,), {2: 25}),
        (4, 3, [8, 0, 30, 0], (1, 3), {1: 40}),  # seat 1's pips never count for seat 3
        (4, 0, [0, 1, 9, 1], (0, 2), {0: 0}),
    ],
)
def test_r19_domino_scores_the_opponents_pooled_pips(
    players: int, winner: int, pips: list[int], hand_winner: tuple[int, ...], bonus: dict[int, int]
) -> None:
    settlement = settle_domino(winner=winner, pips=pips, players=players)
    assert settlement == Settlement(
        "domino", hand_winner, {side: 2 * points for side, points in bonus.items()}
    )


def test_r19_the_partner_may_be_unknown() -> None:
    assert settle_domino(winner=1, pips=[6, 0, 7, None], players=4).bonus_x2 == {1: 2 * 15}
    with pytest.raises(ValueError):
        settle_domino(winner=1, pips=[None, 0, 7, 3], players=4)


@pytest.mark.parametrize(
    ("players", "pips", "award", "hand_winner", "bonus_x2"),
    [
        # A single lowest side, both awards, at each player count.
        (2, [10, 23], "opponents", (0,), {0: 50}),
        (2, [10, 23], "difference", (0,), {0: 30}),  # 13 -> 15
        (3, [4, 9, 20], "opponents", (0,), {0: 60}),  # 29 -> 30
        (3, [4, 9, 20], "difference", (0,), {0: 40}),  # 5 + 16 = 21 -> 20
        (4, [3, 10, 4, 6], "opponents", (0, 2), {0: 30}),  # 7 v 16: 16 -> 15
        (4, [3, 10, 4, 6], "difference", (0, 2), {0: 20}),  # 9 -> 10
        # Ties for lowest with two sides: nobody scores.
        (2, [11, 11], "opponents", (), {}),
        (2, [11, 11], "difference", (), {}),
        (4, [5, 4, 6, 7], "opponents", (), {}),
        (4, [5, 4, 6, 7], "difference", (), {}),
        # Three players, exactly two tied: the third's pips split in halves.
        (3, [4, 4, 11], "opponents", (0, 1), {0: 10, 1: 10}),  # 10 -> 5 each
        (3, [6, 21, 6], "opponents", (0, 2), {0: 20, 2: 20}),
        (3, [4, 4, 19], "difference", (0, 1), {0: 15, 1: 15}),  # 15 -> 7.5 each
        (3, [2, 2, 3], "opponents", (0, 1), {0: 5, 1: 5}),  # 3 -> 5 -> 2.5 each
        # Three-way tie (Decision): nothing.
        (3, [7, 7, 7], "opponents", (), {}),
        (3, [7, 7, 7], "difference", (), {}),
    ],
)
def test_r20_blocked_hands(
    players: int,
    pips: list[int],
    award: str,
    hand_winner: tuple[int, ...],
    bonus_x2: dict[int, int],
) -> None:
    settlement = settle_blocked(pips=pips, players=players, award=award)  # type: ignore[arg-type]
    assert settlement == Settlement("blocked", hand_winner, bonus_x2)


def test_r20_r19_agree_with_the_rule_text_on_every_small_case() -> None:
    for players in (2, 3, 4):
        for pips in itertools.product(range(0, 26, 3), repeat=players):
            for award in ("opponents", "difference"):
                ours = settle_blocked(pips=pips, players=players, award=award)  # type: ignore[arg-type]
                seats, bonus = reference_settlement(
                    end="blocked", pips=pips, players=players, award=award, went_out=None
                )
                assert list(ours.hand_winner) == seats
                assert {side: x2 / 2 for side, x2 in ours.bonus_x2.items()} == bonus
            ours = settle_domino(winner=players - 1, pips=pips, players=players)
            seats, bonus = reference_settlement(
                end="domino", pips=pips, players=players, award="opponents", went_out=players - 1
            )
            assert list(ours.hand_winner) == seats
            assert {side: x2 / 2 for side, x2 in ours.bonus_x2.items()} == bonus
