"""Template tags with which other apps' pages show standings without importing them:
``{% tournament_leaders tournament.pk as leaders %}`` (the top rows of the stored
standings)."""

from __future__ import annotations

from django import template

from standings.selectors import LeaderLine, standings_leaders

register = template.Library()


@register.simple_tag
def tournament_leaders(tournament_id: int) -> tuple[LeaderLine, ...]:
    """The top rows of a tournament's stored standings (none before they are computed)."""
    return standings_leaders(tournament_id=tournament_id)
