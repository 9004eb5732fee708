"""How simulated players choose among their legal plays.

A strategy picks one play from the options a `HandState` offers a seat that
holds a fitting tile (R13 forces a play; which one is free). Drawing and
passing are never a choice (R14, R15), so strategies only rank plays.

- ``random``: uniformly among the legal (tile, end) plays.
- ``greedy``: the best immediate score (R12), then the heaviest tile (shedding
  pips that would count against the side at the end, R18-R20), then the first
  in engine order (tile index, then end W, E, N, S), so it is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Final

from allfives.hand import HandState
from allfives.layout import END_NAMES, SCORE
from allfives.moves import Move
from allfives.tiles import PIPS, Tile

__all__ = ["STRATEGIES", "Strategy", "choose_greedy", "choose_move", "choose_random"]

#: (state, options as (tile index, end index), rng) -> the chosen option.
Strategy = Callable[[HandState, list[tuple[int, int]], random.Random], tuple[int, int]]


def choose_random(
    state: HandState, options: list[tuple[int, int]], rng: random.Random
) -> tuple[int, int]:
    """Any legal play, uniformly."""
    return options[int(rng.random() * len(options))]


def choose_greedy(
    state: HandState, options: list[tuple[int, int]], rng: random.Random
) -> tuple[int, int]:
    """The play scoring most now, then the heaviest tile."""
    count_after = state.layout.count_after
    best = options[0]
    best_key = -1
    for option in options:
        key = SCORE[count_after(option[0], option[1])] * 16 + PIPS[option[0]]
        if key > best_key:
            best_key = key
            best = option
    return best


#: The strategies by name, as the CLI and `simulate_match` take them.
STRATEGIES: Final[Mapping[str, Strategy]] = {"random": choose_random, "greedy": choose_greedy}


def choose_move(state: HandState, strategy: str, rng: random.Random) -> Move:
    """The move a simulated player of `strategy` makes now (a draw or pass when
    nothing fits). Needs a deal and a hand still in play.

    >>> hand = HandState(4, 0, deal=[["5-5", "0-1", "0-2", "0-3", "0-4"],
    ...     ["1-1", "1-2", "1-3", "1-4", "1-5"], ["2-2", "2-3", "2-4", "2-5", "2-6"],
    ...     ["3-3", "3-4", "3-5", "3-6", "4-4"]])
    >>> choose_move(hand, "greedy", random.Random(1))
    Move.parse({'seat': 0, 'play': '5-5'})
    """
    seat = state.turn
    if seat is None:
        raise ValueError("the hand is over")
    options = state.options(seat)
    if not options:
        return Move.draw(seat) if state.boneyard_count else Move.pass_turn(seat)
    t, e = STRATEGIES[strategy](state, options, rng)
    return Move.play(seat, Tile.from_index(t), None if e < 0 else END_NAMES[e])
