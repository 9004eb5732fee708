"""The public scoresheet of a match: hand by hand, with the traditional tally, the final
layout of tile-by-tile hands and a chart of both sides' totals against the target.
While the match is played the hands refresh themselves (htmx polling). Read-only:
each view calls one selector (``matches.selectors_public``) and shapes its output.
Also a table's paper scoresheet (the table card) as a PDF.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from league.selectors_public import table_public
from matches.cards import table_card_pdf
from matches.charts import ChartSeries, score_progression_svg
from matches.selectors_public import ScoresheetView, scoresheet_public

LIVE_REFRESH_SECONDS_DEFAULT = 15


def _scoresheet(match_id: int) -> ScoresheetView:
    view = scoresheet_public(match_id=match_id)
    if view is None:
        raise Http404
    return view


def _chart(view: ScoresheetView) -> str:
    """Both sides' totals after each hand, with the target line (translated labels)."""
    return score_progression_svg(
        series=[
            ChartSeries(label=side.label, values=totals)
            for side, totals in zip(view.sides, view.running_totals, strict=True)
        ],
        target=view.match.target,
        title=_("Score after each hand"),
        description=_(
            "Each side's total after every hand, from 0 before the first hand; "
            "the dashed line is the target of %(target)s."
        )
        % {"target": view.match.target},
        x_label=_("Hand"),
        y_label=_("Points"),
        target_label=_("Target"),
        point_label=_("%(side)s after hand %(hand)s: %(points)s"),
    )


def _context(view: ScoresheetView) -> dict[str, Any]:
    return {
        "view": view,
        "match": view.match,
        "table": view.match.table,
        "chart": _chart(view),
        "refresh_seconds": int(
            getattr(settings, "LIVE_REFRESH_SECONDS", LIVE_REFRESH_SECONDS_DEFAULT)
        ),
    }


@require_safe
def match_scoresheet(request: HttpRequest, match_id: int) -> HttpResponse:
    return render(request, "matches/public/scoresheet.html", _context(_scoresheet(match_id)))


@require_safe
def match_scoresheet_live(request: HttpRequest, match_id: int) -> HttpResponse:
    """The scoresheet's body alone: what htmx swaps in while the match is played."""
    response = render(request, "matches/public/_sheet.html", _context(_scoresheet(match_id)))
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def table_card(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A table's paper scoresheet as a PDF, for scorekeepers who write by hand."""
    line = table_public(slug=slug, number=number, table_number=table)
    if line is None:
        raise Http404
    pdf = table_card_pdf(line=line, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"{slug}-r{number}-t{table}.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
