"""The traditional tally of points on paper (R23), an optional way to display a score.

One stroke is 5 points; 50 points is one large X with a small x in each of its
four spaces (five crossed pairs of strokes). A half point from a three-player
split (R20) cannot be a stroke and is noted separately, as is anything else
short of a whole stroke.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TallyMarks", "tally_marks"]


@dataclass(frozen=True, slots=True)
class TallyMarks:
    """Points as complete 50-point crosses, 5-point strokes and a remainder."""

    crosses: int
    strokes: int
    #: What is left short of a stroke, in half-points (e.g. 5 for 2.5 points).
    rest_x2: int

    def __str__(self) -> str:
        parts = ["X" * self.crosses, "|" * self.strokes]
        if self.rest_x2:
            rest = self.rest_x2 / 2
            parts.append(f"+{rest:g}")
        return " ".join(part for part in parts if part) or "0"


def tally_marks(points_x2: int) -> TallyMarks:
    """Tally marks for a total in half-points (R23).

    >>> tally_marks(2 * 65)
    TallyMarks(crosses=1, strokes=3, rest_x2=0)
    >>> str(tally_marks(115))  # 57.5 points
    'X | +2.5'
    """
    if points_x2 < 0:
        raise ValueError("a tally has no negative points")
    crosses, rest = divmod(points_x2, 100)
    strokes, rest = divmod(rest, 10)
    return TallyMarks(crosses, strokes, rest)
