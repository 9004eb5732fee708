"""Tiles of the double-six set (docs/rules.md R1) and the lookup tables the engine runs on.

A *tile* is one of the 28 pieces [0|0] … [6|6]; a *double* has the same pips on
both halves. `Tile` is the public value type: `Tile.parse("6-3")` and
`Tile.parse("3-6")` give the same (interned) object, written `"3-6"` by `str()`
and `"[3|6]"` by `.label` in sentences for people.

Inside the engine a tile is its *index* 0 … 27 (`Tile.index`, the order of
`ALL_TILES`), and a set of tiles is an int bit mask (bit `index`). The tables
below (`LOW`, `HIGH`, `PIPS`, `OTHER`, `PIP_MASK`, …) are precomputed once so
that the hot loops of replay and simulation do list look-ups only. They are
part of the package's internals, not of its public API.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, NoReturn

from allfives.errors import engine_error

__all__ = [
    "ALL_TILES",
    "BIT",
    "FULL_MASK",
    "HAS",
    "HIGH",
    "IS_DOUBLE",
    "LABEL",
    "LOW",
    "OTHER",
    "PIPS",
    "PIP_MASK",
    "PIP_MASK_OR_NONE",
    "TEXT",
    "TEXT_INFO",
    "TOTAL_PIPS",
    "Tile",
    "heaviest_pips",
    "lightest_pips",
    "lowest_tile",
    "mask_of",
    "mask_pips",
    "parse_tile",
    "tiles_in",
]

#: Number of tiles in a double-six set and the pips on all of them (R1).
TILE_COUNT: Final = 28
TOTAL_PIPS: Final = 168

_PAIRS: Final = tuple((low, high) for low in range(7) for high in range(low, 7))

LOW: Final[tuple[int, ...]] = tuple(low for low, _ in _PAIRS)
HIGH: Final[tuple[int, ...]] = tuple(high for _, high in _PAIRS)
PIPS: Final[tuple[int, ...]] = tuple(low + high for low, high in _PAIRS)
IS_DOUBLE: Final[tuple[bool, ...]] = tuple(low == high for low, high in _PAIRS)
#: HAS[t] has bit p set when tile t shows p pips on one of its halves.
HAS: Final[tuple[int, ...]] = tuple((1 << low) | (1 << high) for low, high in _PAIRS)
#: OTHER[t * 7 + p] is the half of tile t opposite a half with p pips, or -1.
OTHER: Final[tuple[int, ...]] = tuple(
    (high if p == low else low if p == high else -1) for low, high in _PAIRS for p in range(7)
)
BIT: Final[tuple[int, ...]] = tuple(1 << t for t in range(TILE_COUNT))
FULL_MASK: Final = (1 << TILE_COUNT) - 1
#: PIP_MASK[p] is the mask of the seven tiles that show p pips.
PIP_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << t for t, (low, high) in enumerate(_PAIRS) if p in (low, high)) for p in range(7)
)
#: PIP_MASK with a trailing 0, so that index -1 (an end that is not open) gives no tiles.
PIP_MASK_OR_NONE: Final[tuple[int, ...]] = (*PIP_MASK, 0)
TEXT: Final[tuple[str, ...]] = tuple(f"{low}-{high}" for low, high in _PAIRS)
LABEL: Final[tuple[str, ...]] = tuple(f"[{low}|{high}]" for low, high in _PAIRS)
_INDEX: Final = {pair: t for t, pair in enumerate(_PAIRS)}
#: TEXT_INFO["6-3"] == (index of [3|6], 6): the tile and its first written half.
TEXT_INFO: Final[dict[str, tuple[int, int]]] = {
    f"{a}-{b}": (_INDEX[(min(a, b), max(a, b))], a) for a in range(7) for b in range(7)
}
_BY_WEIGHT: Final = sorted(PIPS)


def _bad_tile(text: object) -> NoReturn:
    raise engine_error("bad_format", detail_code="not_a_tile", value=repr(text))


def parse_tile(text: object) -> tuple[int, int]:
    """Engine form of `Tile.parse`: (tile index, first written half); else ``bad_format``."""
    info = TEXT_INFO.get(text) if type(text) is str else None
    if info is None:
        _bad_tile(text)
    return info


class Tile:
    """One tile of the double-six set; interned, immutable and hashable.

    >>> Tile.parse("6-3") == Tile.parse("3-6") == Tile(3, 6)
    True
    >>> tile = Tile.parse("6-3")
    >>> str(tile), tile.label, tile.pips, tile.is_double
    ('3-6', '[3|6]', 9, False)
    >>> Tile(5, 5).is_double, Tile(2, 4).other(4)
    (True, 2)
    """

    __slots__ = ("high", "index", "is_double", "label", "low", "pips")
    low: int
    high: int
    index: int
    pips: int
    is_double: bool
    label: str

    def __new__(cls, a: int, b: int) -> Tile:
        if type(a) is not int or type(b) is not int or not (0 <= a <= 6 and 0 <= b <= 6):
            _bad_tile(f"{a}-{b}")
        return _TILES[_INDEX[(a, b) if a <= b else (b, a)]]

    @classmethod
    def _make(cls, index: int) -> Tile:
        tile = object.__new__(cls)
        for name, value in (
            ("low", LOW[index]),
            ("high", HIGH[index]),
            ("index", index),
            ("pips", PIPS[index]),
            ("is_double", IS_DOUBLE[index]),
            ("label", LABEL[index]),
        ):
            object.__setattr__(tile, name, value)
        return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read a tile written ``"a-b"`` (either order); anything else is ``bad_format``."""
        info = TEXT_INFO.get(text) if type(text) is str else None
        if info is None:
            _bad_tile(text)
        return _TILES[info[0]]

    @classmethod
    def from_index(cls, index: int) -> Tile:
        """The tile at position `index` of `ALL_TILES`."""
        return _TILES[index]

    def has(self, pips: int) -> bool:
        """True when one half of the tile shows `pips`."""
        return pips in (self.low, self.high)

    def other(self, pips: int) -> int:
        """The half opposite a half showing `pips` (ValueError if the tile has no such half)."""
        if pips == self.low:
            return self.high
        if pips == self.high:
            return self.low
        raise ValueError(f"{self.label} has no half with {pips} pips")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.low, self.high))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __le__(self, other: Tile) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Tile) -> bool:
        return self.index > other.index

    def __ge__(self, other: Tile) -> bool:
        return self.index >= other.index

    def __str__(self) -> str:
        return TEXT[self.index]

    def __repr__(self) -> str:
        return f"Tile.parse({TEXT[self.index]!r})"


