"""The replay of a tile-by-tile hand with its deal, in one tight loop: `check`'s fast path.

With a deal every hand and the boneyard are known, so a recorded hand is a
fixed sequence of plays, draws and passes that either keeps every rule or
does not. `_replay_moves` walks it with the state in local variables (tile
masks, the four open ends, the spinner) instead of through `HandState` and
`Layout`, and accepts a move only when every check that `HandState.play`,
`draw` and `pass_turn` make passes. At the first move it is not sure of — a
broken rule, an unusual shape (a Mapping that is not a dict, an extra field, a
seat written ``true``), or anything else — it gives up and returns None,
without having touched the match; `allfives.scoresheet` then replays the hand
through `HandState`, which names the error exactly. So this loop only ever
decides *that* a hand is right, never *why* one is wrong, and its result is
the same report the checked replay gives (the tests compare the two on random
and on corrupted scoresheets, verdicts and their JSON text alike).

Two callers share the loop:

- `replay_dealt_hand` gives `replay` the hand's `HandReport` and brings its
  `MatchState` up to date;
- `check_dealt` judges a whole document whose every hand has its deal and
  writes the verdict's JSON objects directly, with no `HandReport` or
  `MatchReport` built only to be serialised. It keeps the sides' totals, the
  winners and the next leader as `MatchState` does (`add_hand_points`,
  `settle`, `end_hand`: the loop stops a hand at the play that reaches a
  target, so only the settlement can carry a side there otherwise) and writes
  each object as `HandReport.to_json` and `MatchReport.to_json` would, keys in
  the same order. Anything else — a tally hand, a hand without its deal, a
  wrong leader, a finished match with more hands, any move the loop is not sure
  of — and it returns None, and `check` replays the document from the start.

The layout's count is kept as in `allfives.layout` (R8-R11): each end's
contribution apart from the spinner's, which leaves the count once both of the
spinner's straight sides hold a tile (and the branches open with its pips).

A block (R16) needs an empty boneyard and nobody holding a tile that fits. The
loop does not look for one after every play: in a blocked hand no play and no
draw is legal, so only passes can follow a block, and the loop looks for one
at the first pass with the boneyard empty (a pass that the block makes one of
the closing passes) and when the moves run out; either is where the checked
replay's block stands, the position right after the last play or draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from allfives.entry import parse_left, read_deal
from allfives.errors import AllFivesError
from allfives.layout import SCORE
from allfives.match import MatchState
from allfives.reports import SIDE_KEYS, HandReport, PlayJson, sides_json, winner_json
from allfives.rules import Rules, side_of, sides_of
from allfives.settlement import Settlement, settle_blocked, settle_domino_masks
from allfives.tiles import (
    BIT,
    FULL_MASK,
    IS_DOUBLE,
    OTHER,
    PIP_MASK_OR_NONE,
    TEXT_INFO,
    mask_pips,
)

__all__ = ["check_dealt", "replay_dealt_hand"]

_FITS: Final = PIP_MASK_OR_NONE
_END_INDEX: Final = {"W": 0, "E": 1, "N": 2, "S": 3}
#: The side of each seat, and the next seat, by table size.
_SIDES: Final = {
    players: tuple(side_of(s, players) for s in range(players)) for players in (2, 3, 4)
}
_SIDE_KEYS: Final = SIDE_KEYS
_SIDE_KEYS_OF: Final = {players: SIDE_KEYS[: len(sides_of(players))] for players in (2, 3, 4)}
_NEXT: Final = {players: tuple((s + 1) % players for s in range(players)) for players in (2, 3, 4)}


def _row(t: int) -> tuple[int, ...]:
    """The half of tile `t` opposite each pip value 0-6, -1 where it has no such half,
    and -1 once more at index 7 (= -1), so that a closed end (-1) fits nothing."""
    return (*OTHER[t * 7 : t * 7 + 7], -1)


#: A play's tile as written: (bit, opposite halves, is a double).
_PLAY: Final = {text: (BIT[t], _row(t), IS_DOUBLE[t]) for text, (t, _) in TEXT_INFO.items()}
#: The lead's tile as written: (bit, west half, east half).
_LEAD: Final = {
    text: (BIT[t], first, OTHER[t * 7 + first]) for text, (t, first) in TEXT_INFO.items()
}
#: A drawn tile's bit.
_DRAW: Final = {text: BIT[t] for text, (t, _) in TEXT_INFO.items()}


#: How a replayed hand ended, besides a seat going out (R16, R22).
_TARGET: Final = -2
_BLOCKED: Final = -1
_NEVER: Final = 1 << 30  # more points than a hand can score: no play reaches it


def _open_mask(pips: list[int]) -> int:
    """The tiles that fit one of the open ends `pips`."""
    return _FITS[pips[0]] | _FITS[pips[1]] | _FITS[pips[2]] | _FITS[pips[3]]


def _is_blocked(hands: list[int], pips: list[int]) -> bool:
    """R16 with an empty boneyard: nobody holds a tile that fits an open end."""
    fits = _open_mask(pips)
    return not any(mask & fits for mask in hands)


#: What `_replay_moves` finds in a right hand: the play objects, each side's play points
#: (whole points), each seat's tiles left, and the end: the seat that went out,
#: `_BLOCKED` or `_TARGET`.
Replayed = tuple[list[PlayJson], list[int], list[int], int]


def _replay_moves(
    hand: Mapping[str, object],
    players: int,
    leader: int,
    masks: Sequence[int],
    need: Sequence[int],
) -> Replayed | None:
    """Walk a hand's moves; `need[side]` is the points that carry the side to its
    target (R22). None at the first move the loop is not sure of."""
    try:
        moves = hand["moves"]
        if type(moves) is not list or not moves:
            return None
        sides = _SIDES[players]
        after = _NEXT[players]
        hands = list(masks)
        free = FULL_MASK ^ sum(hands)  # the deal's masks are disjoint
        boneyard = free.bit_count()
        # The lead (R6): a play by the leader, without an end.
        lead = moves[0]
        if type(lead) is not dict or lead["seat"] is not leader or len(lead) != 2:
            return None
        bit, west, east = _LEAD[lead["play"]]
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
        points = score[count]
        plays: list[PlayJson] = [{"move": 0, "seat": leader, "count": count, "points": points}]
        gains = [0] * len(need)
        turn = after[leader]
        # What the seat to move has drawn (R14): 0 nothing, -1 a tile that fits no
        # end, else the bit of the drawn tile, the only one it may then play.
        drawn = 0
        end = _BLOCKED
        last = len(moves) - 1
        rest = 1  # where the closing passes of a block begin
        if points:
            side = sides[leader]
            gains[side] = points
            if points >= need[side]:
                end = _TARGET
        if end == _TARGET or not left:  # R22 at once, or a one-tile hand (R16)
            if last:
                return None
            if end != _TARGET:
                end = leader
        elif boneyard or not _is_blocked(hands, pips):  # else R16: blocked at once
            for index, move in enumerate(moves[1:], 1):
                if type(move) is not dict:
                    return None
                seat = move["seat"]
                # Identity, not equality: JSON's small ints are the interpreter's own
                # objects, and it keeps out `true`, `1.0` and every other value that
                # equals a seat.
                if seat is not turn:
                    return None
                if len(move) == 3:  # a play on the end named (any other third field: None)
                    bit, row, double = play_info[move["play"]]
                    e = end_index[move["end"]]
                    outer = row[pips[e]]
                    if outer < 0:
                        return None
                elif len(move) != 2:
                    return None
                elif "play" in move:  # no end named: the only end it fits (R7)
                    bit, row, double = play_info[move["play"]]
                    e = -1
                    for end_e in (0, 1, 2, 3):
                        if row[pips[end_e]] >= 0:
                            if e >= 0:
                                return None
                            e = end_e
                    if e < 0:
                        return None
                    outer = row[pips[e]]
                elif "draw" in move:
                    open_mask = _open_mask(pips)
                    if drawn > 0 or hands[seat] & open_mask or not boneyard:
                        return None
                    bit = _DRAW[move["draw"]]
                    if not free & bit:
                        return None
                    free ^= bit
                    hands[seat] |= bit
                    drawn = bit if open_mask & bit else -1
                    boneyard -= 1
                    continue
                elif "pass" in move:
                    if move["pass"] is not True or drawn > 0 or boneyard:
                        return None
                    # Blocked (R16) since the last play or draw: this pass and the
                    # rest are the closing passes. A block is seen here, at the first
                    # pass after it, because in a blocked hand no play or draw is
                    # legal, so only passes can follow one.
                    if _is_blocked(hands, pips):
                        rest = index
                        break
                    if hands[seat] & _open_mask(pips):
                        return None
                    drawn = 0
                    turn = after[seat]
                    continue
                else:
                    return None
                if not hands[seat] & bit or (drawn and bit != drawn):
                    return None  # not held, or not the drawn tile that fits (R14)
                pips[e] = outer
                if spin_ends and spin_ends >> e & 1:  # covering a side of the spinner
                    spin_ends ^= 1 << e
                    if not spin_ends:  # R10: both sides held, the branches open
                        count -= spin_value
                        pips[2] = pips[3] = spin_value >> 1
                if double:
                    count -= contrib[e]
                    if not has_spinner:  # R9: the first double is the spinner
                        has_spinner = True
                        spin_ends = 1 << e
                        spin_value = outer + outer
                        contrib[e] = 0
                    else:  # R8: a double at an end counts both halves
                        contrib[e] = outer + outer
                    count += outer + outer
                else:
                    count += outer - contrib[e]
                    contrib[e] = outer
                left = hands[seat] - bit  # held, so its bit is set
                hands[seat] = left
                drawn = 0
                points = score[count]
                plays.append({"move": index, "seat": seat, "count": count, "points": points})
                if points:
                    side = sides[seat]
                    gained = gains[side] + points
                    gains[side] = gained
                    if gained >= need[side]:  # R22
                        if index != last:
                            return None
                        end = _TARGET
                        break
                if not left:  # R16: domino
                    if index != last:
                        return None
                    end = seat
                    break
                turn = after[seat]
            else:
                # The moves ran out: right only if the last play or draw blocked the hand.
                if boneyard or not _is_blocked(hands, pips):
                    return None  # the hand stops before it is over
                rest = len(moves)
        if end == _BLOCKED:
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
    except (KeyError, TypeError, IndexError, AttributeError, AllFivesError):
        # A shape the loop does not expect, or a ``left`` that `parse_left` refuses:
        # the checked replay reads it and names the error where it stands.
        return None
    return plays, gains, hands, end


def _settled(match: MatchState, replayed: Replayed) -> tuple[Settlement | None, list[int]]:
    """Bring `match` up to date with a replayed hand: its settlement (None when the
    target ended it) and each side's points in the hand, half-points."""
    _, gains, hands, end = replayed
    points_x2 = [gain + gain for gain in gains]
    match.add_hand_points(points_x2)
    if end == _TARGET:
        match.end_hand(None)
        return None, points_x2
    if end >= 0:
        settlement = settle_domino_masks(hands, end, match.players)
    else:
        settlement = settle_blocked(
            pips=[mask_pips(mask) for mask in hands],
            players=match.players,
            award=match.rules.blocked_award,
        )
    match.settle(settlement)
    match.end_hand(end if end >= 0 else None)
    for side, bonus in settlement.bonus_x2.items():
        points_x2[side] += bonus
    return settlement, points_x2


