"""One hand: the deal, whose turn it is, legal moves, and how the hand ends (R3, R7-R21).

`HandState` is the game state of a hand in the OpenSpiel manner:
`legal_moves()`, `apply(move)` (which checks every rule and raises an
`AllFivesError` naming the tile, end and seat), `is_over()`, and `settle()`
for the end-of-hand points. It runs in one of two modes:

- *with a deal* every hand and the boneyard are known: a play must come from
  the player's hand (R3), a draw must name a tile still in the boneyard (any
  undrawn tile may be drawn: the deal records no boneyard order), and the
  engine sees a block itself (R16). **Decision**: with a deal every draw must
  name its face (``bad_format`` otherwise), since a hidden face would leave the
  hands unknown. After a block, the closing passes may be given (in turn, at
  most one round) or left out.
- *without a deal* the engine knows how many tiles each player holds, the
  tiles seen (laid, or drawn face up) and the boneyard's size. It checks the
  layout, turn order, tile conservation and scores, and every rule that the
  seen tiles decide (a drawn tile that fits must be laid at once, R14; a known
  tile that fits forbids drawing and passing, R13, R15). A draw may be ``null``.
  The hand is blocked when, with the boneyard empty, every player has passed in
  turn; that is refused (``illegal_pass``) if a tile showing an open end's pips
  is not on the table, for then someone who passed held a tile that fits.

Within a turn: a player who cannot lay draws one tile at a time (R14) and must
lay the first drawn tile that fits, at once, on any end it fits; a pass
(R15) needs an empty boneyard and nothing that fits. Laying the last tile is a
domino (R16).

The remaining tiles or pips (`left`) settle the hand; reading the deal and
checking those figures is the hand's entry, in `allfives.entry`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Literal

from allfives.entry import check_left, mask_of_left_tiles, read_deal
from allfives.errors import AllFivesError, engine_error
from allfives.layout import END_INDEX, END_NAMES, SCORE, Layout
from allfives.moves import Move, trusted_move
from allfives.rules import Rules, check_players, side_of
from allfives.settlement import Settlement, settle_blocked, settle_domino
from allfives.tiles import (
    ALL_TILES,
    BIT,
    FULL_MASK,
    HAS,
    LABEL,
    LOW,
    PIP_MASK,
    TEXT,
    Tile,
    lowest_tile,
    tiles_in,
)

__all__ = ["PLAYS_AT", "HandState", "Left", "deal_masks", "deal_tiles"]

#: `pending` values: nothing drawn this turn, the last tile drawn (face seen)
#: does not fit, the last tile drawn was not seen; a tile index >= 0 is a drawn
#: tile that fits and must be laid at once.
NO_DRAW: Final = -1
DREW_NO_FIT: Final = -2
DREW_BLANK: Final = -3
#: `end` values.
IN_PLAY: Final = 0
DOMINO: Final = 1
BLOCKED: Final = 2
_END_NAMES: Final = (None, "domino", "blocked")
#: End names by engine index, with -1 (the lead) giving None.
_END_OR_NONE: Final = (*END_NAMES, None)

#: A seat's remaining tiles for settlement: a pip total, or the tiles themselves.
Left = int | Iterable[Tile]


def _subsets(mask: int) -> Iterable[int]:
    sub = mask
    while sub:
        yield sub
        sub = (sub - 1) & mask


def _plays_at(end: int) -> dict[int, tuple[tuple[int, int], ...]]:
    """For every set of tiles sharing a pip value: its plays (tile, `end`), precomputed
    so that listing a seat's options is one look-up per open end."""
    return {
        sub: tuple((t, end) for t in tiles_in(sub))
        for p in range(7)
        for sub in _subsets(PIP_MASK[p])
    }


_AT_W: Final = _plays_at(0)
_AT_E: Final = _plays_at(1)
_AT_N: Final = _plays_at(2)
_AT_S: Final = _plays_at(3)
#: The four tables by end index: a mask of tiles sharing the end's pips -> its plays.
PLAYS_AT: Final = (_AT_W, _AT_E, _AT_N, _AT_S)