_TILES: Final[tuple[Tile, ...]] = tuple(Tile._make(t) for t in range(TILE_COUNT))

#: The 28 tiles in canonical order: [0|0], [0|1], … [0|6], [1|1], … [6|6].
ALL_TILES: Final[tuple[Tile, ...]] = _TILES


def tiles_in(mask: int) -> Iterator[int]:
    """Yield the tile indices of a bit mask in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest_tile(mask: int) -> int:
    """The lowest tile index in a non-empty mask: the tile an error message names."""
    return (mask & -mask).bit_length() - 1


def mask_of(tiles: Iterable[Tile]) -> int:
    """The bit mask of an iterable of `Tile` objects."""
    mask = 0
    for tile in tiles:
        mask |= BIT[tile.index]
    return mask


def _chunk_pips(shift: int) -> tuple[int, ...]:
    return tuple(
        sum(PIPS[shift + bit] for bit in range(7) if chunk >> bit & 1) for chunk in range(128)
    )


#: Pips of every 7-bit slice of a mask, so that a mask's pips take four look-ups.
_PIPS_0: Final = _chunk_pips(0)
_PIPS_7: Final = _chunk_pips(7)
_PIPS_14: Final = _chunk_pips(14)
_PIPS_21: Final = _chunk_pips(21)


def mask_pips(mask: int) -> int:
    """Total pips of the tiles in a mask."""
    return (
        _PIPS_0[mask & 127]
        + _PIPS_7[mask >> 7 & 127]
        + _PIPS_14[mask >> 14 & 127]
        + _PIPS_21[mask >> 21 & 127]
    )


def heaviest_pips(count: int, pool: int = FULL_MASK) -> int:
    """The most pips `count` tiles taken from the mask `pool` can carry."""
    weights = sorted((PIPS[t] for t in tiles_in(pool)), reverse=True)
    return sum(weights[:count]) if count <= len(weights) else -1


def lightest_pips(count: int, pool: int = FULL_MASK) -> int:
    """The fewest pips `count` tiles taken from the mask `pool` can carry."""
    if pool == FULL_MASK:
        return sum(_BY_WEIGHT[:count])
    weights = sorted(PIPS[t] for t in tiles_in(pool))
    return sum(weights[:count]) if count <= len(weights) else -1
