"""Where each match of a bracket sits in its printable SVG: columns by round, each match
centred between the two (or three) that feed it, and the lines that join them. Pure
geometry over ``knockout.selectors.BracketView``; the template draws it."""

from __future__ import annotations

from dataclasses import dataclass

from knockout.selectors import BracketView, MatchView

COLUMN = 260  # a match box's width plus the gap to the next round
BOX_WIDTH = 230
POINTS_ROOM = 34  # a box's right edge to where its names must end, room for "250"
LINE = 22  # one entry's line in a box
HEADER = 28  # the round names above the columns
GAP = 14


@dataclass(frozen=True, slots=True)
class Box:
    x: int
    y: int
    height: int
    match: MatchView


@dataclass(frozen=True, slots=True)
class Drawing:
    width: int
    height: int
    titles: tuple[tuple[int, str], ...]  # (x of the column's centre, round name)
    boxes: tuple[Box, ...]
    lines: tuple[str, ...]  # SVG path data
    box_width: int = BOX_WIDTH

    @property
    def box_centre(self) -> int:
        return self.box_width // 2

    @property
    def winner_width(self) -> int:
        """The winner's shading, inside the box's border."""
        return self.box_width - 2

    @property
    def points_x(self) -> int:
        """Where the points end (they are drawn right-aligned)."""
        return self.box_width - 6

    @property
    def names_end(self) -> int:
        """Where a name is cut off, short of the points."""
        return self.box_width - POINTS_ROOM


def bracket_drawing(bracket: BracketView) -> Drawing:
    """The bracket laid out left to right, the final (and third place) last."""
    per = bracket.per_table
    box_height = per * LINE + 6
    first = len(bracket.rounds[0].matches) if bracket.rounds else 1
    slot = box_height + GAP
    height = HEADER + first * slot
    boxes: list[Box] = []
    lines: list[str] = []
    centres: dict[tuple[int, int], int] = {}
    titles: list[tuple[int, str]] = []
    for column, round in enumerate(bracket.rounds):
        x = 8 + column * COLUMN
        titles.append((x + BOX_WIDTH // 2, round.name))
        span = (first * slot) / max(1, len(round.matches))
        for match in round.matches:
            centre = int(HEADER + span * (match.position + 0.5))
            centres[(round.index, match.position)] = centre
            boxes.append(Box(x=x, y=centre - box_height // 2, height=box_height, match=match))
            if round.index > 1:
                for feeder in range(match.position * per, (match.position + 1) * per):
                    fed = centres.get((round.index - 1, feeder))
                    if fed is None:
                        continue
                    left = x - COLUMN + BOX_WIDTH
                    middle = left + (COLUMN - BOX_WIDTH) // 2
                    lines.append(f"M{left} {fed} H{middle} V{centre} H{x}")
    width = 16 + max(1, len(bracket.rounds)) * COLUMN
    if bracket.third_place is not None:
        x = 8 + (len(bracket.rounds) - 1) * COLUMN
        y = height + GAP
        titles_y = y
        boxes.append(Box(x=x, y=y + HEADER, height=2 * LINE + 6, match=bracket.third_place))
        height = titles_y + HEADER + 2 * LINE + 6 + GAP
    return Drawing(
        width=width,
        height=int(height) + GAP,
        titles=tuple(titles),
        boxes=tuple(boxes),
        lines=tuple(lines),
    )
