"""Simulated matches: complete tile-by-tile scoresheets with their deals.

`simulate_match` plays one match between simulated players (a strategy per
seat, see `allfives.strategies`) and returns its scoresheet document, deals
and every move included, so that `check` reproduces its scores exactly. All
randomness — the first leader by lot (R5), the shuffle, the tile drawn, the
leader after a block (R21) and random players' choices — comes from the given
`random.Random`, so a seed fixes the match. `simulate_matches` gives match
*k* of a run its own generator seeded from ``(seed, k)``, so any one match can
be replayed alone.

For speed the match is played in one loop over local state (tile masks, the
open ends, the spinner, as `allfives.dealt` replays a hand), not through
`HandState`: a seat's options are listed in `HandState.options`' order, a
choice among two or more is `choose_random`'s or `choose_greedy`'s, and the
rng is drawn on exactly as a play through `HandState` would draw on it. The
tests play the same seeds through `HandState.apply` and `choose_move` and
require the same scoresheets, move for move, and `check` accepts every one.

The loop looks for a block (R16) only when the seat to move has no play and
the boneyard is empty, not after every play: a block needs an empty boneyard
and nobody holding a tile that fits, so the seat to move after the play or
draw that blocks the hand is the first to meet it, before any move is
recorded or any random number drawn, as `HandState` ends the hand there.

A simulated scoresheet names the end of every play and the face of every
draw, and leaves out the closing passes of a blocked hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from allfives.hand import PLAYS_AT, HandState, deal_tiles
from allfives.layout import END_NAMES, SCORE
from allfives.match import MatchState
from allfives.moves import PASS_FIELD
from allfives.rules import Rules, check_players, side_of
from allfives.scoresheet import FORMAT
from allfives.settlement import Settlement, settle_blocked, settle_domino_masks
from allfives.strategies import STRATEGIES, Strategy, choose_greedy, choose_random
from allfives.tiles import BIT, IS_DOUBLE, LOW, OTHER, PIP_MASK_OR_NONE, PIPS, TEXT, mask_pips

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


_FITS: Final = PIP_MASK_OR_NONE
_TILES: Final = range(28)
#: _GAIN[t][p]: what tile t adds to the count laid on an end showing p (R8, R11).
_GAIN: Final = tuple(
    tuple(
        -99 if OTHER[t * 7 + p] < 0 else OTHER[t * 7 + p] * (2 if IS_DOUBLE[t] else 1)
        for p in range(7)
    )
    for t in range(28)
)
_AT_W, _AT_E, _AT_N, _AT_S = PLAYS_AT


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


def _hand_settle(
    match: MatchState,
    stats: MatchStats,
    settlement: Settlement,
    went_out: int | None,
    play_x2: int,
    moves: int,
    rng: random.Random,
) -> int | None:
    """Settle a hand that ended in a domino or a block and record it; the next hand's
    leader, or None when the match is over."""
    match.settle(settlement)
    match.end_hand(went_out)
    stats.hands.append(
        HandStats(
            settlement.end,
            play_x2,
            sum(settlement.bonus_x2.values()),
            moves,
            tuple(match.totals_x2.values()),
            match.next_leader,
        )
    )
    if match.is_over:
        return None
    # R21: the player who went out leads; after a block, a new lot.
    next_leader = match.next_leader
    return rng.randrange(match.players) if next_leader is None else next_leader


def _simulated(
    match: MatchState, stats: MatchStats, rules: Rules, hands_json: list[object]
) -> SimulatedMatch:
    """The simulated scoresheet and statistics of a match that is over."""
    stats.totals_x2 = match.totals_x2
    stats.winners = list(match.winners)
    document: dict[str, object] = {
        "format": FORMAT,
        "players": match.players,
        "rules": rules.to_json(),
        "hands": hands_json,
    }
    return SimulatedMatch(document, stats)


def play_match(
    *, players: int, rules: Rules, rng: random.Random, strategies: Sequence[str | Strategy]
) -> SimulatedMatch:
    """Simulate one match; the document and the simulator's statistics. A strategy is
    a name of `STRATEGIES` or a `Strategy` itself."""
    players = check_players(players)
    choosers = _strategies(players, strategies)
    if rules.tie_break is not None or any(
        chooser not in (choose_random, choose_greedy) for chooser in choosers
    ):
        # A tie played off goes past the target: only MatchState follows it.
        return _play_match_with(players=players, rules=rules, rng=rng, choosers=choosers)
    # The loop below plays `choose_random` and `choose_greedy` inline, on its own state.
    greedy = [chooser is choose_greedy for chooser in choosers]
    match = MatchState(players, rules)
    stats = MatchStats()
    hands_json: list[object] = []
    sides = [side_of(seat, players) for seat in range(players)]
    after = [seat + 1 if seat + 1 < players else 0 for seat in range(players)]
    target_x2 = match.target * 2
    award = rules.blocked_award
    random_ = rng.random
    size = rules.hand_size(players)
    cuts = [(seat * size, seat * size + size) for seat in range(players)]
    leader = rng.randrange(players)  # R5: the first lead by lot
    while True:
        # `deal_tiles`, inline: the same draws from `rng`, so the same deal.
        keys = [random_() for _ in _TILES]
        order = sorted(_TILES, key=keys.__getitem__)
        dealt = [sorted(order[start:stop]) for start, stop in cuts]
        boneyard = order[players * size :]
        # Comprehensions rather than map(BIT.__getitem__, ...): a tuple's bound
        # __getitem__ is a slot wrapper, slower to call than the loop's own indexing.
        hands = [sum([BIT[t] for t in hand]) for hand in dealt]  # distinct tiles
        totals = match.totals_x2
        points_x2 = [0] * len(totals)
        moves: list[dict[str, object]] = []
        add = moves.append
        play_x2 = 0
        over = False
        went_out: int | None = None
        # The lead (R6): any tile of the leader's hand, laid with its low half west.
        seat = leader
        lead = dealt[seat]  # in tile order, as `HandState.options` lists them
        if len(lead) == 1:
            t = lead[0]
        elif greedy[seat]:  # the lead scores its own pips (R11, R12)
            t = lead[0]
            best_key = -1
            for tile in lead:
                key = SCORE[PIPS[tile]] * 16 + PIPS[tile]
                if key > best_key:
                    best_key = key
                    t = tile
        else:
            t = lead[int(random_() * len(lead))]
        west = LOW[t]
        east = OTHER[t * 7 + west]
        # The layout as in `allfives.dealt`: each end's pips and share of the count, and
        # the spinner (R9) with its uncovered straight sides (bit e: end e).
        pips = [west, east, -1, -1]
        if west == east:
            contrib = [0, 0, 0, 0]
            has_spinner = True
            spin_ends = 3
            spin_value = west + east
        else:
            contrib = [west, east, 0, 0]
            has_spinner = False
            spin_ends = 0
            spin_value = 0
        count = west + east
        left = hands[seat] ^ BIT[t]
        hands[seat] = left
        add({"seat": seat, "play": TEXT[t]})
        points = SCORE[count]
        ended = False
        if points:
            play_x2 += points + points
            side = sides[seat]
            points_x2[side] += points + points
            over = totals[side] + points_x2[side] >= target_x2  # R22
        if not left:  # R16: a one-tile hand
            went_out = seat
            ended = True
        seat = after[seat]
        free_count = len(boneyard)
        if not over and not ended and not free_count:
            fits = _FITS[pips[0]] | _FITS[pips[1]]
            ended = not any(mask & fits for mask in hands)
        ended = ended or over
        while not ended:
            hand = hands[seat]
            w, e, n, s = pips
            options: list[tuple[int, int]] = []
            fits = hand & _FITS[w]
            if fits:
                options += _AT_W[fits]
            fits = hand & _FITS[e]
            if fits:
                options += _AT_E[fits]
            fits = hand & _FITS[n]
            if fits:
                options += _AT_N[fits]
            fits = hand & _FITS[s]
            if fits:
                options += _AT_S[fits]
            if not options:
                if free_count:  # R14: draw; a drawn tile that fits is laid next
                    t = boneyard.pop()
                    free_count -= 1
                    hands[seat] = hand | BIT[t]
                    add({"seat": seat, "draw": TEXT[t]})
                    continue
                # R16: blocked when nobody holds a tile that fits. With the boneyard
                # empty a block can only follow a play or the last draw, and the seat
                # to move is the first to meet it, so it is seen here, before a pass.
                fits = _FITS[w] | _FITS[e] | _FITS[n] | _FITS[s]
                for mask in hands:
                    if mask & fits:
                        break
                else:
                    break
                add({"seat": seat, **PASS_FIELD})  # R15: pass
                seat = after[seat]
                continue
            if len(options) == 1:
                t, e = options[0]
            elif greedy[seat]:
                # `choose_greedy`, with the count after each play as `Layout.count_after`.
                best_key = -1
                for ot, oe in options:
                    after_count = count - contrib[oe] + _GAIN[ot][pips[oe]]
                    if spin_ends and spin_ends >> oe & 1 and spin_ends != 3:
                        after_count -= spin_value  # the spinner's last straight side
                    key = SCORE[after_count] * 16 + PIPS[ot]
                    if key > best_key:
                        best_key = key
                        t = ot
                        e = oe
            else:
                t, e = options[int(random_() * len(options))]
            # Lay tile t on end e (Layout.place).
            outer = OTHER[t * 7 + pips[e]]
            pips[e] = outer
            count -= contrib[e]
            if spin_ends and spin_ends >> e & 1:  # covering a straight side of the spinner
                spin_ends ^= 1 << e
                if not spin_ends:  # R10: both sides held, the branches open
                    count -= spin_value
                    pips[2] = pips[3] = spin_value >> 1
            if IS_DOUBLE[t]:
                if not has_spinner:  # R9: the first double is the spinner
                    has_spinner = True
                    spin_ends = 1 << e
                    spin_value = outer + outer
                    contrib[e] = 0
                else:  # R8: a double at an end counts both halves
                    contrib[e] = outer + outer
                count += outer + outer
            else:
                contrib[e] = outer
                count += outer
            left = hand - BIT[t]  # held, so its bit is set
            hands[seat] = left
            add({"seat": seat, "play": TEXT[t], "end": END_NAMES[e]})
            points = SCORE[count]
            if points:
                play_x2 += points + points
                side = sides[seat]
                points_x2[side] += points + points
                if totals[side] + points_x2[side] >= target_x2:  # R22
                    over = True
                    break
            if not left:  # R16: domino
                went_out = seat
                break
            seat = after[seat]
        hands_json.append(
            {
                "leader": leader,
                "deal": [[TEXT[t] for t in hand] for hand in dealt],
                "moves": moves,
            }
        )
        match.add_hand_points(points_x2)
        if over:
            totals_after = tuple(match.totals_x2.values())
            stats.hands.append(HandStats("target", play_x2, 0, len(moves), totals_after))
            break
        if went_out is not None:
            settlement = settle_domino_masks(hands, went_out, players)
        else:
            left_pips = [mask_pips(mask) for mask in hands]
            settlement = settle_blocked(pips=left_pips, players=players, award=award)
        following = _hand_settle(match, stats, settlement, went_out, play_x2, len(moves), rng)
        if following is None:
            break
        leader = following
    return _simulated(match, stats, rules, hands_json)


def _play_match_with(
    *, players: int, rules: Rules, rng: random.Random, choosers: Sequence[Strategy]
) -> SimulatedMatch:
    """`play_match` for strategies of the caller's own (`Strategy` functions): played on a
    `HandState`, which the strategies read; slower than the inline loop of the built-in
    two, and drawing from `rng` in the same order."""
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
                "deal": [[TEXT[t] for t in hand] for hand in dealt],
                "moves": moves,
            }
        )
        if over:
            totals = tuple(match.totals_x2.values())
            stats.hands.append(HandStats("target", play_x2, 0, len(moves), totals))
            break
        settlement = state.settle_pips(state.left_pips({}))
        following = _hand_settle(match, stats, settlement, state.went_out, play_x2, len(moves), rng)
        if following is None:
            break
        leader = following
    return _simulated(match, stats, rules, hands_json)


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
