"""The coach: for each play of a tile-by-tile hand, whether another play scored more at once.

`coach_hand` replays a hand object of docs/scoresheet.md and, before every play,
lists the plays the player could have made with the points each would have scored
at once (R12), comparing the play made with the best of them. Only immediate
points count: the coach does not weigh what a play leaves for the opponents.

Which tiles the player held: with a deal, exactly. Without one (as score entry
records a hand) the coach takes only the tiles the player is *known* to have held
then — those it laid later before its next draw (a draw of a named face rules out
that face only; a draw whose face was not seen ends what is known), and the tiles
it was left with at the end when the scoresheet lists them. So without a deal the
coach may miss a better play, but never invents one. A drawn tile that must be
laid at once (R14) leaves a choice of ends only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from allfives.errors import engine_error
from allfives.hand import HandState
from allfives.layout import END_NAMES, SCORE
from allfives.moves import Move
from allfives.rules import Rules, check_players
from allfives.tiles import BIT, Tile, tiles_in

__all__ = ["Advice", "PlayOption", "coach_hand"]


@dataclass(frozen=True, slots=True)
class PlayOption:
    """A play: the tile, the end (None for the lead) and the points it scores at once."""

    tile: Tile
    end: str | None
    points: int


@dataclass(frozen=True, slots=True)
class Advice:
    """One play of a hand as the coach sees it: the move's index in the hand, the seat,
    the play made, and the best play known to have been open (the play made when
    nothing known scored more)."""

    move: int
    seat: int
    played: PlayOption
    best: PlayOption

    @property
    def missed(self) -> int:
        """Points left on the table by this play (0 when it was the best known)."""
        return self.best.points - self.played.points


def _known_later(moves: Sequence[Move], index: int, seat: int, left: object) -> int:
    """The tiles `seat` is known to hold before move `index`: laid before its next draw,
    or left at the end when nothing was drawn since."""
    known = 0
    ruled_out = 0
    for move in moves[index:]:
        if move.seat != seat:
            continue
        if move.kind == "play" and move.tile is not None:
            known |= BIT[move.tile.index] & ~ruled_out
        elif move.kind == "draw":
            if move.tile is None:
                return known
            ruled_out |= BIT[move.tile.index]
    if isinstance(left, Sequence) and not isinstance(left, str):
        for text in left:
            if isinstance(text, str):
                known |= BIT[Tile.parse(text).index] & ~ruled_out
    return known


def _options(state: HandState, seat: int, mask: int) -> list[PlayOption]:
    layout = state.layout
    if state.pending >= 0:
        mask = BIT[state.pending]
    result = []
    for t in tiles_in(mask & ~layout.played):
        if not layout.laid:
            result.append(PlayOption(Tile.from_index(t), None, SCORE[layout.count_after(t, -1)]))
            continue
        for e in layout.fitting_ends(t):
            result.append(
                PlayOption(Tile.from_index(t), END_NAMES[e], SCORE[layout.count_after(t, e)])
            )
    return result


def coach_hand(
    hand: Mapping[str, object], *, players: int, rules: Rules | None = None
) -> tuple[Advice, ...]:
    """Every play of a tile-by-tile hand with the best play known to have been open.

    >>> hand = {"leader": 0, "deal": [
    ...     ["5-5", "0-1", "0-2", "0-3", "0-4", "0-6", "1-1", "1-2", "1-3"],
    ...     ["0-5", "1-5", "1-4", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"]],
    ...     "moves": [{"seat": 0, "play": "0-1"}, {"seat": 1, "play": "1-5", "end": "E"}]}
    >>> for advice in coach_hand(hand, players=2):
    ...     print(advice.seat, advice.played.tile, advice.best.tile, advice.best.points,
    ...           advice.missed)
    0 0-1 5-5 10 10
    1 1-5 1-5 5 0
    """
    players = check_players(players)
    rules = rules if rules is not None else Rules()
    leader = hand.get("leader")
    if type(leader) is not int:
        raise engine_error("bad_format", detail=f"the leader must be a seat, not {leader!r}")
    deal = hand.get("deal")
    state = HandState(players, leader, rules=rules, deal=deal if isinstance(deal, list) else None)
    raw_moves = hand.get("moves", [])
    if not isinstance(raw_moves, list):
        raise engine_error("bad_format", detail="'moves' must be a list")
    moves = [Move.parse(obj) for obj in raw_moves]
    left = hand.get("left")
    lefts = left if isinstance(left, Mapping) else {}
    advice = []
    for index, move in enumerate(moves):
        if move.kind == "play" and move.tile is not None and not state.end_code:
            seat = move.seat
            if state.dealt:
                mask = state.hands[seat]
            else:
                mask = _known_later(moves, index, seat, lefts.get(str(seat)))
            points = state.copy().apply(move)
            played = PlayOption(move.tile, move.end if state.layout.laid else None, points)
            if played.end is None and state.layout.laid:
                played = PlayOption(move.tile, _end_taken(state, move), points)
            best = played
            for option in _options(state, seat, mask):
                if option.points > best.points:
                    best = option
            advice.append(Advice(index, seat, played, best))
        state.apply(move)
    return tuple(advice)


def _end_taken(state: HandState, move: Move) -> str | None:
    """The end a play names, or the only end its tile fits (R7)."""
    assert move.tile is not None
    ends = state.layout.fitting_ends(move.tile.index)
    return END_NAMES[ends[0]] if len(ends) == 1 else move.end
