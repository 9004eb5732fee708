"""Points in templates, written as ``league.points`` writes them (a half point as ½):
``{% load points %}``, then ``{{ side.points_x2|points }}`` for half-points and
``{{ side.points|half }}`` for a number of points (``Decimal``, ``int``)."""

from __future__ import annotations

from typing import Any

from django import template

from league.points import number_text, points_text

register = template.Library()


@register.filter(name="points")
def points_filter(points_x2: Any) -> str:
    """Half-points (``35``) as people write the points: ``17½``."""
    try:
        return points_text(int(points_x2))
    except (TypeError, ValueError):
        return ""


@register.filter(name="half")
def half_filter(value: Any) -> str:
    """A number of points (``Decimal("17.5")``) as people write it: ``17½``."""
    try:
        return number_text(value)
    except (TypeError, ValueError, ArithmeticError):
        return ""
