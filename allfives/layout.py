"""The line of play: where a tile may be laid (R7-R10) and the count (R11).

The *layout* grows from the lead along the main line, west (``W``) and east
(``E``). The first double laid in a hand, the lead included, is the *spinner*
(R9): once both of its straight sides hold a tile it opens two side branches,
north (``N``) and south (``S``), which may be started in either order (R10).
Every other double is an ordinary crosswise double (R8). An *open end* is the
exposed half at the end of an arm; an unstarted branch is an open end showing
the spinner's pips that counts 0.

The *count* (R11) is the sum over the open ends: an ordinary end gives its
pips, a double at an end both halves; a spinner with an uncovered straight
side gives both halves once (even when, as a lone lead, it sits at both ends);
a started branch gives its end, an unstarted one nothing. The engine keeps
each end's contribution and the spinner's apart, so the count after a play is
updated in a few integer operations rather than recomputed.

Where a tile goes (R7): on the end named, or, with no end named, on the only
open end it fits. **Decisions**: a tile that fits two or more open ends needs
the end named (``ambiguous_end``), even when the ends look alike (the two sides
of a lone double lead, two unstarted branches), because the record must say
where the tile lies; the lead takes no end (``lead_has_no_end``).

Text form (`str` / `Layout.parse`): the main line west to east, each tile with
its west half first, the spinner in brackets, then each started branch after a
bar, tiles written from the spinner outwards::

    3-6 [6-6] 6-2 | N 6-1 1-1

`Layout` is mutable (like a board); `copy()` is cheap. Tiles are engine tile
indices internally (see `allfives.tiles`); the public methods take and give
`Tile` objects and end names.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Final, NamedTuple, NoReturn

from allfives.errors import engine_error
from allfives.tiles import (
    BIT,
    FULL_MASK,
    HAS,
    IS_DOUBLE,
    LABEL,
    OTHER,
    PIP_MASK,
    PIP_MASK_OR_NONE,
    PIPS,
    TEXT,
    TEXT_INFO,
    Tile,
    tiles_in,
)

__all__ = [
    "END_INDEX",
    "END_NAMES",
    "END_WORDS",
    "Layout",
    "Placement",
    "open_mask_of",
]

#: Ends in engine order: the main line's west and east, the spinner's branches.
END_NAMES: Final = ("W", "E", "N", "S")
END_WORDS: Final = ("west", "east", "north", "south")
END_INDEX: Final[dict[str, int]] = {name: index for index, name in enumerate(END_NAMES)}
_MASK_OR_NONE: Final = PIP_MASK_OR_NONE
#: The points a count scores (R12): itself when a positive multiple of five.
SCORE: Final[tuple[int, ...]] = tuple(c if c % 5 == 0 else 0 for c in range(37))


def open_mask_of(pips: list[int]) -> int:
    """The tiles that fit at least one of the given end pips (-1 meaning closed)."""
    mask = _MASK_OR_NONE
    return mask[pips[0]] | mask[pips[1]] | mask[pips[2]] | mask[pips[3]]


class Placement(NamedTuple):
    """A laid tile as drawn: on the main line `first` is its west half and `second`
    its east half; on a branch `first` faces the spinner and `second` is outward."""

    tile: Tile
    first: int
    second: int

    @property
    def is_double(self) -> bool:
        """True for a double (drawn crosswise, R8)."""
        return self.tile.is_double


def _ends_text(pips: list[int]) -> str:
    return ", ".join(f"{END_NAMES[e]} {pips[e]}" for e in range(4) if pips[e] >= 0)


class Layout:
    """The tiles laid in a hand, the open ends and the count.

    >>> layout = Layout()
    >>> layout.play(Tile.parse("3-6"), west=3)  # the lead scores nothing: 9
    9
    >>> layout.play(Tile.parse("6-6"))  # the spinner at the east end: 3 + 6 + 6
    15
    >>> layout.play(Tile.parse("6-2"), "E")  # spinner covered on both sides: 3 + 2
    5
    >>> layout.open_ends()
    {'W': 3, 'E': 2, 'N': 6, 'S': 6}
    >>> str(layout)
    '3-6 [6-6] 6-2'
    >>> Layout.parse(str(layout)) == layout
    True
    """

    __slots__ = (
        "_arms",
        "_contrib",
        "_lead",
        "_lead_west",
        "_spin_ends",
        "_spin_sides",
        "_spin_value",
        "_spinner",
        "_spinner_arm",
        "_spinner_pos",
        "count",
        "laid",
        "open_mask",
        "pips",
        "played",
    )

    #: Pips of each open end, W E N S; -1 when the end is not open (read-only).
    pips: list[int]
    #: The count after the last tile laid (R11).
    count: int
    #: Mask of the tiles that fit some open end (all tiles before the lead).
    open_mask: int
    #: Mask of the tiles laid.
    played: int
    #: Number of tiles laid.
    laid: int

    def __init__(self) -> None:
        self.pips = [-1, -1, -1, -1]
        self._contrib = [0, 0, 0, 0]
        self.count = 0
        self.open_mask = FULL_MASK
        self.played = 0
        self.laid = 0
        self._spinner = -1
        self._spinner_arm = -1
        self._spinner_pos = -1
        self._spin_sides = 0
        self._spin_ends = 0
        self._spin_value = 0
        self._lead = -1
        self._lead_west = -1
        self._arms: tuple[list[tuple[int, int, int]], ...] = ([], [], [], [])

    def copy(self) -> Layout:
        """An independent copy."""
        new = Layout.__new__(Layout)
        new.pips = self.pips[:]
        new._contrib = self._contrib[:]
        new.count = self.count
        new.open_mask = self.open_mask
        new.played = self.played
        new.laid = self.laid
        new._spinner = self._spinner
        new._spinner_arm = self._spinner_arm
        new._spinner_pos = self._spinner_pos
        new._spin_sides = self._spin_sides
        new._spin_ends = self._spin_ends
        new._spin_value = self._spin_value
        new._lead = self._lead
        new._lead_west = self._lead_west
        new._arms = tuple(arm[:] for arm in self._arms)
        return new

    # ----------------------------------------------------------------- engine core

    def place(self, t: int, e: int, first: int) -> int:
        """Lay tile index `t` on end index `e` (-1 for the lead, west half `first`)
        without any check, and return the new count. Callers check first."""
        self.played |= BIT[t]
        self.laid += 1
        pips = self.pips
        contrib = self._contrib
        if e < 0:
            east = OTHER[t * 7 + first]
            pips[0] = first
            pips[1] = east
            self._lead = t
            self._lead_west = first
            if first == east:  # R9: a double lead is the spinner, at both ends
                self._spinner = t
                self._spinner_arm = 4
                self._spin_sides = 2
                self._spin_ends = 3
                self._spin_value = first + first
            else:
                contrib[0] = first
                contrib[1] = east
            count = first + east  # R11: a lone tile gives its two halves
            self.open_mask = PIP_MASK[first] | PIP_MASK[east]
            self.count = count
            return count
        inner = pips[e]
        outer = OTHER[t * 7 + inner]
        pips[e] = outer
        arm = self._arms[e]
        arm.append((t, inner, outer))
        count = self.count - contrib[e]
        if self._spin_ends >> e & 1:  # covering a straight side of the spinner
            self._spin_ends ^= 1 << e
            self._spin_sides -= 1
            if not self._spin_sides:  # R10: both straight sides held, branches open
                count -= self._spin_value
                pips[2] = pips[3] = self._spin_value >> 1
        if IS_DOUBLE[t]:
            if self._spinner < 0:  # R9: the first double becomes the spinner
                self._spinner = t
                self._spinner_arm = e
                self._spinner_pos = len(arm) - 1
                self._spin_sides = 1
                self._spin_ends = 1 << e
                self._spin_value = outer + outer
                contrib[e] = 0
            else:  # R8: a double at an end counts both halves
                contrib[e] = outer + outer
            count += outer + outer
        else:
            contrib[e] = outer
            count += outer
        self.open_mask = (
            _MASK_OR_NONE[pips[0]]
            | _MASK_OR_NONE[pips[1]]
            | _MASK_OR_NONE[pips[2]]
            | _MASK_OR_NONE[pips[3]]
        )
        self.count = count
        return count

    def count_after(self, t: int, e: int) -> int:
        """The count if tile index `t` were laid on end index `e` (-1: as the lead)."""
        if e < 0:
            return PIPS[t]
        outer = OTHER[t * 7 + self.pips[e]]
        count = self.count - self._contrib[e] + (outer + outer if IS_DOUBLE[t] else outer)
        if self._spin_ends >> e & 1 and self._spin_sides == 1:
            count -= self._spin_value
        return count

    def fitting_ends(self, t: int) -> list[int]:
        """End indices tile index `t` fits (empty before the lead: it takes no end)."""
        has = HAS[t]
        return [e for e, p in enumerate(self.pips) if p >= 0 and has >> p & 1]

    def resolve(self, t: int, e: int | None, seat: int | None = None) -> int:
        """Check that tile index `t` may go on end `e` (None: the only end it fits)
        and return the end index (-1 for the lead). Raises the R1/R6/R7/R10 errors."""
        if self.played & BIT[t]:
            raise engine_error("tile_already_played", seat=seat, tile=LABEL[t])
        if not self.laid:
            if e is not None:
                raise engine_error("lead_has_no_end", seat=seat, tile=LABEL[t])
            return -1
        pips = self.pips
        has = HAS[t]
        if e is None:
            found = -1
            for end in range(4):
                p = pips[end]
                if p >= 0 and has >> p & 1:
                    if found >= 0:
                        ends = self.fitting_ends(t)
                        raise engine_error(
                            "ambiguous_end",
                            seat=seat,
                            tile=LABEL[t],
                            ends=[END_NAMES[x] for x in ends],
                            end_names=" and ".join(END_WORDS[x] for x in ends),
                        )
                    found = end
            if found < 0:
                raise engine_error(
                    "tile_does_not_match",
                    seat=seat,
                    tile=LABEL[t],
                    ends=_ends_text(pips),
                    variant="no_end",
                    open_pips={END_NAMES[e]: pips[e] for e in range(4) if pips[e] >= 0},
                )
            return found
        p = pips[e]
        if p < 0:
            raise engine_error(
                "branch_not_open",
                seat=seat,
                tile=LABEL[t],
                end=END_NAMES[e],
                end_name=END_WORDS[e],
            )
        if not has >> p & 1:
            raise engine_error(
                "tile_does_not_match",
                seat=seat,
                tile=LABEL[t],
                end=END_NAMES[e],
                end_name=END_WORDS[e],
                pips=p,
            )
        return e

    # ------------------------------------------------------------------ public API

    def play(self, tile: Tile | str, end: str | None = None, *, west: int | None = None) -> int:
        """Lay `tile` on `end` (W, E, N, S; None when only one end fits) and return the
        count. The lead takes no end; `west` picks its west half (default: as written,
        or the low half of a `Tile`)."""
        if isinstance(tile, str):
            t = Tile.parse(tile).index
            first = TEXT_INFO[tile][1]
        else:
            t, first = tile.index, tile.low
        if west is not None:
            if not (type(west) is int and 0 <= west <= 6 and HAS[t] >> west & 1):
                raise engine_error(
                    "bad_format", detail_code="no_half", tile=LABEL[t], value=repr(west)
                )
            first = west
        e = None if end is None else END_INDEX.get(end)
        if end is not None and e is None:
            raise engine_error("bad_format", detail_code="not_an_end", value=repr(end))
        return self.place(t, self.resolve(t, e), first)

    def is_empty(self) -> bool:
        """True before the lead."""
        return not self.laid

    def can_play(self, tile: Tile) -> bool:
        """True when `tile` is not laid yet and fits an open end (any tile may lead)."""
        return not self.played & BIT[tile.index] and bool(self.open_mask & BIT[tile.index])

    def ends_for(self, tile: Tile) -> list[str]:
        """The names of the open ends `tile` fits (empty before the lead)."""
        return [END_NAMES[e] for e in self.fitting_ends(tile.index)]

    def open_ends(self) -> dict[str, int]:
        """Each end a tile can be laid on, with its pips (unstarted branches included)."""
        return {END_NAMES[e]: p for e, p in enumerate(self.pips) if p >= 0}

    def end_counts(self) -> dict[str, int]:
        """What each open end adds to the count (the spinner's share on its end)."""
        result = {END_NAMES[e]: self._contrib[e] for e in range(4) if self.pips[e] >= 0}
        if self._spin_sides:  # the spinner counts once, even as a lone lead at both ends
            result[END_NAMES[0 if self._spin_ends & 1 else 1]] += self._spin_value
        return result

    def is_branch_open(self) -> bool:
        """True once both straight sides of the spinner hold a tile (R10)."""
        return self.pips[2] >= 0

    def tiles(self) -> frozenset[Tile]:
        """The tiles laid."""
        return frozenset(Tile.from_index(t) for t in tiles_in(self.played))

    @property
    def spinner(self) -> Tile | None:
        """The spinner (R9), or None while no double has been laid."""
        return None if self._spinner < 0 else Tile.from_index(self._spinner)

    @property
    def lead(self) -> Tile | None:
        """The first tile of the hand."""
        return None if self._lead < 0 else Tile.from_index(self._lead)

    def main_line(self) -> list[Placement]:
        """The main line west to east, each tile with its west half first."""
        if self._lead < 0:
            return []
        west = [Placement(Tile.from_index(t), outer, inner) for t, inner, outer in self._arms[0]]
        west.reverse()
        east_half = OTHER[self._lead * 7 + self._lead_west]
        lead = Placement(Tile.from_index(self._lead), self._lead_west, east_half)
        east = [Placement(Tile.from_index(t), inner, outer) for t, inner, outer in self._arms[1]]
        return [*west, lead, *east]

    @property
    def spinner_index(self) -> int | None:
        """The spinner's position in `main_line()`, or None."""
        arm = self._spinner_arm
        if arm < 0:
            return None
        west = len(self._arms[0])
        if arm == 4:
            return west
        if arm == 0:
            return west - 1 - self._spinner_pos
        return west + 1 + self._spinner_pos

    def branch(self, end: str) -> list[Placement]:
        """The tiles of branch ``"N"`` or ``"S"``, from the spinner outwards."""
        arm = self._arms[END_INDEX[end]] if end in ("N", "S") else None
        if arm is None:
            raise ValueError(f"{end!r} is not a branch (N or S)")
        return [Placement(Tile.from_index(t), inner, outer) for t, inner, outer in arm]

    # ------------------------------------------------------------- text round trip

    def __str__(self) -> str:
        spinner = self.spinner_index
        parts = []
        for index, (_, first, second) in enumerate(self.main_line()):
            text = f"{first}-{second}"
            parts.append(f"[{text}]" if index == spinner else text)
        line = " ".join(parts)
        for end in (2, 3):
            if self._arms[end]:
                line += f" | {END_NAMES[end]} " + " ".join(
                    f"{inner}-{outer}" for _, inner, outer in self._arms[end]
                )
        return line

    def __repr__(self) -> str:
        return f"Layout.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return str(self) == str(other)

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Read the text form written by `str()`; anything inconsistent is ``bad_format``."""
        if type(text) is not str:
            _bad_layout(text, "not a string")
        parts = text.split("|")
        line = [_token(token, text) for token in parts[0].split()]
        branches: dict[int, list[tuple[int, int, int, bool]]] = {}
        for part in parts[1:]:
            words = part.split()
            if not words or words[0] not in ("N", "S") or END_INDEX[words[0]] in branches:
                _bad_layout(text, "each branch is written once, as 'N …' or 'S …'")
            branches[END_INDEX[words[0]]] = [_token(token, text) for token in words[1:]]
        spinners = [i for i, token in enumerate(line) if token[3]]
        if len(spinners) > 1 or any(t[3] for b in branches.values() for t in b):
            _bad_layout(text, "only one tile, on the main line, is the spinner")
        has_double = any(IS_DOUBLE[t[0]] for t in line) or bool(branches)
        if has_double and not spinners:
            _bad_layout(text, "the first double laid is the spinner: mark it [a-a]")
        if spinners and not IS_DOUBLE[line[spinners[0]][0]]:
            _bad_layout(text, "the spinner must be a double")
        for left, right in pairwise(line):
            if left[2] != right[1]:
                _bad_layout(text, f"{TEXT[left[0]]} and {TEXT[right[0]]} do not match")
        layout = cls()
        if not line:
            if branches:
                _bad_layout(text, "a branch needs a spinner")
            return layout
        lead = spinners[0] if spinners else 0
        # Lay the spinner (or the west tile) first: every other double is then a later one.
        layout.place(line[lead][0], -1, line[lead][1])
        for index in range(lead + 1, len(line)):
            _lay(layout, line[index][0], 1, text)
        for index in range(lead - 1, -1, -1):
            _lay(layout, line[index][0], 0, text)
        for end, tiles in branches.items():
            if not tiles:
                continue
            if not layout.is_branch_open():
                _bad_layout(text, "a branch opens only once both sides of the spinner are held")
            previous = layout.pips[end]
            for t, inner, outer, _ in tiles:
                if inner != previous:
                    _bad_layout(text, f"{TEXT[t]} does not continue the branch")
                _lay(layout, t, end, text)
                previous = outer
        return layout


def _bad_layout(text: object, why: str) -> NoReturn:
    raise engine_error("bad_format", detail_code="bad_layout", value=repr(text), why=why)


def _token(token: str, text: str) -> tuple[int, int, int, bool]:
    spinner = token.startswith("[") and token.endswith("]")
    info = TEXT_INFO.get(token[1:-1] if spinner else token)
    if info is None:
        _bad_layout(text, f"{token!r} is not a tile")
    t, first = info
    return t, first, OTHER[t * 7 + first], spinner


def _lay(layout: Layout, t: int, end: int, text: str) -> None:
    if layout.played & BIT[t]:
        _bad_layout(text, f"{TEXT[t]} appears twice")
    layout.place(t, end, layout.pips[end])
