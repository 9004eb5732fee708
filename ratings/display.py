"""Ratings as pages show them: a player's rating chart as safe, translated SVG.

The view-side wrapper of ``ratings.chart`` (which is pure): it reads the history
with ``ratings.selectors``, formats dates and numbers for the active language,
writes the accessible title and description, and marks the result safe (every text in
it is escaped by the chart). Used by the public player page (``league.views``).
"""

from __future__ import annotations

from django.utils.formats import date_format, number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext, ngettext

from league.models import Player
from ratings.chart import ChartPoint, rating_chart_svg
from ratings.selectors import player_rating_history


def _number(value: float) -> str:
    return str(number_format(round(value, 1), 1))


def player_rating_chart_svg(*, player_id: int) -> SafeString | None:
    """The player's rating after each rated match as SVG; None before any rated match."""
    history = player_rating_history(player_id=player_id)
    if not history:
        return None
    name = Player.objects.values_list("name", flat=True).get(pk=player_id)
    points = [
        ChartPoint(
            label=date_format(localtime(p.at), "SHORT_DATE_FORMAT"),
            display=p.display,
            mu=p.mu,
            sigma=p.sigma,
        )
        for p in history
    ]
    current, best = history[-1].display, max(p.display for p in history)
    desc = ngettext(
        "Rating after each rated match, oldest first: %(count)d match. Now %(now)s, "
        "highest %(best)s. The rating is a cautious estimate: the mean skill less three "
        "times its uncertainty. The band shows the mean skill give or take its uncertainty.",
        "Rating after each rated match, oldest first: %(count)d matches. Now %(now)s, "
        "highest %(best)s. The rating is a cautious estimate: the mean skill less three "
        "times its uncertainty. The band shows the mean skill give or take its uncertainty.",
        len(history),
    ) % {"count": len(history), "now": _number(current), "best": _number(best)}
    svg = rating_chart_svg(
        points,
        title=gettext("Rating of %(name)s") % {"name": name},
        desc=desc,
        chart_id=f"rating-chart-{player_id}",
        number=_number,
        mu_label=gettext("mu"),
        sigma_label=gettext("sigma"),
    )
    return mark_safe(svg)  # noqa: S308  # nosec B308 B703 - the chart escapes its text
