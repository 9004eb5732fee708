"""Template tags that link other apps' pages to the knockout: the bracket page's
address, when the tournament has one, and what a knockout round is called."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from knockout.selectors import round_stages, stage_shared, tournament_has_knockout
from league.models import Round, Tournament

register = template.Library()


@register.simple_tag
def bracket_url(tournament: Tournament, rounds: Iterable[Any] | None = None) -> str:
    """The address of the tournament's bracket page, or "" without a knockout. Given the
    page's public rounds (rounds, or summaries holding one as ``round``), it asks them
    rather than the database: the link shows once a knockout round is published."""
    if rounds is not None:
        if not any(getattr(r, "round", r).is_knockout for r in rounds):
            return ""
    elif not tournament_has_knockout(tournament_id=tournament.pk):
        return ""
    return reverse("knockout:bracket", args=[tournament.slug])


@register.simple_tag
def round_stage(round: Round) -> str:
    """What a knockout round is called: the stage all its tables are at ("Semi-finals"),
    else "Knockout"; "" for a round that is no knockout round."""
    if not round.is_knockout:
        return ""
    return stage_shared(round_stages(round_id=round.pk)) or _("Knockout")
