"""Template tags that link other apps' pages to the knockout: the bracket page's
address, when the tournament has one."""

from __future__ import annotations

from django import template
from django.urls import reverse

from knockout.selectors import tournament_has_knockout
from league.models import Tournament

register = template.Library()


@register.simple_tag
def bracket_url(tournament: Tournament) -> str:
    """The address of the tournament's bracket page, or "" without a knockout."""
    if not tournament_has_knockout(tournament_id=tournament.pk):
        return ""
    return reverse("knockout:bracket", args=[tournament.slug])
