"""A hand's entry, read and checked: the deal, and the tiles or pips left at the end.

`read_deal` reads a docs/scoresheet.md ``deal`` into one tile mask per seat (R1: each
tile once; R3: each hand its size). `parse_left` reads ``left``, and `check_left`
checks its figures against a finished `HandState` before the end-of-hand points
are settled from them (R18-R20): with a deal they must agree with it; without,
each figure must be possible — a whole number between the least and the most
the seat's tiles could carry, given the tiles seen — and in a blocked hand no
held tile may fit an open end. A figure that fails is ``left_disagrees``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import reduce
from operator import or_
from typing import Final, Protocol

from allfives.errors import AllFivesError, engine_error
from allfives.layout import Layout
from allfives.tiles import (
    BIT,
    FULL_MASK,
    LABEL,
    TEXT_INFO,
    Tile,
    heaviest_pips,
    lightest_pips,
    lowest_tile,
    mask_pips,
    parse_tile,
    tiles_in,
)


class HandState(Protocol):
    """What the checks read of a finished hand: ``allfives.hand.HandState`` (which
    imports this module) has all of it; a protocol keeps the import one way."""

    players: int
    dealt: bool
    hands: list[int]
    held: list[int]
    free: int
    layout: Layout
    boneyard_count: int

    def is_blocked(self) -> bool: ...


__all__ = ["check_left", "mask_of_left_tiles", "parse_left", "read_deal"]


def _labels(mask: int) -> str:
    return " ".join(LABEL[t] for t in tiles_in(mask)) or "no tile"


def check_left(state: HandState, entries: Mapping[int, tuple[bool, int]]) -> list[int | None]:
    """Each seat's remaining pips in `state`, checking every figure `entries`
    gives (seat -> (is a tile mask, pips or mask)): with a deal each must agree with it;
    without, each must be possible (``left_disagrees``). Without a deal, a seat not
    given is None.

    >>> from allfives.hand import HandState
    >>> state = HandState(2, 0)
    >>> state.play(0, TEXT_INFO["5-5"][0], None, 5)
    10
    >>> check_left(state, parse_left({"1": 40}, 2))
    [None, 40]
    >>> check_left(state, parse_left({"1": 12}, 2))
    Traceback (most recent call last):
    ...
    allfives.errors.ScoreError: seat 1: remaining 12 pips: its 9 tile(s) can carry only 23 to ...
    """
    if state.dealt:
        for seat, (is_tiles, value) in entries.items():
            actual = state.hands[seat]
            if is_tiles and value != actual:
                raise _disagrees(seat, value, True, "deal_leaves", tiles=_labels(actual))
            if not is_tiles and value != mask_pips(actual):
                raise _disagrees(seat, value, False, "tiles_carry", pips=mask_pips(actual))
        return [mask_pips(mask) for mask in state.hands]
    return _check_unknown_left(state, entries)


def _check_unknown_left(
    state: HandState, entries: Mapping[int, tuple[bool, int]]
) -> list[int | None]:
    layout = state.layout
    blocked = state.is_blocked()
    pips: list[int | None] = [None] * state.players
    listed = 0
    known_all = 0
    for mask in state.hands:
        known_all |= mask
    for seat, (is_tiles, value) in entries.items():
        if not is_tiles:
            continue
        count = state.held[seat]
        known = state.hands[seat]
        if value.bit_count() != count:
            raise _disagrees(seat, value, True, "holds_count", count=count)
        for bad, why in (
            (value & layout.played, "on_table"),
            (known & ~value, "drew"),
            (value & known_all & ~known, "in_other_hand"),
            (value & listed, "listed_other"),
            (value & layout.open_mask if blocked else 0, "would_fit"),
        ):
            if bad:
                raise _disagrees(seat, value, True, why, tile=LABEL[lowest_tile(bad)])
        listed |= value
        pips[seat] = mask_pips(value)
    pool = state.free & ~listed
    if blocked:
        pool &= ~layout.open_mask
    for seat, (is_tiles, value) in entries.items():
        if is_tiles:
            continue
        known = state.hands[seat]
        unknown = state.held[seat] - known.bit_count()
        base = mask_pips(known)
        low = lightest_pips(unknown, pool)
        high = heaviest_pips(unknown, pool)
        if low < 0 or not base + low <= value <= base + high:
            raise _disagrees(
                seat,
                value,
                False,
                "pips_range",
                count=state.held[seat],
                low=base + max(low, 0),
                high=base + max(high, 0),
            )
        pips[seat] = value
    if entries:
        _check_left_together(state, entries, pips, pool)
    return pips


def _check_left_together(
    state: HandState, entries: Mapping[int, tuple[bool, int]], pips: list[int | None], pool: int
) -> None:
    """The seats given, the others and the boneyard share the tiles not on the table."""
    unplayed = mask_pips(FULL_MASK & ~state.layout.played)
    others_known = 0
    others_unknown = state.boneyard_count
    for seat in range(state.players):
        if seat not in entries:
            others_known |= state.hands[seat]
            others_unknown += state.held[seat] - state.hands[seat].bit_count()
    base = mask_pips(others_known)
    # The others and the boneyard carry between these many pips:
    low = base + max(lightest_pips(others_unknown, pool), 0)
    high = base + heaviest_pips(others_unknown, pool)
    given = sum(p for p in pips if p is not None)
    if not unplayed - high <= given <= unplayed - low:
        seat = max(entries)
        raise _disagrees(
            seat,
            pips[seat] or 0 if not entries[seat][0] else entries[seat][1],
            entries[seat][0],
            "together",
            total=given,
            low=max(unplayed - high, 0),
            high=unplayed - low,
        )


def _disagrees(
    seat: int, value: int, is_tiles: bool, detail_code: str, **params: object
) -> AllFivesError:
    """``left_disagrees`` for `seat`, which gave `value` (pips, or a tile mask)."""
    given = _labels(value) if is_tiles else f"{value} pips"
    given_value = [LABEL[t] for t in tiles_in(value)] if is_tiles else value
    return engine_error(
        "left_disagrees",
        seat=seat,
        given=given,
        given_value=given_value,
        detail_code=detail_code,
        **params,
    )


def mask_of_left_tiles(tiles: Iterable[object], seat: int) -> int:
    """The mask of the tiles a ``left`` entry lists for `seat`, each at most once."""
    mask = 0
    for item in tiles:
        if isinstance(item, Tile):
            t = item.index
        elif type(item) is str and item in TEXT_INFO:
            t = TEXT_INFO[item][0]
        else:
            raise engine_error("bad_format", detail_code="left_not_tile", value=repr(item))
        if mask & BIT[t]:
            raise _disagrees(seat, mask | BIT[t], True, "listed_twice", tile=LABEL[t])
        mask |= BIT[t]
    return mask


def read_deal(deal: object, players: int, size: int) -> list[int]:
    """Read a deal (tiles or ``"a-b"`` per seat) into masks, checking R1 and R3.

    >>> read_deal([["0-0"], ["0-1"]], 2, 1)
    [1, 2]
    """
    if type(deal) is not list and (isinstance(deal, str | bytes) or not isinstance(deal, Sequence)):
        raise engine_error("bad_deal", detail_code="deal_per_seat", players=players)
    if len(deal) != players:
        raise engine_error("bad_deal", detail_code="deal_per_seat", players=players)
    # The common case at C speed: lists of `size` distinct "a-b" strings, no tile twice.
    # A sum of single bits has as many bits as terms only when no two are the same, so
    # one count over the whole deal shows that no tile repeats.
    if list(map(type, deal)).count(list) == players:
        bit = _BIT_BY_TEXT.__getitem__
        try:
            masks = [sum(map(bit, hand)) for hand in deal]
        except (KeyError, TypeError):
            pass
        else:
            if (
                sum(masks).bit_count() == players * size
                and list(map(len, deal)).count(size) == players
            ):
                return masks
    masks = []
    taken = 0
    for seat, hand in enumerate(deal):
        try:
            if type(hand) is not list:
                raise TypeError
            # The common case at C speed: a list of "a-b" strings. Their bits' sum is
            # their mask when no tile repeats (then, and only then, no bits carry and
            # the mask has one bit per tile); else the or-ed mask names the repeat.
            mask = sum(map(_BIT_BY_TEXT.__getitem__, hand))
            count = len(hand)
            if mask.bit_count() != count:
                mask = reduce(or_, map(_BIT_BY_TEXT.__getitem__, hand), 0)
        except (KeyError, TypeError):
            mask, count = _read_hand_slowly(hand, seat)
        if mask.bit_count() != count or taken & mask:
            twice = mask & taken or _first_repeat(hand)
            raise engine_error(
                "bad_deal", detail_code="dealt_twice", tile=LABEL[lowest_tile(twice)]
            )
        if count != size:
            raise engine_error(
                "bad_deal",
                detail_code="deal_size",
                other=seat,
                count=count,
                players=players,
                size=size,
            )
        taken |= mask
        masks.append(mask)
    return masks


_BIT_BY_TEXT: Final = {text: BIT[t] for text, (t, _) in TEXT_INFO.items()}


def _read_hand_slowly(hand: object, seat: int) -> tuple[int, int]:
    """`read_deal` for a hand that is not a list of tile strings: Tiles, or an error."""
    if isinstance(hand, str | bytes | Mapping) or not isinstance(hand, Iterable):
        raise engine_error("bad_deal", detail_code="deal_not_list", other=seat)
    mask = 0
    count = 0
    for item in hand:
        t = item.index if isinstance(item, Tile) else parse_tile(item)[0]
        if mask & BIT[t]:
            raise engine_error("bad_deal", detail_code="dealt_twice", tile=LABEL[t])
        mask |= BIT[t]
        count += 1
    return mask, count


def _first_repeat(hand: object) -> int:
    seen = 0
    for item in hand:  # type: ignore[attr-defined]
        bit = _BIT_BY_TEXT[item]
        if seen & bit:
            return bit
        seen |= bit
    return seen


def parse_left(obj: object, players: int) -> dict[int, tuple[bool, int]]:
    """Read a docs/scoresheet.md ``left`` object into seat -> (is a tile mask, pips or mask).

    Keys are seats (``"0"`` … or ints), values a whole number of pips or a list of
    tiles; a missing or null ``left`` reads as nothing given.

    >>> parse_left({"0": 12, "1": ["0-0", "0-1"]}, 2)
    {0: (False, 12), 1: (True, 3)}
    """
    if obj is None:
        return {}
    if not isinstance(obj, Mapping):
        raise engine_error("bad_format", detail_code="left_not_object")
    entries: dict[int, tuple[bool, int]] = {}
    for key, value in obj.items():
        seat = key if type(key) is int else _SEAT_KEYS.get(key) if type(key) is str else None
        if seat is None or not 0 <= seat < players:
            raise engine_error("bad_format", detail_code="not_a_seat", value=repr(key))
        if seat in entries:
            raise engine_error("bad_format", detail_code="left_twice", other=seat)
        if type(value) is int:
            entries[seat] = (False, value)
        elif isinstance(value, list | tuple):
            entries[seat] = (True, mask_of_left_tiles(value, seat))
        else:
            raise engine_error(
                "bad_format",
                detail_code="left_value",
                value=repr(value),
            )
    return entries


_SEAT_KEYS: Final = {str(seat): seat for seat in range(4)}
