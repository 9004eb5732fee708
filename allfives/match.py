"""The match: cumulative points per side and the moment a target is reached (R21, R22).

`MatchState` adds points one event at a time — each scoring play, then the
end-of-hand settlement — in exact half-points (`totals_x2`). The first side to
reach or pass its target wins at that event, even in the middle of a hand
(R22), and nothing more is accepted (``match_over``). Only the three-player
split of R20 gives points to two sides at once; **Decision** (R22): if it
carries both to the target, the higher total wins and equal totals make the
match a tie between those two (`winners` then lists both).

It also knows who leads next (R21): the seat that went out, or None when the
lead goes by lot (the first hand and after a blocked hand). A hand led by
another seat than `next_leader` is ``wrong_leader``.

With a round clock (R24) the match may end on time instead: `call_time` ends it
after the hand in play, the higher total winning and equal highest totals tying
(`winners` then lists every side on that total); `time_called` says so.

Under a rule set with ``tie_break`` ``"extra_hand"`` a tie does not end the match:
the tied sides are `deciding`, and the match goes on one whole hand at a time —
no play ends it, whatever the totals — until a hand ends with one side alone on the
highest total, which wins (**Decision**, R22 and R24). Every side plays the extra
hand, so at three players the third may still take it.

`outcome` reads a finished table's result for one side from the sides'
placings (1 = first), as the league, standings and ratings record them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from allfives.errors import engine_error
from allfives.rules import Rules, check_players, side_of, sides_of
from allfives.settlement import Settlement

__all__ = ["MatchState", "Outcome", "outcome", "points_json"]

#: A side's result at a finished table.
Outcome = Literal["win", "tie", "loss"]


def points_json(points_x2: int) -> int | float:
    """Half-points as a JSON number: an int when whole, else x.5.

    >>> points_json(30), points_json(15)
    (15, 7.5)
    """
    return points_x2 >> 1 if not points_x2 & 1 else points_x2 / 2


def outcome(placing: int, placings: Iterable[int]) -> Outcome:
    """A side's result from its placing and the placings of the table's sides (its own
    among them): a win when it alone has the best placing, a tie when it shares it —
    R22's tied match, or a three-player split (R20) that carries both tied players
    to the target — and a loss otherwise.

    Against one other side, pass the two placings: the better one wins. A placing
    that is not among `placings` is ``bad_format``.

    >>> outcome(1, (1, 2)), outcome(1, (1, 1)), outcome(2, (1, 2))
    ('win', 'tie', 'loss')
    >>> outcome(1, (1, 2, 3)), outcome(1, (1, 1, 3)), outcome(3, (1, 1, 3))
    ('win', 'tie', 'loss')
    """
    table = tuple(placings)
    if placing not in table:
        raise engine_error(
            "bad_format", detail_code="placing", value=repr(placing), table=repr(table)
        )
    best = min(table)
    if placing != best:
        return "loss"
    return "tie" if table.count(best) > 1 else "win"


class MatchState:
    """Cumulative points per side, the winner and the next leader.

    >>> match = MatchState(3, Rules(targets={3: 30}))
    >>> match.score_play(2, 15), match.score_play(2, 15)
    (False, True)
    >>> match.winners, match.is_over, match.totals_x2
    ([2], True, {0: 0, 1: 0, 2: 60})
    """

    __slots__ = (
        "_decided_after",
        "_target_x2",
        "_totals",
        "deciding",
        "hands_played",
        "next_leader",
        "players",
        "rules",
        "time_called",
        "winners",
    )

    players: int
    rules: Rules
    #: Sides that won (empty while the match goes on; two only for an R22 tie).
    winners: list[int]
    #: Seat that must lead the next hand, or None when it goes by lot (R5, R21).
    next_leader: int | None
    hands_played: int
    #: The match ended on time (R24), not at a target.
    time_called: bool
    #: Sides tied and playing the tie off (``tie_break``); empty otherwise.
    deciding: list[int]

    def __init__(self, players: int, rules: Rules | None = None) -> None:
        self.players = check_players(players)
        self.rules = rules if rules is not None else Rules()
        self._target_x2 = 2 * self.rules.target(players)
        self._totals = [0] * len(sides_of(players))
        self.winners = []
        self.next_leader = None
        self.hands_played = 0
        self.time_called = False
        self.deciding = []
        self._decided_after = 0

    @property
    def target(self) -> int:
        """The target every side plays to (R4)."""
        return self._target_x2 >> 1

    @property
    def totals_x2(self) -> dict[int, int]:
        """Points per side so far, in half-points."""
        return dict(enumerate(self._totals))

    @property
    def is_over(self) -> bool:
        """True once a side has reached its target."""
        return bool(self.winners)

    def start_hand(self, leader: int) -> None:
        """Check that a new hand may start, led by `leader` (R5, R21, R22)."""
        if self.winners:
            raise engine_error("match_over")
        if type(leader) is not int or not 0 <= leader < self.players:
            raise engine_error("bad_format", detail_code="leader_not_seat", value=repr(leader))
        if self.next_leader is not None and leader != self.next_leader:
            raise engine_error("wrong_leader", leader=leader, expected=self.next_leader)

    def score_play(self, seat: int, points: int) -> bool:
        """Add a play's points for `seat`'s side; True when that reaches the target."""
        if self.winners:
            raise engine_error("match_over")
        side = side_of(seat, self.players)
        total = self._totals[side] + points + points
        self._totals[side] = total
        if total >= self._target_x2 and not self.deciding:
            self.winners = [side]
            self.next_leader = None
            return True
        return False

    def add_hand_points(self, points_x2: Sequence[int]) -> bool:
        """Add a hand's play points per side at once, for a caller that has checked that
        no play but the hand's last reached the target; True when that one did (R22).

        >>> match = MatchState(2, Rules(targets={2: 20}))
        >>> match.add_hand_points([30, 40]), match.winners
        (True, [1])
        """
        if self.winners:
            raise engine_error("match_over")
        totals = self._totals
        for side, points in enumerate(points_x2):
            totals[side] += points
            if totals[side] >= self._target_x2 and not self.deciding:
                self.winners = [side]
                self.next_leader = None
        return bool(self.winners)

    def settle(self, settlement: Settlement) -> bool:
        """Add a hand's end-of-hand points (all at once); True when the match is won."""
        if self.winners:
            raise engine_error("match_over")
        reached = []
        for side, bonus in settlement.bonus_x2.items():
            self._totals[side] += bonus
            if self._totals[side] >= self._target_x2:
                reached.append(side)
        if self.deciding or not reached:
            return False  # a play-off hand is judged when it ends
        best = max(self._totals[side] for side in reached)
        self._finish(sorted(side for side in reached if self._totals[side] == best), 1)
        return bool(self.winners)

    def end_hand(self, went_out: int | None) -> None:
        """Close a hand: the seat that went out leads next; after a block, by lot (R21)."""
        self.hands_played += 1
        if self.deciding and self.hands_played > self._decided_after:
            best = max(self._totals)
            self._finish([side for side, total in enumerate(self._totals) if total == best], 0)
        self.next_leader = None if self.winners else went_out

    def _finish(self, best: list[int], hands_to_come: int) -> None:
        """End the match with the sides on the highest total winning — or, when several
        share it under a tie-break, play it off from the hand after the next
        ``hands_to_come`` (1 while the hand that tied is still being settled)."""
        if len(best) > 1 and self.rules.tie_break is not None:
            self.deciding = best
            self._decided_after = self.hands_played + hands_to_come
            return
        self.winners = best
        self.deciding = []
        self.next_leader = None

    def call_time(self) -> None:
        """End the match on time after a complete hand (R24): the highest total wins,
        and every side on an equal highest total ties.

        >>> match = MatchState(3, Rules(time_limit=30))
        >>> match.score_play(0, 10), match.score_play(2, 10)
        (False, False)
        >>> match.call_time()
        >>> match.winners, match.is_over, match.time_called, match.next_leader
        ([0, 2], True, True, None)
        """
        if self.winners:
            raise engine_error("match_over")
        self.time_called = True
        if self.deciding:
            return  # already playing a tie off; its hands go on
        best = max(self._totals)
        self._finish([side for side, total in enumerate(self._totals) if total == best], 0)

    def side_of(self, seat: int) -> int:
        """The side `seat` plays for."""
        return side_of(seat, self.players)
