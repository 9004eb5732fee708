"""Tiles and the double-six set (R1)."""

from __future__ import annotations

import copy
import pickle

import pytest

from allfives import ALL_TILES, AllFivesError, Tile
from allfives.tiles import (
    FULL_MASK,
    OTHER,
    PIP_MASK,
    PIPS,
    heaviest_pips,
    lightest_pips,
    mask_of,
    mask_pips,
    tiles_in,
)


def test_r1_the_set_has_28_distinct_tiles_and_168_pips() -> None:
    assert len(ALL_TILES) == 28
    assert len(set(ALL_TILES)) == 28
    assert sum(tile.pips for tile in ALL_TILES) == 168
    assert [str(tile) for tile in ALL_TILES][:8] == [
        "0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-1",
    ]  # fmt: skip
    assert sum(tile.is_double for tile in ALL_TILES) == 7


def test_r1_each_pip_value_shows_on_seven_tiles() -> None:
    for pips in range(7):
        assert PIP_MASK[pips].bit_count() == 7
        assert all(ALL_TILES[t].has(pips) for t in tiles_in(PIP_MASK[pips]))


@pytest.mark.parametrize(("text", "low", "high"), [("6-3", 3, 6), ("3-6", 3, 6), ("5-5", 5, 5)])
def test_tile_parse_is_order_free_and_formats_low_high(text: str, low: int, high: int) -> None:
    tile = Tile.parse(text)
    assert (tile.low, tile.high) == (low, high)
    assert tile is Tile(high, low) is Tile(low, high)
    assert str(tile) == f"{low}-{high}"
    assert tile.label == f"[{low}|{high}]"
    assert Tile.parse(str(tile)) is tile


@pytest.mark.parametrize("text", ["7-1", "3/6", "36", "", " 3-6", "3-6 ", "a-b", "-1-2", "3--6"])
def test_tile_parse_refuses_anything_but_a_dash_b(text: str) -> None:
    with pytest.raises(AllFivesError) as caught:
        Tile.parse(text)
    assert caught.value.code == "bad_format"
    assert caught.value.rule is None


@pytest.mark.parametrize("value", [36, None, ["3", "6"], 3.6])
def test_tile_parse_refuses_non_strings(value: object) -> None:
    with pytest.raises(AllFivesError):
        Tile.parse(value)  # type: ignore[arg-type]


def test_tile_constructor_checks_its_pips() -> None:
    with pytest.raises(AllFivesError):
        Tile(7, 1)
    with pytest.raises(AllFivesError):
        Tile(True, 1)


def test_tile_is_an_immutable_interned_value() -> None:
    tile = Tile.parse("2-4")
    with pytest.raises(AttributeError):
        tile.low = 3  # type: ignore[misc]
    assert copy.copy(tile) is tile
    assert copy.deepcopy(tile) is tile
    assert pickle.loads(pickle.dumps(tile)) is tile  # noqa: S301 - our own bytes
    assert hash(tile) == tile.index
    assert {Tile.parse("4-2"): 1}[tile] == 1
    assert repr(tile) == "Tile.parse('2-4')"


def test_tiles_sort_in_canonical_order() -> None:
    shuffled = sorted(ALL_TILES, key=lambda tile: (tile.pips, -tile.low))
    assert sorted(shuffled) == list(ALL_TILES)
    assert Tile.parse("0-6") < Tile.parse("1-1") <= Tile.parse("1-1")
    assert Tile.parse("6-6") > Tile.parse("5-6") >= Tile.parse("5-6")


def test_tile_halves() -> None:
    tile = Tile.parse("2-5")
    assert tile.other(5) == 2 and tile.other(2) == 5
    assert tile.has(5) and not tile.has(3)
    with pytest.raises(ValueError):
        tile.other(3)
    assert all(
        OTHER[t * 7 + p] == (tile.other(p) if tile.has(p) else -1)
        for t, tile in enumerate(ALL_TILES)
        for p in range(7)
    )


def test_mask_helpers_agree_with_plain_sums() -> None:
    tiles = [Tile.parse(text) for text in ("6-6", "0-0", "3-4", "2-5")]
    mask = mask_of(tiles)
    assert sorted(ALL_TILES[t] for t in tiles_in(mask)) == sorted(tiles)
    assert mask_pips(mask) == 12 + 0 + 7 + 7
    assert mask_pips(FULL_MASK) == 168
    weights = sorted(PIPS)
    assert lightest_pips(5) == sum(weights[:5])
    assert heaviest_pips(5) == sum(weights[-5:])
    assert heaviest_pips(3, mask) == 12 + 7 + 7
    assert lightest_pips(2, mask) == 0 + 7
    assert heaviest_pips(5, mask) == -1 and lightest_pips(5, mask) == -1
