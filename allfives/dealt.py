"""The replay of a tile-by-tile hand with its deal, in one tight loop: `check`'s fast path.

With a deal every hand and the boneyard are known, so a recorded hand is a
fixed sequence of plays, draws and passes that either keeps every rule or
does not. `replay_dealt_hand` walks it with the state in local variables (tile
masks, the four open ends, the spinner) instead of through `HandState` and
`Layout`, and accepts a move only when every check that `HandState.play`,
`draw` and `pass_turn` make passes. At the first move it is not sure of — a
broken rule, an unusual shape (a Mapping that is not a dict, an extra field, a
seat written ``true``), or anything else — it gives up and returns None,
without having touched the match; `allfives.scoresheet` then replays the hand
through `HandState`, which names the error exactly. So this loop only ever
decides *that* a hand is right, never *why* one is wrong, and its result is
the same report the checked replay gives (the tests compare the two on random
and on corrupted scoresheets).

The layout's count is kept as in `allfives.layout` (R8-R11): each end's
contribution apart from the spinner's, which leaves the count once both of the
spinner's straight sides hold a tile (and the branches open with its pips).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from allfives.entry import parse_left
from allfives.layout import SCORE
from allfives.match import MatchState
from allfives.reports import HandReport, PlayJson
from allfives.rules import side_of
from allfives.settlement import settle_blocked, settle_domino_masks
from allfives.tiles import (
    BIT,
    FULL_MASK,
    IS_DOUBLE,
    OTHER,
    PIP_MASK_OR_NONE,
    TEXT_INFO,
    mask_pips,
)

__all__ = ["replay_dealt_hand"]

_FITS: Final = PIP_MASK_OR_NONE
_END_INDEX: Final = {"W": 0, "E": 1, "N": 2, "S": 3}
#: `pending` values, as in `allfives.hand`: nothing drawn, a drawn tile that does not fit.
_NO_DRAW: Final = -1
_DREW_NO_FIT: Final = -2
#: The side of each seat, and the next seat, by table size.
_SIDES: Final = {
    players: tuple(side_of(s, players) for s in range(players)) for players in (2, 3, 4)
}
_NEXT: Final = {players: tuple((s + 1) % players for s in range(players)) for players in (2, 3, 4)}


def _row(t: int) -> tuple[int, ...]:
    """The half of tile `t` opposite each pip value 0-6, -1 where it has no such half,
    and -1 once more at index 7 (= -1), so that a closed end (-1) fits nothing."""
    return (*OTHER[t * 7 : t * 7 + 7], -1)


#: A play's tile as written: (bit, opposite halves, is a double, index).
_PLAY: Final = {text: (BIT[t], _row(t), IS_DOUBLE[t], t) for text, (t, _) in TEXT_INFO.items()}
#: The lead's tile as written: (bit, index, west half, east half).
_LEAD: Final = {
    text: (BIT[t], t, first, OTHER[t * 7 + first]) for text, (t, first) in TEXT_INFO.items()
}
#: A drawn tile: (bit, index).
_DRAW: Final = {text: (BIT[t], t) for text, (t, _) in TEXT_INFO.items()}


def _open_mask(pips: list[int]) -> int:
    return _FITS[pips[0]] | _FITS[pips[1]] | _FITS[pips[2]] | _FITS[pips[3]]


def replay_dealt_hand(
    hand: Mapping[str, object], match: MatchState, leader: int, masks: Sequence[int]
) -> HandReport | None:
    """Replay a hand whose deal `masks` is read and valid, led by `leader` (already
    accepted by `match.start_hand`); the report, with `match` brought up to date, or
    None (and `match` untouched) when the checked replay must judge it."""
    try:
        moves = hand["moves"]
        if type(moves) is not list or not moves:
            return None
        players = match.players
        sides = _SIDES[players]
        after = _NEXT[players]
        totals = match.totals_x2
        target_x2 = match.target * 2
        hands = list(masks)
        free = FULL_MASK ^ sum(hands)  # the deal's masks are disjoint
        boneyard = free.bit_count()
        # The lead (R6): a play by the leader, without an end.
        lead = moves[0]
        if type(lead) is not dict or lead["seat"] is not leader or len(lead) != 2:
            return None
        bit, t, west, east = _LEAD[lead["play"]]
        if not hands[leader] & bit:
            return None
        # The layout: each open end's pips (-1: not open) and its share of the count; the
        # spinner (R9) with its straight sides still uncovered (bit e: end e) and its value.
        pips = [west, east, -1, -1]
        if west == east:  # a double lead is the spinner, at both ends
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
        left = hands[leader] ^ bit
        hands[leader] = left
        score = SCORE  # locals from here on: read on every move
        play_info = _PLAY
        end_index = _END_INDEX
        no_draw = _NO_DRAW
        points = score[count]
        plays: list[PlayJson] = [{"move": 0, "seat": leader, "count": count, "points": points}]
        add_play = plays.append
        points_x2 = [0] * len(totals)
        turn = after[leader]
        pending = no_draw
        went_out: int | None = None
        over = blocked = False
        last = len(moves) - 1
        rest = 1  # where the closing passes of a block begin
        if points:
            side = sides[leader]
            points_x2[side] = points + points
            over = totals[side] + points + points >= target_x2
        ended = over or not left
        if ended:  # R22 at once, or a one-tile hand (R16)
            went_out = None if over else leader
            if last:
                return None
        elif not boneyard:  # R16: with a deal the engine sees a block itself
            open_mask = _open_mask(pips)
            blocked = not any(mask & open_mask for mask in hands)
        if not (ended or blocked):
            for index, move in enumerate(moves[1:], 1):
                if type(move) is not dict:
                    return None
                seat = move["seat"]
                # Identity, not equality: JSON's small ints are the interpreter's own
                # objects, and it keeps out `true`, `1.0` and every other value that
                # equals a seat.
                if seat is not turn:
                    return None
                size = len(move)
                if size == 3:  # a play on the end named (any other third field: None)
                    bit, row, double, t = play_info[move["play"]]
                    e = end_index[move["end"]]
                    outer = row[pips[e]]
                    if outer < 0:
                        return None
                elif size != 2:
                    return None
                elif "play" in move:  # no end named: the only end it fits (R7)
                    bit, row, double, t = play_info[move["play"]]
                    e = -1
                    for end in (0, 1, 2, 3):
                        if row[pips[end]] >= 0:
                            if e >= 0:
                                return None
                            e = end
                    if e < 0:
                        return None
                    outer = row[pips[e]]
                elif "draw" in move:
                    open_mask = _open_mask(pips)
                    if pending >= 0 or hands[seat] & open_mask or not boneyard:
                        return None
                    bit, t = _DRAW[move["draw"]]
                    if not free & bit:
                        return None
                    free ^= bit
                    hands[seat] |= bit
                    pending = t if open_mask & bit else _DREW_NO_FIT
                    boneyard -= 1
                    if not boneyard and pending < 0:
                        blocked = not any(mask & open_mask for mask in hands)
                        if blocked:
                            rest = index + 1
                            break
                    continue
                elif "pass" in move:
                    if (
                        move["pass"] is not True
                        or pending >= 0
                        or boneyard
                        or hands[seat] & _open_mask(pips)
                    ):
                        return None
                    pending = no_draw
                    turn = after[seat]
                    continue
                else:
                    return None
                if not hands[seat] & bit or (pending != no_draw and t != pending):
                    return None  # not held, or not the drawn tile that fits (R14)
                pips[e] = outer
                count -= contrib[e]
                if spin_ends and spin_ends >> e & 1:  # covering a side of the spinner
                    spin_ends ^= 1 << e
                    if not spin_ends:  # R10: both sides held, the branches open
                        count -= spin_value
                        pips[2] = pips[3] = spin_value >> 1
                if double:
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
                left = hands[seat] ^ bit
                hands[seat] = left
                pending = no_draw
                points = score[count]
                add_play({"move": index, "seat": seat, "count": count, "points": points})
                if points:
                    side = sides[seat]
                    gained = points_x2[side] + points + points
                    points_x2[side] = gained
                    if totals[side] + gained >= target_x2:  # R22
                        if index != last:
                            return None
                        over = True
                        break
                if not left:  # R16: domino
                    if index != last:
                        return None
                    went_out = seat
                    break
                turn = after[seat]
                if not boneyard:  # R16: blocked when nobody holds a tile that fits
                    fits = _FITS[pips[0]] | _FITS[pips[1]] | _FITS[pips[2]] | _FITS[pips[3]]
                    for mask in hands:
                        if mask & fits:
                            break
                    else:
                        blocked = True
                        rest = index + 1
                        break
            else:
                return None  # the hand stops before it is over
        if blocked:
            # The closing passes (optional): in turn from the seat to move, one round at most.
            closing = moves[rest:]
            if len(closing) > players:
                return None
            for move in closing:
                if type(move) is not dict or len(move) != 2 or move["seat"] is not turn:
                    return None
                if move["pass"] is not True:
                    return None
                turn = after[turn]
        left_given = hand.get("left")
        if left_given is not None:
            for seat, (is_tiles, value) in parse_left(left_given, players).items():
                if value != (hands[seat] if is_tiles else mask_pips(hands[seat])):
                    return None
    except (KeyError, TypeError, IndexError, AttributeError):
        return None  # a shape the loop does not expect: the checked replay reads it
    if over:
        match.add_hand_points(points_x2)
        match.end_hand(None)
        return HandReport((), "target", [], {}, dict(enumerate(points_x2)), leader, "tiles", plays)
    if went_out is not None:
        settlement = settle_domino_masks(hands, went_out, players)
    else:
        settlement = settle_blocked(
            pips=[mask_pips(mask) for mask in hands],
            players=players,
            award=match.rules.blocked_award,
        )
    match.add_hand_points(points_x2)
    match.settle(settlement)
    match.end_hand(went_out)
    for side, bonus in settlement.bonus_x2.items():
        points_x2[side] += bonus
    return HandReport(
        (),
        settlement.end,
        list(settlement.hand_winner),
        dict(settlement.bonus_x2),
        dict(enumerate(points_x2)),
        leader,
        "tiles",
        plays,
    )
