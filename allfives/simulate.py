"""Simulated matches: complete tile-by-tile scoresheets with their deals.

`simulate_match` plays one match between simulated players (a strategy per
seat, see `allfives.strategies`) and returns its scoresheet document, deals
and every move included, so that `check` reproduces its scores exactly. All
randomness — the first leader by lot (R5), the shuffle, the tile drawn, the
leader after a block (R21) and random players' choices — comes from the given
`random.Random`, so a seed fixes the match. `simulate_matches` gives match
*k* of a run its own generator seeded from ``(seed, k)``, so any one match can
be replayed alone. Moves are made through `HandState`: players choose among
its `options` (the legal plays), draws and passes go through its checks, so
the simulation obeys the rules that entry checks.

A simulated scoresheet names the end of every play and the face of every
draw, and leaves out the closing passes of a blocked hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from allfives.hand import HandState, deal_tiles
from allfives.layout import END_NAMES
from allfives.match import MatchState
from allfives.moves import PASS_FIELD
from allfives.rules import Rules, check_players
from allfives.scoresheet import FORMAT
from allfives.strategies import STRATEGIES, Strategy
from allfives.tiles import BIT, LOW, TEXT

__all__ = [
    "HandStats",
    "MatchStats",
    "SimulatedMatch",
    "simulate_match",
    "simulate_matches",
    "summarize",
]


@dataclass(slots=True)
class HandStats:
    """What the simulator saw in one hand."""

    end: str
    play_points_x2: int
    bonus_x2: int
    moves: int
    #: The sides' totals after the hand (half-points) and who leads the next one
    #: (None: by lot, or the match is over).
    totals_x2: tuple[int, ...] = ()
    next_leader: int | None = None


@dataclass(slots=True)
class MatchStats:
    """What the simulator saw in one match (sides' totals in half-points)."""

    hands: list[HandStats] = field(default_factory=list)
    totals_x2: dict[int, int] = field(default_factory=dict)
    winners: list[int] = field(default_factory=list)


@dataclass(slots=True)
class SimulatedMatch:
    """A simulated scoresheet and the simulator's own account of it."""

    document: dict[str, object]
    stats: MatchStats


def _strategies(players: int, strategies: Sequence[str | Strategy]) -> list[Strategy]:
    names = list(strategies)
    if len(names) == 1:
        names *= players
    if len(names) != players or any(
        isinstance(name, str) and name not in STRATEGIES for name in names
    ):
        raise ValueError(
            f"give one strategy or one per seat ({players}), each of {sorted(STRATEGIES)}"
        )
    return [STRATEGIES[name] if isinstance(name, str) else name for name in names]


def play_match(
    *, players: int, rules: Rules, rng: random.Random, strategies: Sequence[str | Strategy]
) -> SimulatedMatch:
    """Simulate one match; the document and the simulator's statistics. A strategy is
    a name of `STRATEGIES` or a `Strategy` itself."""
    players = check_players(players)
    choosers = _strategies(players, strategies)
    match = MatchState(players, rules)
    stats = MatchStats()
    hands_json: list[object] = []
    leader = rng.randrange(players)  # R5: the first lead by lot
    while True:
        dealt, boneyard = deal_tiles(players, rules, rng)
        masks = [sum(map(BIT.__getitem__, hand)) for hand in dealt]  # distinct tiles
        state = HandState.from_masks(players, leader, rules, masks)
        moves: list[dict[str, object]] = []
        play_x2 = 0
        over = False
        # The options are legal by construction (R7-R14), so plays skip the checks of
        # `HandState.play`; every simulated scoresheet is checked again by the tests.
        lay = state.lay
        draw = state.draw
        options_for = state.options
        score_play = match.score_play
        add = moves.append
        while not state.end_code:
            seat = state._turn
            options = options_for(seat)
            if options:
                if len(options) == 1:
                    t, e = options[0]
                else:
                    t, e = choosers[seat](state, options, rng)
                points = lay(seat, t, e, LOW[t])
                if e < 0:
                    add({"seat": seat, "play": TEXT[t]})
                else:
                    add({"seat": seat, "play": TEXT[t], "end": END_NAMES[e]})
                if points:
                    play_x2 += points + points
                    if score_play(seat, points):
                        over = True
                        break
            elif state.boneyard_count:
                t = boneyard.pop()
                draw(seat, t)
                add({"seat": seat, "draw": TEXT[t]})
            else:
                state.pass_turn(seat)
                add({"seat": seat, **PASS_FIELD})
        hands_json.append(
            {
                "leader": leader,
                "deal": [list(map(TEXT.__getitem__, hand)) for hand in dealt],
                "moves": moves,
            }
        )
        if over:
            totals = tuple(match.totals_x2.values())
            stats.hands.append(HandStats("target", play_x2, 0, len(moves), totals))
            break
        settlement = state.settle_pips(state.left_pips({}))
        match.settle(settlement)
        match.end_hand(state.went_out)
        stats.hands.append(
            HandStats(
                settlement.end,
                play_x2,
                sum(settlement.bonus_x2.values()),
                len(moves),
                tuple(match.totals_x2.values()),
                match.next_leader,
            )
        )
        if match.is_over:
            break
        # R21: the player who went out leads; after a block, a new lot.
        next_leader = match.next_leader
        leader = rng.randrange(players) if next_leader is None else next_leader
    stats.totals_x2 = match.totals_x2
    stats.winners = list(match.winners)
    document: dict[str, object] = {
        "format": FORMAT,
        "players": players,
        "rules": rules.to_json(),
        "hands": hands_json,
    }
    return SimulatedMatch(document, stats)


def simulate_match(
    *, players: int, rules: Rules, rng: random.Random, strategies: Sequence[str]
) -> dict[str, object]:
    """A complete simulated tile-by-tile scoresheet, deals included.

    >>> doc = simulate_match(players=3, rules=Rules(), rng=random.Random(7),
    ...                      strategies=["greedy", "random", "random"])
    >>> from allfives.scoresheet import check
    >>> check(doc)["finished"]
    True
    """
    return play_match(players=players, rules=rules, rng=rng, strategies=strategies).document


def simulate_matches(
    *,
    players: int,
    matches: int,
    seed: int | str,
    rules: Rules | None = None,
    strategies: Sequence[str] = ("random",),
) -> Iterator[SimulatedMatch]:
    """Simulate `matches` matches; match k uses ``random.Random(f"{seed}:{k}")``."""
    rules = rules if rules is not None else Rules()
    for k in range(matches):
        # A game's randomness, not cryptography.
        rng = random.Random(f"{seed}:{k}")  # nosec B311
        yield play_match(players=players, rules=rules, rng=rng, strategies=strategies)


def summarize(results: Sequence[MatchStats]) -> dict[str, object]:
    """Figures over simulated matches: points per hand from plays and from hand ends,
    hands per match, the blocked rate and the tied matches (R22)."""
    hands = [hand for match in results for hand in match.hands]
    count = len(hands) or 1
    ends = {end: sum(1 for hand in hands if hand.end == end) for end in ("domino", "blocked")}
    ends["target"] = sum(1 for hand in hands if hand.end == "target")
    return {
        "matches": len(results),
        "hands": len(hands),
        "play_points_per_hand": round(sum(h.play_points_x2 for h in hands) / 2 / count, 3),
        "hand_end_points_per_hand": round(sum(h.bonus_x2 for h in hands) / 2 / count, 3),
        "hands_per_match": round(len(hands) / (len(results) or 1), 3),
        "moves_per_hand": round(sum(h.moves for h in hands) / count, 3),
        "blocked_rate": round(ends["blocked"] / count, 4),
        "ends": ends,
        "ties": sum(1 for match in results if len(match.winners) > 1),
    }
