"""The traditional tally (docs/rules.md R23) and half-point numbers, for any template.

``{% load tally %}`` then ``{% tally points_x2 %}`` draws a side's points as the
score sheet does: one stroke per 5 points, and 50 points as a large X with a small x
in each of its four spaces; a half point from a three-player split (R20) is noted
separately after the strokes. ``{{ points_x2|points }}`` writes half-points as a
number (``15`` → ``7½``, as ``league.points`` writes every half point). Public pages
reuse both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from allfives import tally_marks
from league.points import points_text
from league.templatetags.points import points_filter

register = template.Library()

#: Geometry of the drawing, in SVG user units.
HEIGHT = 24
CROSS = 24
STROKE_GAP = 6
GROUP_GAP = 6  # extra space after every five strokes, so they can be counted at a glance
PADDING = 2


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    is_small: bool = False


# ``{{ hand.points_x2.0|points }}``: the league's one way of writing points.
register.filter("points", points_filter)


def tally_parts(points_x2: int) -> tuple[int, int, int]:
    """(crosses of 50, strokes of 5, what is left over in half-points) (R23)."""
    marks = tally_marks(max(0, int(points_x2)))
    return marks.crosses, marks.strokes, marks.rest_x2


def tally_lines(points_x2: int) -> tuple[list[Line], float]:
    """The lines of the tally drawing and its width."""
    crosses, strokes, _left = tally_parts(points_x2)
    lines: list[Line] = []
    x = float(PADDING)
    for _cross in range(crosses):
        lines.append(Line(x + 1, 1, x + CROSS - 1, HEIGHT - 1))
        lines.append(Line(x + CROSS - 1, 1, x + 1, HEIGHT - 1))
        mid = CROSS / 2
        for cx, cy in ((mid, 5), (CROSS - 5, mid), (mid, HEIGHT - 5), (5, mid)):
            lines.append(Line(x + cx - 2, cy - 2, x + cx + 2, cy + 2, True))
            lines.append(Line(x + cx + 2, cy - 2, x + cx - 2, cy + 2, True))
        x += CROSS + STROKE_GAP
    for index in range(strokes):
        lines.append(Line(x, 3, x, HEIGHT - 3))
        x += STROKE_GAP + (GROUP_GAP if index % 5 == 4 else 0)
    return lines, max(x + PADDING, 2 * PADDING)


def tally_label(points_x2: int) -> str:
    crosses, strokes, left_x2 = tally_parts(points_x2)
    parts = [
        ngettext("%(n)d cross of 50", "%(n)d crosses of 50", crosses) % {"n": crosses},
        ngettext("%(n)d stroke of 5", "%(n)d strokes of 5", strokes) % {"n": strokes},
    ]
    if left_x2:
        parts.append(_("and %(p)s") % {"p": points_text(left_x2)})
    return _("%(points)s points: %(parts)s") % {
        "points": points_text(points_x2),
        "parts": ", ".join(parts),
    }


@register.simple_tag
def tally_words() -> dict[str, str]:
    """The words of a tally's label for a script that draws one, with ``{n}``, ``{p}``,
    ``{points}`` and ``{parts}`` where the numbers go; crosses and strokes in the form
    for one and for more (the page's plural rules pick)."""

    def counted(singular: str, plural: str, count: int) -> str:
        return ngettext(singular, plural, count).replace("%(n)d", "{n}")

    return {
        "points": _("%(points)s points: %(parts)s") % {"points": "{points}", "parts": "{parts}"},
        "crosses_one": counted("%(n)d cross of 50", "%(n)d crosses of 50", 1),
        "crosses_other": counted("%(n)d cross of 50", "%(n)d crosses of 50", 2),
        "strokes_one": counted("%(n)d stroke of 5", "%(n)d strokes of 5", 1),
        "strokes_other": counted("%(n)d stroke of 5", "%(n)d strokes of 5", 2),
        "rest": _("and %(p)s") % {"p": "{p}"},
    }


@register.inclusion_tag("matches/includes/tally.html")
def tally(points_x2: Any) -> dict[str, Any]:
    """Draw ``points_x2`` half-points as tally strokes (R23)."""
    try:
        value = max(0, int(points_x2))
    except (TypeError, ValueError):
        value = 0
    lines, width = tally_lines(value)
    _crosses, _strokes, left_x2 = tally_parts(value)
    return {
        "lines": lines,
        "width": width,
        "height": HEIGHT,
        "extra": points_text(left_x2) if left_x2 else "",
        "label": tally_label(value),
    }