def deal_tiles(players: int, rules: Rules, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Shuffle and deal (R3): each hand's tile indices, and the boneyard in drawing
    order (drawn from the end)."""
    # A uniform shuffle by sorting on random keys: a C-speed sort instead of 27
    # Python-level `randrange` calls (ties have probability about 2**-53).
    keys = [rng.random() for _ in range(28)]
    tiles = sorted(range(28), key=keys.__getitem__)
    size = rules.hand_size(players)
    hands = [sorted(tiles[seat * size : (seat + 1) * size]) for seat in range(players)]
    return hands, tiles[players * size :]


def deal_masks(players: int, rules: Rules, rng: random.Random) -> tuple[list[int], list[int]]:
    """Shuffle and deal (R3): each hand as a mask, and the boneyard in drawing order."""
    hands, boneyard = deal_tiles(players, rules, rng)
    return [sum(map(BIT.__getitem__, hand)) for hand in hands], boneyard  # distinct bits


class HandState:
    """A hand in progress or finished.

    >>> hand = HandState(2, 0, deal=[
    ...     ["3-6", "6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
    ...     ["6-2", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2", "2-3"]])
    >>> hand.apply(Move.play(0, "3-6"))
    0
    >>> hand.turn, [str(m.tile) + m.end for m in hand.legal_moves() if m.tile and m.end]
    (1, ['1-3W', '2-3W', '1-6E', '2-6E'])
    >>> hand.apply(Move.play(1, "6-2", "E")), hand.layout.count
    (5, 5)
    """

    __slots__ = (
        "_turn",
        "boneyard_count",
        "closing_passes",
        "deal",
        "dealt",
        "end_code",
        "free",
        "hand_size",
        "hands",
        "held",
        "history",
        "layout",
        "leader",
        "passes",
        "pending",
        "players",
        "rules",
        "went_out",
    )

    players: int
    rules: Rules
    leader: int
    layout: Layout
    #: True when the deal is known (every hand and the boneyard).
    dealt: bool
    #: Per seat, the mask of tiles known to be held (all of them with a deal).
    hands: list[int]
    #: Per seat, how many tiles it holds.
    held: list[int]
    #: Tiles neither laid nor known to be held: the boneyard with a deal, else unseen.
    free: int
    boneyard_count: int
    pending: int
    passes: int
    closing_passes: int
    end_code: int
    went_out: int | None
    hand_size: int
    #: The dealt hands as masks (None without a deal).
    deal: tuple[int, ...] | None
    #: The moves made through `apply` (and so `from_json`), for `to_json`.
    history: list[Move]
    _turn: int

    def __init__(
        self,
        players: int,
        leader: int,
        *,
        rules: Rules | None = None,
        deal: Sequence[Iterable[Tile | str]] | None = None,
    ) -> None:
        players = check_players(players)
        rules = rules if rules is not None else Rules()
        masks = None if deal is None else read_deal(deal, players, rules.hand_size(players))
        self._setup(players, leader, rules, masks)

    @classmethod
    def from_masks(
        cls, players: int, leader: int, rules: Rules, masks: list[int] | None
    ) -> HandState:
        """Start a hand from engine masks (a deal already known to be valid, or None)."""
        state = cls.__new__(cls)
        state._setup(players, leader, rules, masks)
        return state

    def _setup(self, players: int, leader: int, rules: Rules, masks: list[int] | None) -> None:
        if type(leader) is not int or not 0 <= leader < players:
            raise engine_error("bad_format", detail_code="leader_not_seat", value=repr(leader))
        self.players = players
        self.rules = rules
        self.leader = leader
        self.hand_size = size = rules.hand_size(players)
        self.layout = Layout()
        self._turn = leader
        self.held = [size] * players
        self.boneyard_count = 28 - players * size
        self.history = []
        if masks is None:
            self.dealt = False
            self.deal = None
            self.hands = [0] * players
            self.free = FULL_MASK
        else:
            self.dealt = True
            self.deal = tuple(masks)
            self.hands = list(masks)
            taken = 0
            for mask in masks:
                taken |= mask
            self.free = FULL_MASK ^ taken
        self.pending = NO_DRAW
        self.passes = 0
        self.closing_passes = 0
        self.end_code = IN_PLAY
        self.went_out = None

    def copy(self) -> HandState:
        """An independent copy."""
        new = HandState.__new__(HandState)
        for name in HandState.__slots__:
            setattr(new, name, getattr(self, name))
        new.layout = self.layout.copy()
        new.hands = self.hands[:]
        new.held = self.held[:]
        new.history = self.history[:]
        return new

    # ------------------------------------------------------------------ JSON

    @classmethod
    def from_json(cls, hand: object, *, players: int, rules: Rules | None = None) -> HandState:
        """Replay a tile-by-tile hand object of docs/scoresheet.md (``leader``, optional
        ``deal``, ``moves``), finished or not, e.g. to show a hand being entered.
        Raises the first broken rule with its ``move`` index."""
        if not isinstance(hand, Mapping):
            raise engine_error("bad_format", detail_code="hand_not_object")
        rules = rules if rules is not None else Rules()
        players = check_players(players)
        deal = hand.get("deal")
        masks = None if deal is None else read_deal(deal, players, rules.hand_size(players))
        leader = hand.get("leader")
        if type(leader) is not int:
            raise engine_error("bad_format", detail_code="leader_not_seat", value=repr(leader))
        state = cls.from_masks(players, leader, rules, masks)
        moves = hand.get("moves", [])
        if not isinstance(moves, list | tuple):
            raise engine_error("bad_format", detail_code="moves_not_list")
        for index, obj in enumerate(moves):
            try:
                move = Move.parse(obj)
                if move.seat >= players:
                    raise engine_error(
                        "bad_format", detail_code="seat_not_at_table", other=move.seat
                    )
                state.apply(move)
            except AllFivesError as error:
                raise error.located(move=index) from None
        return state

    def to_json(self) -> dict[str, object]:
        """The hand object of docs/scoresheet.md: leader, deal (when known) and the moves
        made through `apply`.

        >>> hand = HandState(2, 1)
        >>> hand.apply(Move.play(1, "6-3"))
        0
        >>> HandState.from_json(hand.to_json(), players=2).to_json()
        {'leader': 1, 'moves': [{'seat': 1, 'play': '6-3'}]}
        """
        result: dict[str, object] = {"leader": self.leader}
        if self.deal is not None:
            result["deal"] = [[TEXT[t] for t in tiles_in(mask)] for mask in self.deal]
        result["moves"] = [move.to_json() for move in self.history]
        return result

    # ------------------------------------------------------------------ observers

    @property
    def turn(self) -> int | None:
        """The seat to move, or None once the hand is over."""
        return None if self.end_code else self._turn

    @property
    def end(self) -> Literal["domino", "blocked"] | None:
        """How the hand ended, or None while it goes on."""
        return _END_NAMES[self.end_code]

    def is_over(self) -> bool:
        """True after a domino or a block (R16)."""
        return bool(self.end_code)

    @property
    def count(self) -> int:
        """The count of the layout (R11)."""
        return self.layout.count

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles `seat` holds (without a deal: those known to be held)."""
        return tuple(Tile.from_index(t) for t in tiles_in(self.hands[seat]))

    def held_count(self, seat: int) -> int:
        """How many tiles `seat` holds."""
        return self.held[seat]

    def boneyard(self) -> tuple[Tile, ...] | None:
        """The tiles in the boneyard, or None when the deal is not known."""
        if not self.dealt:
            return None
        return tuple(Tile.from_index(t) for t in tiles_in(self.free))

    def must_play_tile(self) -> Tile | None:
        """The drawn tile that has to be laid at once (R14), if any."""
        return Tile.from_index(self.pending) if self.pending >= 0 else None

    def can_play(self, seat: int) -> bool:
        """True when `seat` is known to hold a tile that fits an open end."""
        return bool(self.hands[seat] & self.layout.open_mask)

    def is_blocked(self) -> bool:
        """True when the hand ended blocked (R16)."""
        return self.end_code == BLOCKED

    def options(self, seat: int) -> list[tuple[int, int]]:
        """Engine form of the plays open to `seat` with a deal: (tile index, end index),
        end -1 for the lead; only the drawn tile when one must be laid (R14)."""
        layout = self.layout
        if not layout.laid:
            return [(t, -1) for t in tiles_in(self.hands[seat])]
        pending = self.pending
        mask = BIT[pending] if pending >= 0 else self.hands[seat]
        w, e, n, s = layout.pips
        result: list[tuple[int, int]] = []
        fits = mask & PIP_MASK[w]
        if fits:
            result += _AT_W[fits]
        fits = mask & PIP_MASK[e]
        if fits:
            result += _AT_E[fits]
        if n >= 0:
            fits = mask & PIP_MASK[n]
            if fits:
                result += _AT_N[fits]
            fits = mask & PIP_MASK[s]
            if fits:
                result += _AT_S[fits]
        return result

    def legal_moves(self) -> list[Move]:
        """The moves the engine accepts now (ends always named; a lead with its low
        half west). With a deal a draw is returned without a face: `apply` needs it.
        Without a deal, plays of any unseen tile that fits are included."""
        if self.end_code:
            return []
        seat = self._turn
        layout = self.layout
        if self.pending >= 0 or self.dealt:
            moves = [
                trusted_move(Move, ("play", seat, ALL_TILES[t], _END_OR_NONE[e], LOW[t]))
                for t, e in self.options(seat)
            ]
            if moves or self.pending >= 0:
                return moves
            return [Move.draw(seat) if self.boneyard_count else Move.pass_turn(seat)]
        known = self.hands[seat] & layout.open_mask
        if not layout.laid:
            candidates = self.hands[seat] | self.free
        elif known:
            candidates = known
        elif self.pending == DREW_NO_FIT:
            candidates = 0
        else:
            candidates = self.free & layout.open_mask
        moves = []
        for t in tiles_in(candidates):
            if not layout.laid:
                moves.append(trusted_move(Move, ("play", seat, ALL_TILES[t], None, LOW[t])))
            for e in layout.fitting_ends(t):
                moves.append(trusted_move(Move, ("play", seat, ALL_TILES[t], END_NAMES[e], LOW[t])))
        if not known and layout.laid:
            moves.append(Move.draw(seat) if self.boneyard_count else Move.pass_turn(seat))
        return moves

    def scored_moves(self) -> list[tuple[Move, int]]:
        """Each of `legal_moves()` with the points it would score at once (R12): the
        count after a play when it is a positive multiple of five, else 0; a draw or a
        pass scores 0. The state is unchanged. A coach compares a play with these.

        >>> hand = HandState(2, 0, deal=[
        ...     ["5-5", "0-1", "0-2", "0-3", "0-4", "0-6", "1-1", "1-2", "1-3"],
        ...     ["0-5", "1-5", "1-4", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"]])
        >>> hand.apply(Move.play(0, "5-5"))
        10
        >>> for move, points in hand.scored_moves():
        ...     print(move.tile, move.end, points)
        0-5 W 10
        1-5 W 0
        2-5 W 0
        0-5 E 10
        1-5 E 0
        2-5 E 0
        """
        layout = self.layout
        result: list[tuple[Move, int]] = []
        for move in self.legal_moves():
            tile, end = move[2], move[3]
            if move[0] != "play" or tile is None:
                result.append((move, 0))
            else:
                e = -1 if end is None else END_INDEX[end]
                result.append((move, SCORE[layout.count_after(tile.index, e)]))
        return result

    def move_points(self, move: Move) -> int:
        """The points `move` would score now (R12), leaving the state unchanged; raises
        the `AllFivesError` that `apply` would raise for a move that breaks a rule.

        >>> hand = HandState(2, 0)
        >>> hand.move_points(Move.play(0, "5-5")), hand.layout.is_empty()
        (10, True)
        >>> hand.move_points(Move.play(1, "5-5"))
        Traceback (most recent call last):
        ...
        allfives.errors.IllegalMoveError: ...
        """
        return self.copy().apply(move)

    # ------------------------------------------------------------------ moves

    def apply(self, move: Move) -> int:
        """Check and make a move; return the points it scores (R12). Raises an
        `AllFivesError` when the move breaks a rule (the state is then unchanged)."""
        kind, seat, tile, end, first = move
        if kind == "play":
            if tile is None or first is None:
                raise engine_error("bad_format", detail_code="play_needs_tile")
            points = self.play(seat, tile.index, None if end is None else END_INDEX[end], first)
        elif kind == "draw":
            self.draw(seat, -1 if tile is None else tile.index)
            points = 0
        else:
            self.pass_turn(seat)
            points = 0
        self.history.append(move)
        return points

    def _over_error(self, seat: int) -> AllFivesError:
        return engine_error("hand_over", seat=seat, end=_END_NAMES[self.end_code])

    def _where(self, t: int) -> tuple[str, str, int | None]:
        """Where tile `t` is instead: the English ``where`` and its ``where_code``
        (``held``, with the ``holder`` seat; ``on_table``; ``boneyard``; ``unseen``)."""
        bit = BIT[t]
        for seat, mask in enumerate(self.hands):
            if mask & bit:
                return f"seat {seat} holds it", "held", seat
        if self.layout.played & bit:
            return "it is on the table", "on_table", None
        if self.dealt:
            return "it is in the boneyard", "boneyard", None
        return "it is not among the unseen tiles", "unseen", None

    def _not_there(self, code: str, seat: int, t: int) -> AllFivesError:
        where, where_code, holder = self._where(t)
        return engine_error(
            code, seat=seat, tile=LABEL[t], where=where, where_code=where_code, holder=holder
        )

    def play(self, seat: int, t: int, e: int | None, first: int) -> int:
        """Engine form of a play: tile index, end index (None: the only end that fits),
        the lead's west half. Checks every rule; returns the points scored."""
        if self.end_code:
            raise self._over_error(seat)
        if seat != self._turn:
            raise engine_error("not_your_turn", seat=seat, turn=self._turn)
        layout = self.layout
        bit = BIT[t]
        if layout.played & bit:
            raise engine_error("tile_already_played", seat=seat, tile=LABEL[t])
        hands = self.hands
        own = hands[seat] & bit
        if not own and (self.dealt or not self.free & bit):
            raise self._not_there("tile_not_in_hand", seat, t)
        pending = self.pending
        if pending >= 0 and t != pending:
            raise engine_error("must_play_drawn_tile", seat=seat, tile=LABEL[pending])
        if e is None or not layout.laid:
            e = layout.resolve(t, e, seat)
        else:
            p = layout.pips[e]
            if p < 0 or not HAS[t] >> p & 1:
                layout.resolve(t, e, seat)  # raises the R7/R10 error
        if pending == DREW_NO_FIT:
            # The tile drawn last does not fit, so this one was held before: R13.
            raise engine_error("must_play", seat=seat, tile=LABEL[t])
        return self.lay(seat, t, e, first)

    def lay(self, seat: int, t: int, e: int, first: int) -> int:
        """Make a play already known to be legal (end index resolved, -1 for the lead)
        and return its points: `play` after its checks, and the simulator's plays."""
        bit = BIT[t]
        hands = self.hands
        if hands[seat] & bit:
            hands[seat] ^= bit
        else:
            self.free ^= bit
        held_list = self.held
        held = held_list[seat] - 1
        held_list[seat] = held
        count = self.layout.place(t, e, first)
        self.pending = NO_DRAW
        self.passes = 0
        if not held:  # R16: domino
            self.end_code = DOMINO
            self.went_out = seat
        else:
            self._turn = seat + 1 if seat + 1 < self.players else 0
            if self.dealt and not self.boneyard_count:
                self._check_block()
        return SCORE[count]

    def draw(self, seat: int, t: int) -> None:
        """Engine form of a draw: tile index drawn, or -1 when the face was not seen."""
        if self.end_code:
            raise self._over_error(seat)
        if seat != self._turn:
            raise engine_error("not_your_turn", seat=seat, turn=self._turn)
        pending = self.pending
        if pending >= 0:
            raise engine_error("drew_past_playable", seat=seat, tile=LABEL[pending])
        layout = self.layout
        if not layout.laid:
            raise engine_error("must_play", seat=seat, tile="a lead (any tile may lead)")
        playable = self.hands[seat] & layout.open_mask
        if playable:
            raise engine_error("must_play", seat=seat, tile=LABEL[lowest_tile(playable)])
        if not self.boneyard_count:
            raise engine_error("boneyard_empty", seat=seat)
        if t < 0:
            if self.dealt:
                raise engine_error(
                    "bad_format",
                    detail_code="draw_unnamed",
                    other=seat,
                )
            self.pending = DREW_BLANK
        else:
            bit = BIT[t]
            if layout.played & bit:
                raise engine_error("tile_already_played", seat=seat, tile=LABEL[t])
            if not self.free & bit:
                raise self._not_there("tile_not_in_boneyard", seat, t)
            self.free ^= bit
            self.hands[seat] |= bit
            self.pending = t if layout.open_mask & bit else DREW_NO_FIT
        self.held[seat] += 1
        self.boneyard_count -= 1
        if self.dealt and not self.boneyard_count and self.pending < 0:
            self._check_block()

    def pass_turn(self, seat: int) -> None:
        """Engine form of a pass (R15)."""
        end_code = self.end_code
        if end_code:
            if end_code == BLOCKED and self.dealt:
                # Closing passes after a block the engine saw: optional, in turn, one round.
                if seat != self._turn:
                    raise engine_error("not_your_turn", seat=seat, turn=self._turn)
                if self.closing_passes >= self.players:
                    raise self._over_error(seat)
                self.closing_passes += 1
                self._turn = seat + 1 if seat + 1 < self.players else 0
                return
            raise self._over_error(seat)
        if seat != self._turn:
            raise engine_error("not_your_turn", seat=seat, turn=self._turn)
        if self.pending >= 0:
            raise engine_error("must_play_drawn_tile", seat=seat, tile=LABEL[self.pending])
        if self.boneyard_count:
            raise engine_error(
                "illegal_pass",
                seat=seat,
                reason="the boneyard is not empty",
                reason_code="boneyard_not_empty",
            )
        layout = self.layout
        if not layout.laid:
            raise engine_error(
                "illegal_pass", seat=seat, reason="the lead must be laid", reason_code="lead_first"
            )
        playable = self.hands[seat] & layout.open_mask
        if playable:
            raise engine_error(
                "illegal_pass",
                seat=seat,
                reason=f"it can lay {LABEL[lowest_tile(playable)]}",
                reason_code="can_play",
                tile=LABEL[lowest_tile(playable)],
            )
        passes = self.passes + 1
        if not self.dealt and passes >= self.players:
            missing = layout.open_mask & ~layout.played
            if missing:
                raise engine_error(
                    "illegal_pass",
                    seat=seat,
                    reason=f"{LABEL[lowest_tile(missing)]} is not on the table, so a player who "
                    "passed holds a tile that fits",
                    reason_code="block_impossible",
                    tile=LABEL[lowest_tile(missing)],
                )
            self.end_code = BLOCKED
        self.passes = passes
        self.pending = NO_DRAW
        self._turn = seat + 1 if seat + 1 < self.players else 0

    def _check_block(self) -> None:
        """With a deal and an empty boneyard: blocked when nobody can lay (R16)."""
        open_mask = self.layout.open_mask
        for mask in self.hands:
            if mask & open_mask:
                return
        self.end_code = BLOCKED

    # ------------------------------------------------------------------ settlement

    def remaining_pips(self, left: Mapping[int, Left] | None = None) -> list[int | None]:
        """Each seat's remaining pips: from the deal, else from `left` (None where not
        given). Every figure in `left` is checked (``left_disagrees``)."""
        entries: dict[int, tuple[bool, int]] = {}
        for seat, value in (left or {}).items():
            if type(seat) is not int or not 0 <= seat < self.players:
                raise engine_error("bad_format", detail_code="not_a_seat", value=repr(seat))
            if type(value) is int:
                entries[seat] = (False, value)
            elif isinstance(value, Iterable):
                entries[seat] = (True, mask_of_left_tiles(value, seat))
            else:
                raise engine_error("bad_format", detail_code="left_value", value=repr(value))
        return self.left_pips(entries)

    def left_pips(self, entries: Mapping[int, tuple[bool, int]]) -> list[int | None]:
        """Engine form of `remaining_pips`: seat -> (is a tile mask, pips or mask)."""
        return check_left(self, entries)

    def settle(self, left: Mapping[int, Left] | None = None) -> Settlement:
        """The end-of-hand points (R18-R20); `left` is needed without a deal."""
        return self.settle_pips(self.remaining_pips(left))

    def settle_pips(self, pips: Sequence[int | None]) -> Settlement:
        """Settle from each seat's remaining pips (None where unknown)."""
        if not self.end_code:
            raise engine_error("hand_incomplete")
        players = self.players
        winner = self.went_out
        if winner is not None:  # R16: a domino
            side = side_of(winner, players)
            needed = [s for s in range(players) if side_of(s, players) != side]
        else:
            needed = list(range(players))
        for seat in needed:
            if pips[seat] is None:
                raise engine_error("left_missing", seat=seat)
        if winner is not None:
            return settle_domino(winner=winner, pips=pips, players=players)
        return settle_blocked(
            pips=[p or 0 for p in pips], players=players, award=self.rules.blocked_award
        )

    def __repr__(self) -> str:
        state = self.end or f"seat {self._turn} to move"
        return f"<HandState {self.players} players, {state}, layout {str(self.layout)!r}>"
