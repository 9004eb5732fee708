"""Template tags with which other apps' pages show ratings without importing them:
``{% player_rating_chart player_id as chart %}`` (the SVG, or None before any rated
match) and ``{% players_with_ratings players as rated %}`` (each player with their current
rating, or None before any rated match)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.safestring import SafeString

from ratings.display import player_rating_chart_svg
from ratings.models import PlayerRating
from ratings.selectors import players_ratings

register = template.Library()


@register.simple_tag
def player_rating_chart(player_id: int) -> SafeString | str | None:
    """The player's rating chart as SVG; None before any rated match."""
    return player_rating_chart_svg(player_id=player_id)


@register.simple_tag
def players_with_ratings(players: Sequence[Any]) -> list[tuple[Any, PlayerRating | None]]:
    """Each player paired with their current rating (None before any rated match)."""
    found = players_ratings(player_ids=[p.pk for p in players])
    return [(p, found.get(p.pk)) for p in players]