def _need(match: MatchState) -> list[int]:
    """The whole points that carry each side to the target (R22); while a tie is played
    off no play ends the match, so none."""
    if match.deciding:
        return [_NEVER] * len(match.totals_x2)
    target_x2 = match.target * 2
    return [(target_x2 - total + 1) >> 1 for total in match.totals_x2.values()]


def replay_dealt_hand(
    hand: Mapping[str, object], match: MatchState, leader: int, masks: Sequence[int]
) -> HandReport | None:
    """Replay a hand whose deal `masks` is read and valid, led by `leader` (already
    accepted by `match.start_hand`); the report, with `match` brought up to date, or
    None (and `match` untouched) when the checked replay must judge it."""
    replayed = _replay_moves(hand, match.players, leader, masks, _need(match))
    if replayed is None:
        return None
    settlement, points_x2 = _settled(match, replayed)
    if settlement is None:
        return HandReport(
            (), "target", [], {}, dict(enumerate(points_x2)), leader, "tiles", replayed[0]
        )
    return HandReport(
        (),
        settlement.end,
        list(settlement.hand_winner),
        dict(settlement.bonus_x2),
        dict(enumerate(points_x2)),
        leader,
        "tiles",
        replayed[0],
    )


def check_dealt(hands: list[object], players: int, rules: Rules) -> dict[str, object] | None:
    """`check`'s verdict on a document whose format, players and rules are read, whose
    hands are `hands`, and which calls no time: every hand must be a tile-by-tile hand
    with its deal that `_replay_moves` accepts, else None (the checked replay judges
    the document). The verdict is built as JSON directly, with the match's totals,
    winners and next leader kept as `MatchState` keeps them."""
    if rules.tie_break is not None:
        return None  # a tie played off: the checked replay follows MatchState
    size = rules.hand_size(players)
    target_x2 = 2 * rules.target(players)
    award = rules.blocked_award
    keys = _SIDE_KEYS_OF[players]
    totals = [0] * len(keys)
    winners: list[int] = []
    next_leader: int | None = None
    verdicts: list[dict[str, object]] = []
    add_verdict = verdicts.append
    for hand in hands:
        if winners or type(hand) is not dict:
            return None  # match_over, hand_not_object
        leader = hand.get("leader")
        if type(leader) is not int or not 0 <= leader < players:
            return None
        if (next_leader is not None and leader != next_leader) or "scores" in hand:
            return None  # wrong_leader; a tally hand (or moves_or_scores)
        deal = hand.get("deal")
        if deal is None:
            return None
        try:
            masks = read_deal(deal, players, size)
        except AllFivesError:
            return None
        need = [(target_x2 - total + 1) >> 1 for total in totals]
        replayed = _replay_moves(hand, players, leader, masks, need)
        if replayed is None:
            return None
        plays, gains, left, end = replayed
        # MatchState.add_hand_points: only a target end carries a side to its target.
        for side, gain in enumerate(gains):
            totals[side] += gain + gain
        if end == _TARGET:
            winners = [side for side, total in enumerate(totals) if total >= target_x2]
            next_leader = None
            add_verdict(
                {
                    "plays": plays,
                    "end": "target",
                    "hand_winner": [],
                    "bonus": {},
                    "points": dict(zip(keys, gains, strict=True)),
                    "leader": leader,
                    "mode": "tiles",
                }
            )
            continue
        if end >= 0:
            # R19: one side scores, in whole points (twice a multiple of five, halved).
            settlement = settle_domino_masks(left, end, players)
            ((side, bonus_x2),) = settlement.bonus_x2.items()
            bonus = bonus_x2 >> 1
            gains[side] += bonus
            total = totals[side] + bonus_x2
            totals[side] = total
            if total >= target_x2:  # MatchState.settle, then end_hand
                winners = [side]
                next_leader = None
            else:
                next_leader = end
            add_verdict(
                {
                    "plays": plays,
                    "end": "domino",
                    "hand_winner": list(settlement.hand_winner),
                    "bonus": {keys[side]: bonus},
                    "points": dict(zip(keys, gains, strict=True)),
                    "leader": leader,
                    "mode": "tiles",
                }
            )
            continue
        settlement = settle_blocked(
            pips=[mask_pips(mask) for mask in left], players=players, award=award
        )
        # MatchState.settle: the higher total among the sides carried to the target
        # wins, equal totals tie; then MatchState.end_hand (the next lead by lot).
        points_x2 = [gain + gain for gain in gains]
        reached = []
        for side, bonus_x2 in settlement.bonus_x2.items():
            totals[side] += bonus_x2
            points_x2[side] += bonus_x2
            if totals[side] >= target_x2:
                reached.append(side)
        if reached:
            best = max(totals[side] for side in reached)
            winners = sorted(side for side in reached if totals[side] == best)
        next_leader = None
        add_verdict(
            {
                "plays": plays,
                "end": "blocked",
                "hand_winner": list(settlement.hand_winner),
                "bonus": sides_json(settlement.bonus_x2),
                "points": sides_json(dict(enumerate(points_x2))),
                "leader": leader,
                "mode": "tiles",
            }
        )
    return {
        "ok": True,
        "hands": verdicts,
        "totals": sides_json(dict(enumerate(totals))),
        "winner": winner_json(winners),
        "finished": bool(winners),
        "next_leader": next_leader,
    }
