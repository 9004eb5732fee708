"""A player's rating history drawn on the server as an SVG string (no Django, no script).

Pure: it takes plain values — points already read by
``ratings.selectors.player_rating_history`` and labels already translated — and
returns one ``<svg>`` element with every piece of text escaped. The chart carries
``<title>`` and ``<desc>`` referenced by ``aria-labelledby`` so a screen reader says what
it shows, a ``viewBox`` so it scales to a phone's width, and a ``<title>`` on each
point's marker (a tooltip: when, the rating, mu and sigma). The solid line is the
display rating (``mu - 3 sigma``); the shaded band is ``mu ± sigma``; the dashed line
is ``mu``. Usage from a view or template tag::

    from django.utils.formats import number_format
    from django.utils.safestring import mark_safe
    svg = rating_chart_svg(
        [ChartPoint(date_format(p.at), p.display, p.mu, p.sigma) for p in history],
        title=gettext("Rating of %(name)s") % {"name": player.name},
        desc=gettext("Rating after each match, oldest first."),
        number=lambda v: number_format(v, 1),
    )
    return mark_safe(svg)  # escaped here
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

_WIDTH, _HEIGHT = 640, 260
_LEFT, _RIGHT, _TOP, _BOTTOM = 52, 16, 16, 36
_LINE = "#0b5394"  # 7.4:1 on white
_MU = "#5a5a5a"
_BAND = "#cfe2f3"
_GRID = "#e0e0e0"
_MARKERS_UP_TO = 120  # beyond this, markers (and their tooltips) would only clutter


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One rated match: a label for when (already formatted) and the rating after it."""

    label: str
    display: float
    mu: float
    sigma: float


def _step(span: float) -> float:
    """A round tick step giving about five ticks over ``span``."""
    raw = max(span, 1e-9) / 5
    magnitude = float(10 ** math.floor(math.log10(raw)))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return float(factor * magnitude)
    return 10.0 * magnitude


def _default_number(value: float) -> str:
    return f"{value:.1f}"


def rating_chart_svg(
    points: Sequence[ChartPoint],
    *,
    title: str,
    desc: str,
    empty_text: str = "",
    chart_id: str = "rating-chart",
    number: Callable[[float], str] = _default_number,
    mu_label: str = "mu",
    sigma_label: str = "sigma",
) -> str:
    """An accessible SVG line chart of the display rating, with the mu ± sigma band."""
    ids = f"{escape(chart_id)}-title {escape(chart_id)}-desc"
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" role="img" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" aria-labelledby="{ids}">'
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>'
        f'<desc id="{escape(chart_id)}-desc">{escape(desc)}</desc>'
    )
    if not points:
        return (
            f'{head}<text x="{_WIDTH / 2:.0f}" y="{_HEIGHT / 2:.0f}" text-anchor="middle" '
            f'font-size="14" fill="{_MU}">{escape(empty_text)}</text></svg>'
        )
    low = min(min(p.display, p.mu - p.sigma) for p in points)
    high = max(p.mu + p.sigma for p in points)
    step = _step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high <= low:
        high = low + step
    plot_w = _WIDTH - _LEFT - _RIGHT
    plot_h = _HEIGHT - _TOP - _BOTTOM

    def x(i: int) -> float:
        return _LEFT + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return _TOP + plot_h * (high - v) / (high - low)

    parts = [head]
    ticks = round((high - low) / step)
    for k in range(ticks + 1):
        value = low + k * step
        parts.append(
            f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'stroke="{_GRID}" stroke-width="1"/>'
            f'<text x="{_LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="#333">{escape(number(value))}</text>'
        )
    upper = " ".join(f"{x(i):.1f},{y(p.mu + p.sigma):.1f}" for i, p in enumerate(points))
    lower = " ".join(
        f"{x(i):.1f},{y(p.mu - p.sigma):.1f}" for i, p in reversed(list(enumerate(points)))
    )
    parts.append(f'<polygon points="{upper} {lower}" fill="{_BAND}" stroke="none"/>')
    mu_line = " ".join(f"{x(i):.1f},{y(p.mu):.1f}" for i, p in enumerate(points))
    parts.append(
        f'<polyline points="{mu_line}" fill="none" stroke="{_MU}" stroke-width="1.5" '
        f'stroke-dasharray="6 4"/>'
    )
    line = " ".join(f"{x(i):.1f},{y(p.display):.1f}" for i, p in enumerate(points))
    parts.append(
        f'<polyline points="{line}" fill="none" stroke="{_LINE}" stroke-width="2.5" '
        f'stroke-linejoin="round"/>'
    )
    if len(points) <= _MARKERS_UP_TO:
        for i, p in enumerate(points):
            tip = (
                f"{p.label}: {number(p.display)} ({mu_label} {number(p.mu)}, "
                f"{sigma_label} {number(p.sigma)})"
            )
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(p.display):.1f}" r="3.5" fill="{_LINE}">'
                f"<title>{escape(tip)}</title></circle>"
            )
    baseline = _HEIGHT - _BOTTOM + 18
    parts.append(
        f'<text x="{_LEFT}" y="{baseline}" font-size="11" fill="#333">'
        f"{escape(points[0].label)}</text>"
    )
    if len(points) > 1:
        parts.append(
            f'<text x="{_WIDTH - _RIGHT}" y="{baseline}" text-anchor="end" font-size="11" '
            f'fill="#333">{escape(points[-1].label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
