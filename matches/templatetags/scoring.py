"""Score-entry links on other apps' pages: which tables the person looking may score,
and whether they may print a round's table cards with their private links.

League pages load this library (``{% load scoring %}``) instead of importing matches,
so the league keeps its place below score entry.
"""

from __future__ import annotations

from typing import Any

from django import template

from league.models import Round
from matches.selectors import round_can_print_links, tables_scorable_by

register = template.Library()


@register.simple_tag(takes_context=True)
def scorable_table_ids(context: dict[str, Any], round: Round) -> frozenset[int]:
    """The ids of the round's tables the user looking at the page may score (one query)."""
    request = context.get("request")
    if request is None:
        return frozenset()
    return frozenset(
        tables_scorable_by(user=request.user).filter(round=round).values_list("pk", flat=True)
    )


@register.simple_tag(takes_context=True)
def can_print_links(context: dict[str, Any], round: Round) -> bool:
    """Whether the user looking may print the round's cards with their private links."""
    request = context.get("request")
    return request is not None and round_can_print_links(user=request.user, round=round)
