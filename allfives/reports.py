"""What replaying a scoresheet yields: per play, per hand and for the match.

These are plain records built by `allfives.scoresheet.replay`; `to_json()`
gives the Output document of docs/scoresheet.md. Points are kept in exact
half-points (`*_x2`, keyed by side) and written as JSON numbers, a half as
``7.5``. A finished match always names its ``winner``: the winning side, or for
an R22 tie the list of the tied sides' names (``["1", "2"]``); it is null only
while the match goes on. Besides the fixed fields the output adds, per hand,
``leader`` and ``mode``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, NamedTuple, TypedDict

from allfives.rules import Rules

__all__ = [
    "SIDE_KEYS",
    "HandReport",
    "HandResult",
    "MatchReport",
    "PlayJson",
    "PlayReport",
    "PlayRow",
    "sides_json",
    "winner_json",
]

HandResult = Literal["domino", "blocked", "target"]
#: The sides' names in JSON, by side.
SIDE_KEYS: Final = ("0", "1", "2", "3")
_SIDE_KEYS = SIDE_KEYS


def winner_json(winners: Sequence[int]) -> int | list[str] | None:
    """docs/scoresheet.md's ``winner`` for the sides that won (R22): the side, for a
    tie the tied sides by name, None while nobody has won.

    >>> winner_json([2]), winner_json([1, 2]), winner_json([])
    (2, ['1', '2'], None)
    """
    if len(winners) == 1:
        return winners[0]
    return [_SIDE_KEYS[side] for side in winners] if winners else None


class PlayReport(NamedTuple):
    """One laid tile (tile-by-tile) or one scoring play (tally, `move`/`count` None)."""

    move: int | None
    seat: int
    count: int | None  # type: ignore[assignment]  # the contract's name; shadows tuple.count
    points: int

    def to_json(self) -> dict[str, object]:
        """The docs/scoresheet.md play object."""
        return {"move": self.move, "seat": self.seat, "count": self.count, "points": self.points}


def sides_json(points_x2: Mapping[int, int]) -> dict[str, int | float]:
    """Half-points per side as the JSON object of sides' names to points."""
    # Inline points_json: this runs for every hand that check reports.
    return {
        _SIDE_KEYS[side]: points >> 1 if not points & 1 else points / 2
        for side, points in points_x2.items()
    }


#: A play as the replay records it: (move, seat, count, points).
PlayRow = tuple[int | None, int, int | None, int]


class PlayJson(TypedDict):
    """The docs/scoresheet.md play object."""

    move: int | None
    seat: int
    count: int | None
    points: int


class HandReport:
    """One hand: its plays, how it ended and the points per side it brought.

    The replay records each play as a plain row ``(move, seat, count, points)``,
    or (the fast replay of a dealt hand) as its docs/scoresheet.md play object,
    `play_json`; `plays` are built from them on first use, so that `check`, which
    only needs the JSON, does not pay for them.
    """

    __slots__ = (
        "_play_json",
        "_plays",
        "_raw_plays",
        "bonus_x2",
        "end",
        "hand_winner",
        "leader",
        "mode",
        "points_x2",
    )

    #: ``domino``/``blocked``, or ``target`` when the match was won during the hand.
    end: HandResult
    #: Seats that won the hand (both partners; the two of a split; none).
    hand_winner: list[int]
    #: End-of-hand points per scoring side, half-points.
    bonus_x2: dict[int, int]
    #: Points per side in this hand, plays and bonus, half-points.
    points_x2: dict[int, int]
    leader: int
    mode: Literal["tiles", "tally"]

    def __init__(
        self,
        plays: Sequence[PlayRow],
        end: HandResult,
        hand_winner: list[int],
        bonus_x2: dict[int, int],
        points_x2: dict[int, int],
        leader: int,
        mode: Literal["tiles", "tally"],
        play_json: list[PlayJson] | None = None,
    ) -> None:
        self._raw_plays = plays
        self._play_json = play_json
        self._plays: list[PlayReport] | None = None
        self.end = end
        self.hand_winner = hand_winner
        self.bonus_x2 = bonus_x2
        self.points_x2 = points_x2
        self.leader = leader
        self.mode = mode

    def _rows(self) -> Sequence[PlayRow]:
        if self._play_json is not None:
            return [
                (play["move"], play["seat"], play["count"], play["points"])
                for play in self._play_json
            ]
        return self._raw_plays

    @property
    def plays(self) -> list[PlayReport]:
        """Every laid tile (tile-by-tile) or every scoring play (tally), in order."""
        if self._plays is None:
            self._plays = [PlayReport._make(play) for play in self._rows()]
        return self._plays

    def _key(self) -> tuple[object, ...]:
        return (
            [tuple(play) for play in self._rows()],
            self.end,
            self.hand_winner,
            self.bonus_x2,
            self.points_x2,
            self.leader,
            self.mode,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandReport):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"HandReport(end={self.end!r}, hand_winner={self.hand_winner!r}, "
            f"bonus_x2={self.bonus_x2!r}, points_x2={self.points_x2!r}, "
            f"leader={self.leader!r}, mode={self.mode!r}, plays={len(self._rows())})"
        )

    def to_json(self, *, share: bool = False) -> dict[str, object]:
        """The docs/scoresheet.md hand object. With `share`, its play objects are the
        report's own (for a caller that drops the report, as `check` does)."""
        return _hand_json(self, share)


def _hand_json(hand: HandReport, share: bool) -> dict[str, object]:
    recorded = hand._play_json
    plays: list[PlayJson]
    if recorded is None:
        plays = [
            {"move": move, "seat": seat, "count": count, "points": points}
            for move, seat, count, points in hand._raw_plays
        ]
    else:
        plays = recorded if share else [play.copy() for play in recorded]
    return {
        "plays": plays,
        "end": hand.end,
        "hand_winner": list(hand.hand_winner),
        "bonus": sides_json(hand.bonus_x2),
        "points": sides_json(hand.points_x2),
        "leader": hand.leader,
        "mode": hand.mode,
    }


@dataclass(slots=True)
class MatchReport:
    """A replayed scoresheet: every hand, the totals, the winner and the next leader."""

    hands: list[HandReport]
    totals_x2: dict[int, int]
    winners: list[int]
    finished: bool
    next_leader: int | None
    players: int
    rules: Rules
    #: The match ended on time (R24) rather than at a target.
    time_called: bool = False
    #: Sides tied and playing the tie off (``tie_break``, R22, R24); empty otherwise.
    deciding: list[int] = field(default_factory=list)

    @property
    def winner(self) -> int | list[str] | None:
        """docs/scoresheet.md's ``winner``: the winning side; for an R22 tie the tied
        sides by name, e.g. ``["1", "2"]``; None only while the match goes on.

        >>> from allfives import Rules
        >>> report = MatchReport([], {1: 400, 2: 400}, [1, 2], True, None, 3, Rules())
        >>> report.winner, report.to_json()["winner"]
        (['1', '2'], ['1', '2'])
        """
        return winner_json(self.winners)

    def to_json(self, *, share: bool = False) -> dict[str, object]:
        """The docs/scoresheet.md Output document (``time_called`` only when it was).
        With `share`, its play objects are the reports' own (for a caller that drops
        the report, as `check` does)."""
        verdict: dict[str, object] = {
            "ok": True,
            "hands": [_hand_json(hand, share) for hand in self.hands],
            "totals": sides_json(self.totals_x2),
            "winner": self.winner,
            "finished": self.finished,
            "next_leader": self.next_leader,
        }
        if self.time_called:
            verdict["time_called"] = True
        return verdict
