"""Charts drawn on the server as SVG strings, so pages need no charting script.

Each function is pure: it takes plain values (already-translated labels, numbers)
and returns an ``<svg>`` element as a safe string, with every piece of text
escaped. Points are written as on every page (a half point as ``7½``). Every chart
carries ``<title>`` and ``<desc>`` (referenced by ``aria-labelledby``) so that a
screen reader announces what it shows, and a ``viewBox`` so that it scales down to a
phone's width. Sides are told apart by line style and marker shape as well as by
colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import count

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from league.points import number_text

__all__ = ["ChartSeries", "nice_step", "score_progression_svg"]

_WIDTH, _HEIGHT = 480, 300
_LEFT, _RIGHT, _TOP, _BOTTOM = 50, 14, 50, 46
# Colours with at least 4.5:1 contrast on white; dashes and markers differ too.
_STYLES = (
    ("#0b5394", "", "circle"),
    ("#a61b1b", "8 4", "square"),
    ("#1e6b2e", "3 3", "triangle"),
    ("#6a3d9a", "10 3 2 3", "diamond"),
)
_TARGET_COLOUR = "#5a5a5a"
_ids = count(1)


@dataclass(frozen=True, slots=True)
class ChartSeries:
    """One line: a label (a side's players) and its running total after each hand."""

    label: str
    values: tuple[Decimal, ...]


def nice_step(span: float, *, ticks: int = 5) -> int:
    """A round tick step (1, 2, 5 times a power of ten, at least 5) covering ``span``.

    >>> nice_step(250), nice_step(37), nice_step(0)
    (50, 10, 5)
    """
    raw = max(span / ticks, 1.0)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * power
        if step >= raw and step == int(step):
            return max(int(step), 5)
    return max(int(10 * power), 5)  # pragma: no cover - the loop always returns


def _num(value: Decimal | int) -> str:
    """Points as people write them (a half as ½: 7½)."""
    return number_text(value)


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    if shape == "square":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{colour}"/>'
    if shape == "triangle":
        points = f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y + 4:.1f} {x - 5:.1f},{y + 4:.1f}"
        return f'<polygon points="{points}" fill="{colour}"/>'
    if shape == "diamond":
        points = f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y:.1f} {x:.1f},{y + 5:.1f} {x - 5:.1f},{y:.1f}"
        return f'<polygon points="{points}" fill="{colour}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>'


def score_progression_svg(
    *,
    series: Sequence[ChartSeries],
    target: int,
    title: str,
    description: str,
    x_label: str,
    y_label: str,
    target_label: str,
    point_label: str = "%(side)s, %(hand)s: %(points)s",
) -> SafeString:
    """Each side's running total after every hand, from 0 before the first, with the target.

    ``point_label`` is a translated pattern for each point's tooltip, with
    ``%(side)s``, ``%(hand)s`` (the hand number) and ``%(points)s``.
    """
    uid = next(_ids)
    hands = max((len(s.values) for s in series), default=0)
    highest = max([Decimal(target), *(v for s in series for v in s.values)])
    step = nice_step(float(highest))
    y_top = max(step, math.ceil(float(highest) / step) * step)
    plot_w = _WIDTH - _LEFT - _RIGHT
    plot_h = _HEIGHT - _TOP - _BOTTOM

    def x_of(hand: int) -> float:
        return _LEFT + (plot_w * hand / hands if hands else 0)

    def y_of(points: Decimal | int) -> float:
        return _TOP + plot_h - plot_h * float(points) / y_top

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" width="100%" preserveAspectRatio="xMidYMid meet" '
        f'aria-labelledby="chart{uid}-title chart{uid}-desc">',
        f'<title id="chart{uid}-title">{escape(title)}</title>',
        f'<desc id="chart{uid}-desc">{escape(description)}</desc>',
        '<g class="chart-grid" font-size="14" fill="#333">',
    ]
    for tick in range(0, y_top + 1, step):
        y = y_of(tick)
        parts.append(
            f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{_WIDTH - _RIGHT}" y2="{y:.1f}" '
            f'stroke="#d0d0d0" stroke-width="1"/>'
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{_num(tick)}</text>'
        )
    label_every = max(1, math.ceil(hands / 10))
    for hand in range(0, hands + 1):
        if hand % label_every == 0 or hand == hands:
            parts.append(
                f'<text x="{x_of(hand):.1f}" y="{_TOP + plot_h + 18}" '
                f'text-anchor="middle">{_num(hand)}</text>'
            )
    parts.append(
        f'<text x="{_LEFT + plot_w / 2:.1f}" y="{_HEIGHT - 6}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
        f'<text x="13" y="{_TOP + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 13 {_TOP + plot_h / 2:.1f})">{escape(y_label)}</text>'
        f'<line x1="{_LEFT}" y1="{_TOP + plot_h}" x2="{_WIDTH - _RIGHT}" y2="{_TOP + plot_h}" '
        f'stroke="#333" stroke-width="1"/>'
        "</g>"
    )
    y_target = y_of(target)
    parts.append(
        f'<g class="chart-target"><line x1="{_LEFT}" y1="{y_target:.1f}" x2="{_WIDTH - _RIGHT}" '
        f'y2="{y_target:.1f}" stroke="{_TARGET_COLOUR}" stroke-width="2" stroke-dasharray="2 4"/>'
        f'<text x="{_WIDTH - _RIGHT}" y="{y_target - 6:.1f}" text-anchor="end" font-size="14" '
        f'fill="#333">{escape(target_label)} {_num(target)}</text></g>'
    )
    for index, line in enumerate(series):
        colour, dash, shape = _STYLES[index % len(_STYLES)]
        points = [(0, Decimal(0)), *((i + 1, v) for i, v in enumerate(line.values))]
        path = " ".join(f"{x_of(h):.1f},{y_of(v):.1f}" for h, v in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<g class="chart-series"><polyline points="{path}" fill="none" stroke="{colour}" '
            f'stroke-width="2.5"{dash_attr}/>'
        )
        for hand, value in points[1:]:
            tip = point_label % {
                "side": line.label,
                "hand": _num(hand),
                "points": _num(value),
            }
            parts.append(
                f"<g>{_marker(shape, x_of(hand), y_of(value), colour)}"
                f"<title>{escape(tip)}</title></g>"
            )
        parts.append("</g>")
    # The legend sits above the plot, one entry per side.
    legend_x = _LEFT
    legend_w = plot_w / max(len(series), 1)
    parts.append('<g class="chart-legend" font-size="15" fill="#1a1a1a">')
    for index, line in enumerate(series):
        colour, dash, shape = _STYLES[index % len(_STYLES)]
        x = legend_x + index * legend_w
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<line x1="{x:.1f}" y1="20" x2="{x + 28:.1f}" y2="20" stroke="{colour}" '
            f'stroke-width="2.5"{dash_attr}/>{_marker(shape, x + 14, 20, colour)}'
            f'<text x="{x + 34:.1f}" y="24">{escape(_shorten(line.label, legend_w))}</text>'
        )
    parts.append("</g></svg>")
    return mark_safe("".join(parts))  # noqa: S308  # nosec B308 B703 - all text is escaped


def _shorten(label: str, width: float) -> str:
    """Cut a legend label to what fits its share of the width (about 8 units a letter)."""
    room = max(int((width - 40) / 8), 6)
    return label if len(label) <= room else label[: room - 1] + "…"
