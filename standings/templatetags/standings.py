"""Template tags with which other apps' pages show standings without importing them:
``{% tournament_leaders tournament.pk as leaders %}`` (the top rows of the stored
standings) and ``{% tournament_placing tournament as placing %}`` (match points by placing at
three-player tables, as the standings count them)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template

from standings.selectors import LeaderLine, standings_leaders, tournament_scoring

register = template.Library()


@register.simple_tag
def tournament_leaders(tournament_id: int) -> tuple[LeaderLine, ...]:
    """The top rows of a tournament's stored standings (none before they are computed)."""
    return standings_leaders(tournament_id=tournament_id)


@register.simple_tag
def tournament_placing(tournament: Any) -> tuple[Decimal, Decimal, Decimal]:
    """Match points for first, second and third at a three-player table of the
    tournament: its own, or the standings' defaults when it gives none."""
    return tournament_scoring(tournament=tournament).placing_points
