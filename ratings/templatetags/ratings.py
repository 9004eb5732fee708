"""Template tags with which other apps' pages show ratings without importing them:
``{% player_rating_chart player_id as chart %}`` (the SVG, or None before any rated
match)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from ratings.display import player_rating_chart_svg

register = template.Library()


@register.simple_tag
def player_rating_chart(player_id: int) -> SafeString | str | None:
    """The player's rating chart as SVG; None before any rated match."""
    return player_rating_chart_svg(player_id=player_id)
