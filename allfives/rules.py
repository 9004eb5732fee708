"""The rule set a match is played under, and who sits on which side.

`Rules` holds what organisers may change: the target per player count (R4),
the hand size per player count (R3), the award for a blocked hand (R20,
``"opponents"`` or ``"difference"``) and the round clock (R24: ``time_limit``,
minutes a round may last, or None to play to the target only) and the tie-break
(R22, R24: ``tie_break``, ``"extra_hand"`` to play a tied match off one hand at a
time, or None to let the tie stand). It reads and writes the ``"rules"``
object of docs/scoresheet.md; every field is optional there and partial maps are
merged over the defaults. The defaults are module constants so that the
database and the engine take them from one place.

A *side* is one player, or a partnership at four players (R2: seats 0+2
against 1+3). A side is named by its lowest seat, so `side_of(3, 4) == 1`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Literal, NoReturn, cast

from allfives.errors import engine_error

__all__ = [
    "DEFAULT_BLOCKED_AWARD",
    "DEFAULT_HAND_SIZES",
    "DEFAULT_TARGETS",
    "PLAYER_COUNTS",
    "BlockedAward",
    "Rules",
    "TieBreak",
    "check_players",
    "side_of",
    "side_seats",
    "sides",
    "sides_of",
]

BlockedAward = Literal["opponents", "difference"]

#: How a tied match is played off: one more hand, repeated while tied (R22, R24).
TieBreak = Literal["extra_hand"]

#: R2: the game is for two, three or four players.
PLAYER_COUNTS: Final = (2, 3, 4)
#: R4 (Pagat): 250 points with two players, 200 with three or four.
DEFAULT_TARGETS: Final[Mapping[int, int]] = MappingProxyType({2: 250, 3: 200, 4: 200})
#: R3 (Pagat): 9 tiles each with two players, 7 with three, 5 with four.
DEFAULT_HAND_SIZES: Final[Mapping[int, int]] = MappingProxyType({2: 9, 3: 7, 4: 5})
#: R20: seed 000's award for a blocked hand is the opponents' pooled pips.
DEFAULT_BLOCKED_AWARD: Final[BlockedAward] = "opponents"
_AWARDS: Final = ("opponents", "difference")


def check_players(players: object) -> int:
    """Return `players` if it is 2, 3 or 4, else raise ``bad_players`` (R2)."""
    if type(players) is not int or players not in PLAYER_COUNTS:
        raise engine_error("bad_players", players=players)
    return players


def side_of(seat: int, players: int) -> int:
    """The side a seat scores for: its partnership at four players, else itself (R2).

    >>> side_of(3, 4), side_of(2, 4), side_of(2, 3), side_of(1, 2)
    (1, 0, 2, 1)
    """
    return seat % 2 if players == 4 else seat


def sides_of(players: int) -> tuple[int, ...]:
    """The sides of a table, each named by its lowest seat (R2), in seat order.

    >>> sides_of(4), sides_of(3), sides_of(2)
    ((0, 1), (0, 1, 2), (0, 1))
    """
    return (0, 1) if players == 4 else tuple(range(players))


#: The name the engine's own modules have used for `sides_of`.
sides = sides_of


def side_seats(side: int, players: int) -> tuple[int, ...]:
    """The seats playing for `side` (R2: partners sit opposite at four players).

    >>> side_seats(1, 4), side_seats(0, 4), side_seats(1, 3)
    ((1, 3), (0, 2), (1,))
    """
    return (side, side + 2) if players == 4 else (side,)


def _bad(detail: str) -> NoReturn:
    raise engine_error("bad_format", detail_code="bad_rules", why=detail)


def _player_map(value: object, name: str, low: int) -> dict[int, int]:
    """Read ``{"2": 250, ...}`` (or int keys) into a dict, checking every entry."""
    if not isinstance(value, Mapping):
        _bad(f"{name} must be an object mapping a player count to a number")
    result: dict[int, int] = {}
    for key, number in value.items():
        players = key if type(key) is int else _count_key(key)
        if players not in PLAYER_COUNTS:
            _bad(f"{name} has a key {key!r}; the player counts are 2, 3 and 4")
        if type(number) is not int or number < low:
            _bad(f"{name}[{key!r}] must be a whole number of at least {low}, not {number!r}")
        result[players] = number
    return result


def _check_time_limit(value: object) -> None:
    if value is not None and (type(value) is not int or value < 1):
        _bad(f"time_limit must be a whole number of minutes of at least 1, or null, not {value!r}")


def _check_tie_break(value: object) -> None:
    if value is not None and value != "extra_hand":
        _bad(f"tie_break must be 'extra_hand' or null, not {value!r}")


def _count_key(key: object) -> int:
    if type(key) is str and key in ("2", "3", "4"):
        return int(key)
    return -1


def _frozen(mapping: Mapping[int, int]) -> Mapping[int, int]:
    return MappingProxyType(dict(sorted(mapping.items())))


@dataclass(frozen=True, slots=True)
class Rules:
    """A rule set: targets and hand sizes per player count, the blocked award, the
    round clock (``time_limit`` in minutes, None without a clock; R24) and the
    tie-break (``tie_break``: ``"extra_hand"``, or None to let a tie stand).

    >>> rules = Rules.from_json({"targets": {"4": 500}})
    >>> rules.target(4), rules.target(2), rules.hand_size(3), rules.blocked_award
    (500, 250, 7, 'opponents')
    >>> Rules.from_json(rules.to_json()) == rules
    True
    >>> Rules.from_json({"time_limit": 30}).time_limit
    30
    >>> Rules.from_json({"tie_break": "extra_hand"}).to_json()["tie_break"]
    'extra_hand'
    """

    targets: Mapping[int, int] = field(default_factory=lambda: DEFAULT_TARGETS)
    hand_sizes: Mapping[int, int] = field(default_factory=lambda: DEFAULT_HAND_SIZES)
    blocked_award: BlockedAward = DEFAULT_BLOCKED_AWARD
    time_limit: int | None = None
    tie_break: TieBreak | None = None

    def __post_init__(self) -> None:
        targets = {**DEFAULT_TARGETS, **_player_map(self.targets, "targets", 1)}
        hand_sizes = {**DEFAULT_HAND_SIZES, **_player_map(self.hand_sizes, "hand_sizes", 1)}
        for players, size in hand_sizes.items():
            if players * size > 28:
                _bad(f"{players} hands of {size} tiles need more than the 28 tiles of the set")
        if self.blocked_award not in _AWARDS:
            _bad(f"blocked_award must be 'opponents' or 'difference', not {self.blocked_award!r}")
        _check_time_limit(self.time_limit)
        _check_tie_break(self.tie_break)
        object.__setattr__(self, "targets", _frozen(targets))
        object.__setattr__(self, "hand_sizes", _frozen(hand_sizes))

    def __hash__(self) -> int:
        return hash(
            (
                tuple(self.targets.items()),
                tuple(self.hand_sizes.items()),
                self.blocked_award,
                self.time_limit,
                self.tie_break,
            )
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return (
            dict(self.targets) == dict(other.targets)
            and dict(self.hand_sizes) == dict(other.hand_sizes)
            and self.blocked_award == other.blocked_award
            and self.time_limit == other.time_limit
            and self.tie_break == other.tie_break
        )

    def __repr__(self) -> str:
        return (
            f"Rules(targets={dict(self.targets)!r}, hand_sizes={dict(self.hand_sizes)!r}, "
            f"blocked_award={self.blocked_award!r}, time_limit={self.time_limit!r}, "
            f"tie_break={self.tie_break!r})"
        )

    @classmethod
    def from_json(cls, obj: object) -> Rules:
        """Read the docs/scoresheet.md ``"rules"`` object (None or ``{}`` gives the defaults)."""
        if obj is None:
            return cls()
        if not isinstance(obj, Mapping):
            _bad("the rules must be an object")
        targets = obj.get("targets", {})
        hand_sizes = obj.get("hand_sizes", {})
        award = obj.get("blocked_award", DEFAULT_BLOCKED_AWARD)
        if award not in _AWARDS:
            _bad(f"blocked_award must be 'opponents' or 'difference', not {award!r}")
        time_limit = obj.get("time_limit")
        _check_time_limit(time_limit)
        tie_break = obj.get("tie_break")
        _check_tie_break(tie_break)
        return cls(
            targets=_player_map(targets, "targets", 1),
            hand_sizes=_player_map(hand_sizes, "hand_sizes", 1),
            blocked_award=cast(BlockedAward, award),
            time_limit=cast(int | None, time_limit),
            tie_break=cast(TieBreak | None, tie_break),
        )

    def to_json(self) -> dict[str, object]:
        """The complete ``"rules"`` object, every field written out (``time_limit`` only
        when the rule set has a round clock and ``tie_break`` only when a tie is played
        off, so that a sheet without either reads as before)."""
        json: dict[str, object] = {
            "targets": {str(players): target for players, target in self.targets.items()},
            "hand_sizes": {str(players): size for players, size in self.hand_sizes.items()},
            "blocked_award": self.blocked_award,
        }
        if self.time_limit is not None:
            json["time_limit"] = self.time_limit
        if self.tie_break is not None:
            json["tie_break"] = self.tie_break
        return json

    @property
    def has_clock(self) -> bool:
        """True when a round may end on time (R24)."""
        return self.time_limit is not None

    def target(self, players: int) -> int:
        """The target a side must reach to win (R4)."""
        return self.targets[check_players(players)]

    def hand_size(self, players: int) -> int:
        """The tiles dealt to each player (R3)."""
        return self.hand_sizes[check_players(players)]
