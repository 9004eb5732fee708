"""Settlement of a hand: the end-of-hand points from the remaining pips (R18-R20).

Pure functions of the pips each seat still holds. Pips are pooled per side and
over all opponents first, then rounded once to the nearest multiple of five
(R18: a remainder of 1 or 2 rounds down, 3 or 4 up). Points are returned in
exact *half-points* (`bonus_x2`, keyed by side) because the three-player split
of R20 can give 7.5.

- Domino (R19): the side that went out scores its opponents' pooled pips.
- Blocked (R20): the single lowest side scores under the rule set's award,
  ``"opponents"`` (the others' pooled pips) or ``"difference"`` (with two
  sides, their pips minus its own; with three players, the sum over both
  opponents of their pips minus its own). A tie for lowest scores nothing with
  two sides; with three players exactly two tied share the third's rounded
  pips (or the third's minus theirs) half each; **Decision**: a three-way tie
  scores nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

from allfives.rules import BlockedAward, side_of, side_seats, sides_of
from allfives.tiles import TOTAL_PIPS, mask_pips

__all__ = [
    "HandEnd",
    "Settlement",
    "round_to_five",
    "settle_blocked",
    "settle_domino",
    "settle_domino_masks",
]

HandEnd = Literal["domino", "blocked"]


def round_to_five(pips: int) -> int:
    """Round a pip total once to the nearest multiple of five (R18).

    >>> [round_to_five(n) for n in (12, 13, 2, 39, 0)]
    [10, 15, 0, 40, 0]
    """
    return (pips + 2) // 5 * 5


@dataclass(frozen=True, slots=True)
class Settlement:
    """How a hand ended and who scores what for it.

    `hand_winner` lists seats (both partners at four players, the two tied
    players of a three-player split, none when nobody scores); `bonus_x2` maps
    each scoring side to its end-of-hand points in half-points.
    """

    end: HandEnd
    hand_winner: tuple[int, ...]
    bonus_x2: Mapping[int, int]


def settle_domino(*, winner: int, pips: Sequence[int | None], players: int) -> Settlement:
    """R19: the seat that went out; `pips` per seat (the winner's side may be None).

    >>> settle_domino(winner=2, pips=[13, 13, 0], players=3).bonus_x2
    {2: 50}
    """
    side = side_of(winner, players)
    pooled = 0
    for seat, held in enumerate(pips):
        if side_of(seat, players) != side:
            if held is None:
                raise ValueError(f"the pips of seat {seat} are needed")
            pooled += held
    return Settlement("domino", side_seats(side, players), {side: 2 * round_to_five(pooled)})


#: The seats whose pips a domino by each seat scores (R19), by table size.
_OPPONENTS: Final = {
    players: tuple(
        tuple(seat for seat in range(players) if side_of(seat, players) != side_of(out, players))
        for out in range(players)
    )
    for players in (2, 3, 4)
}
#: Domino settlements by table size, seat that went out and the opponents' pips: one
#: shared (read-only) object for each, made when first met.
_DOMINOES: Final[dict[int, tuple[list[Settlement | None], ...]]] = {
    players: tuple([None] * (TOTAL_PIPS + 1) for _ in range(players)) for players in (2, 3, 4)
}


def settle_domino_masks(hands: Sequence[int], went_out: int, players: int) -> Settlement:
    """`settle_domino` from the tile masks left in each seat's hand (R19), for the
    engine's fast loops: the result is shared, its `bonus_x2` read-only.

    >>> settle_domino_masks([0, 0b11, 0b100], 0, 3).bonus_x2  # [0|0] [0|1] and [0|2]
    mappingproxy({0: 10})
    """
    pooled = 0
    for seat in _OPPONENTS[players][went_out]:
        pooled |= hands[seat]
    known = _DOMINOES[players][went_out]
    pips = mask_pips(pooled)
    settlement = known[pips]
    if settlement is None:
        made = settle_domino(winner=went_out, pips=[mask_pips(m) for m in hands], players=players)
        settlement = Settlement(made.end, made.hand_winner, MappingProxyType(dict(made.bonus_x2)))
        known[pips] = settlement
    return settlement


def settle_blocked(*, pips: Sequence[int], players: int, award: BlockedAward) -> Settlement:
    """R20: a blocked hand, from every seat's remaining pips.

    >>> settle_blocked(pips=[4, 9, 20], players=3, award="opponents").bonus_x2
    {0: 60}
    >>> settle_blocked(pips=[4, 4, 11], players=3, award="opponents").bonus_x2
    {0: 10, 1: 10}
    """
    side_pips = dict.fromkeys(sides_of(players), 0)
    for seat, held in enumerate(pips):
        side_pips[side_of(seat, players)] += held
    lowest = min(side_pips.values())
    low_sides = [side for side, held in side_pips.items() if held == lowest]
    others = [held for side, held in side_pips.items() if held != lowest]
    if len(low_sides) == 1:
        side = low_sides[0]
        if award == "opponents":
            points = round_to_five(sum(others))
        else:
            points = round_to_five(sum(held - lowest for held in others))
        return Settlement("blocked", side_seats(side, players), {side: 2 * points})
    if len(low_sides) == 2 and others:  # three players, exactly two tied for lowest
        third = others[0]
        points = round_to_five(third if award == "opponents" else third - lowest)
        # Split exactly: half of `points` each, which is `points` in half-points.
        return Settlement("blocked", tuple(low_sides), dict.fromkeys(low_sides, points))
    return Settlement("blocked", (), {})
