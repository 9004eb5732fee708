"""Helpers shared by the engine tests: scoresheet builders and independent reference
computations (written from docs/rules.md directly, not from the engine's code)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from allfives import Layout, check, replay
from allfives.errors import AllFivesError

# Deal A: two players, nine each; seat 1 holds no 3 and no 6.
DEAL_A = [
    ["3-6", "3-3", "6-6", "0-3", "0-6", "1-3", "1-6", "2-3", "2-6"],
    ["0-0", "0-1", "0-2", "0-4", "0-5", "1-1", "1-2", "1-4", "1-5"],
]
BONEYARD_A = ["2-2", "2-4", "2-5", "4-4", "4-5", "5-5", "3-4", "3-5", "4-6", "5-6"]

# The "zero line": ten tiles after which all four ends show 0 and all seven 0-tiles
# are laid, so nobody can play: a block. (seat order of play, tile, end)
ZERO_LINE = [
    ("0-0", None),
    ("0-2", "W"),
    ("0-3", "E"),
    ("1-2", "W"),
    ("3-4", "E"),
    ("0-1", "W"),
    ("0-4", "E"),
    ("0-5", "E"),
    ("5-6", "E"),
    ("0-6", "E"),
]
# The 18 tiles left: two 9-tile halves of 63 pips each, and a light 45 / heavy 81 split.
EVEN_A = ["1-1", "1-3", "1-4", "1-5", "1-6", "2-5", "4-6", "5-5", "6-6"]
EVEN_B = ["2-2", "2-3", "2-4", "2-6", "3-3", "3-5", "3-6", "4-4", "4-5"]
LIGHT = ["1-1", "1-3", "2-2", "1-4", "2-3", "1-5", "2-4", "3-3", "1-6"]
HEAVY = ["2-5", "2-6", "3-5", "3-6", "4-4", "4-5", "4-6", "5-5", "6-6"]


def scoresheet(
    players: int, hands: Sequence[Mapping[str, Any]], rules: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A docs/scoresheet.md document."""
    document: dict[str, Any] = {"format": "allfives/1", "players": players, "hands": list(hands)}
    if rules is not None:
        document["rules"] = dict(rules)
    return document


def play(seat: int, tile: str, end: str | None = None) -> dict[str, Any]:
    move: dict[str, Any] = {"seat": seat, "play": tile}
    if end is not None:
        move["end"] = end
    return move


def draw(seat: int, tile: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "draw": tile}


def passes(*seats: int) -> list[dict[str, Any]]:
    return [{"seat": seat, "pass": True} for seat in seats]


def error_of(document: object) -> AllFivesError:
    """The error `replay` raises for a document (fails the test if none)."""
    try:
        replay(document)
    except AllFivesError as error:
        verdict = check(document)
        assert verdict == {"ok": False, "error": error.to_json()}
        return error
    raise AssertionError(f"no error for {document!r}")


def round5(pips: int) -> int:
    """R18 written out: remainders 1, 2 round down, 3, 4 up."""
    remainder = pips % 5
    return pips - remainder if remainder <= 2 else pips + 5 - remainder


def reference_settlement(
    *, end: str, pips: Sequence[int], players: int, award: str, went_out: int | None
) -> tuple[list[int], dict[int, float]]:
    """R19/R20 as the rule text reads: (hand_winner seats, bonus points per side)."""

    def side(seat: int) -> int:
        return seat % 2 if players == 4 else seat

    sides = sorted({side(seat) for seat in range(players)})
    side_pips = {s: sum(pips[seat] for seat in range(players) if side(seat) == s) for s in sides}
    if end == "domino":
        assert went_out is not None
        mine = side(went_out)
        pooled = sum(p for s, p in side_pips.items() if s != mine)
        return [seat for seat in range(players) if side(seat) == mine], {mine: round5(pooled)}
    lowest = min(side_pips.values())
    tied = [s for s in sides if side_pips[s] == lowest]
    if len(tied) == 1:
        mine = tied[0]
        others = [p for s, p in side_pips.items() if s != mine]
        value = sum(others) if award == "opponents" else sum(p - lowest for p in others)
        return [seat for seat in range(players) if side(seat) == mine], {mine: round5(value)}
    if players == 3 and len(tied) == 2:
        (third,) = [p for s, p in side_pips.items() if s not in tied]
        value = round5(third if award == "opponents" else third - lowest)
        return tied, {s: value / 2 for s in tied}
    return [], {}


def count_from_geometry(layout: Layout) -> int:
    """R11 recomputed from the drawn layout (main line, spinner, branches) alone."""
    line = layout.main_line()
    if not line:
        return 0
    if len(line) == 1:
        return line[0].first + line[0].second
    spinner = layout.spinner_index
    total = 0
    west, east = line[0], line[-1]
    total += west.first * (2 if west.tile.is_double else 1)
    total += east.second * (2 if east.tile.is_double else 1)
    if spinner is not None and 0 < spinner < len(line) - 1:
        for end in ("N", "S"):
            branch = layout.branch(end)
            if branch:
                total += branch[-1].second * (2 if branch[-1].tile.is_double else 1)
    return total


def documented_winner(winners: Sequence[int]) -> object:
    """docs/scoresheet.md's ``winner`` for the sides that won: the side itself, for a
    tie the tied sides by name (``["1", "2"]``), null while nobody has won."""
    if not winners:
        return None
    return winners[0] if len(winners) == 1 else [str(side) for side in winners]
