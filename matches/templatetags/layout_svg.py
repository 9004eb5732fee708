"""A drawing (SVG) of a hand's layout, for any template (docs/rules.md R7-R11).

``{% load layout_svg %}`` then ``{% layout_svg source %}``, where ``source`` is an
``allfives.Layout``, a tile-by-tile scoresheet hand (a dict with ``moves``) or a
stored ``Hand``. The main line runs west to east; doubles lie crosswise (R8); the
spinner's branches (R10) grow north (up) and south (down). Below the drawing the
open ends and the count (R11) are listed. The public pages reuse this tag.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.translation import gettext as _

from allfives import AllFivesError, Layout, Tile
from matches.messages import END_INITIALS

register = template.Library()

U = 20  # a tile is 2U by U
PAD = 4
DOT = 2.1

#: Pip positions on a half (a U by U square), as fractions of U.
_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


@dataclass(frozen=True, slots=True)
class DrawnTile:
    x: float
    y: float
    w: float
    h: float
    label: str
    is_spinner: bool
    divider: tuple[float, float, float, float]
    dots: tuple[tuple[float, float], ...]


def _half_dots(pips: int, x: float, y: float) -> list[tuple[float, float]]:
    return [(round(x + fx * U, 1), round(y + fy * U, 1)) for fx, fy in _SPOTS[pips]]


def _tile(
    x: float, y: float, *, across: bool, first: int, second: int, label: str, spinner: bool
) -> DrawnTile:
    """A tile with its top-left at (x, y); ``across``: long side horizontal, ``first``
    half on the left (or, upright, on top)."""
    if across:
        dots = _half_dots(first, x, y) + _half_dots(second, x + U, y)
        return DrawnTile(
            x, y, 2 * U, U, label, spinner, (x + U, y + 2, x + U, y + U - 2), tuple(dots)
        )
    dots = _half_dots(first, x, y) + _half_dots(second, x, y + U)
    return DrawnTile(x, y, U, 2 * U, label, spinner, (x + 2, y + U, x + U - 2, y + U), tuple(dots))


def layout_from_hand(hand: Mapping[str, Any]) -> Layout:
    """The layout after a tile-by-tile hand's plays (stops at the first illegal one)."""
    layout = Layout()
    for move in hand.get("moves", []) or []:
        if not isinstance(move, Mapping) or "play" not in move:
            continue
        try:
            if layout.is_empty():
                text = str(move["play"])
                layout.play(text, west=int(text.split("-")[0]))
            else:
                layout.play(str(move["play"]), move.get("end"))
        except (AllFivesError, ValueError):
            break
    return layout


def layout_tiles(layout: Layout) -> list[DrawnTile]:
    """Every laid tile placed on the plane (y grows downwards; the line is at y=0)."""
    drawn: list[DrawnTile] = []
    spinner_at = layout.spinner_index
    spinner_box: tuple[float, float] | None = None
    x = 0.0
    for index, placed in enumerate(layout.main_line()):
        tile: Tile = placed.tile
        is_spinner = index == spinner_at
        if tile.is_double:
            drawn.append(
                _tile(
                    x,
                    -U,
                    across=False,
                    first=placed.first,
                    second=placed.second,
                    label=tile.label,
                    spinner=is_spinner,
                )
            )
            if is_spinner:
                spinner_box = (x, x + U)
            x += U
        else:
            drawn.append(
                _tile(
                    x,
                    -U / 2,
                    across=True,
                    first=placed.first,
                    second=placed.second,
                    label=tile.label,
                    spinner=False,
                )
            )
            x += 2 * U
    if spinner_box is not None:
        centre = (spinner_box[0] + spinner_box[1]) / 2
        for end, step in (("N", -1), ("S", 1)):
            y = -U if step < 0 else U
            for placed in layout.branch(end):
                tile = placed.tile
                if tile.is_double:
                    top = y - U if step < 0 else y
                    drawn.append(
                        _tile(
                            centre - U,
                            top,
                            across=True,
                            first=placed.first,
                            second=placed.second,
                            label=tile.label,
                            spinner=False,
                        )
                    )
                    y += step * U
                else:
                    top = y - 2 * U if step < 0 else y
                    # the half facing the spinner is drawn next to it
                    first, second = (
                        (placed.second, placed.first) if step < 0 else (placed.first, placed.second)
                    )
                    drawn.append(
                        _tile(
                            centre - U / 2,
                            top,
                            across=False,
                            first=first,
                            second=second,
                            label=tile.label,
                            spinner=False,
                        )
                    )
                    y += step * 2 * U
    return drawn


def _source_layout(source: Any) -> Layout | None:
    if isinstance(source, Layout):
        return source
    entry = getattr(source, "entry", source)
    if isinstance(entry, Mapping) and "moves" in entry:
        return layout_from_hand(entry)
    return None


@register.inclusion_tag("matches/includes/layout_svg.html")
def layout_svg(source: Any, max_width: int = 0) -> dict[str, Any]:
    """Draw the layout of ``source`` (a Layout, a tile-by-tile hand, or a stored Hand)."""
    layout = _source_layout(source)
    if layout is None or layout.is_empty():
        return {"tiles": [], "ends": [], "count": 0, "empty": True}
    tiles = layout_tiles(layout)
    min_x = min(t.x for t in tiles) - PAD
    min_y = min(t.y for t in tiles) - PAD
    max_x = max(t.x + t.w for t in tiles) + PAD
    max_y = max(t.y + t.h for t in tiles) + PAD
    ends = [
        {"end": str(END_INITIALS.get(end, end)), "pips": pips}
        for end, pips in layout.open_ends().items()
    ]
    description = _("Layout: %(line)s. Open ends: %(ends)s. Count %(count)d.") % {
        "line": str(layout),
        "ends": ", ".join(f"{e['end']} {e['pips']}" for e in ends),
        "count": layout.count,
    }
    return {
        "tiles": tiles,
        "view_box": f"{min_x} {min_y} {max_x - min_x} {max_y - min_y}",
        "width": max_x - min_x,
        "height": max_y - min_y,
        "max_width": max_width,
        "ends": ends,
        "count": layout.count,
        "scores": layout.count > 0 and layout.count % 5 == 0,
        "description": description,
        "empty": False,
        "dot": DOT,
    }
