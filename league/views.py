"""Public pages of the league: home, tournaments with their rounds and pairings (live
while a round is played), printable pairings, PDF table cards, and the pages of
clubs, players, partnerships and seasons. Read-only: each view calls one selector from
``league.selectors_public`` and renders it; nothing here writes.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from allfives import outcome
from league import selectors_public as public
from league.exports import csv_writer
from league.models import ResultKind

#: How often a page showing a round in play asks for fresh scores (htmx polling).
LIVE_REFRESH_SECONDS_DEFAULT = 15


def _live_refresh_seconds() -> int:
    return int(getattr(settings, "LIVE_REFRESH_SECONDS", LIVE_REFRESH_SECONDS_DEFAULT))


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "league/home.html", {"view": public.home_public()})


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    view = public.tournament_list_public(club_slug=request.GET.get("club") or None)
    return render(
        request,
        "league/tournament_list.html",
        {"view": view, "tournaments": view.tournaments},
    )


@require_safe
def club(request: HttpRequest, slug: str) -> HttpResponse:
    view = public.club_public(slug=slug)
    if view is None:
        raise Http404
    return render(request, "league/club.html", {"view": view})


@require_safe
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    view = public.tournament_public(slug=slug)
    if view is None:
        raise Http404
    return render(
        request,
        "league/tournament.html",
        {
            "view": view,
            "tournament": view.tournament,
            "refresh_seconds": _live_refresh_seconds(),
        },
    )


def _result_word(line: public.TableLine, side: public.SideLine) -> str:
    """Won, lost or tied, as the export writes it (a double walkover is lost by all)."""
    if line.kind == ResultKind.DOUBLE_FORFEIT:
        return _("Lost")
    placings = [s.placing or 0 for s in line.sides]
    word = outcome(side.placing or 0, placings)
    return {"win": _("Won"), "tie": _("Tied"), "loss": _("Lost")}[word]


@require_safe
def tournament_results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Every finished table of a tournament, one line per side, saying how each result
    came about (played, walkover, double walkover, agreed score)."""
    found = public.tournament_results_public(slug=slug)
    if found is None:
        raise Http404
    _tournament, lines = found
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="results-{slug}.csv"'
    writer = csv_writer(response)
    writer.writerow(
        [_("Round"), _("Table"), _("Side"), _("Points"), _("Result"), _("Kind of result")]
    )
    for line in lines:
        kind = ResultKind(line.kind).label
        for side in line.sides:
            names = " & ".join(str(seat.player) for seat in side.seats)
            writer.writerow(
                [
                    line.round.number,
                    line.table.number,
                    names,
                    "" if side.points is None else str(side.points),
                    _result_word(line, side),
                    kind,
                ]
            )
    return response


def _round(slug: str, number: int) -> public.RoundView:
    view = public.round_public(slug=slug, number=number)
    if view is None:
        raise Http404
    return view


@require_safe
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    view = _round(slug, number)
    return render(
        request,
        "league/round.html",
        {
            "round_view": view,
            "tournament": view.round.tournament,
            "refresh_seconds": _live_refresh_seconds(),
        },
    )


@require_safe
def round_live(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round's tables alone: what htmx swaps in while the round is played."""
    view = _round(slug, number)
    response = render(
        request,
        "league/_round_tables.html",
        {"round_view": view, "refresh_seconds": _live_refresh_seconds()},
    )
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def player(request: HttpRequest, slug: str) -> HttpResponse:
    view = public.player_public(slug=slug)
    if view is None:
        raise Http404
    return render(
        request,
        "league/player.html",
        {"view": view},
    )


@require_safe
def partnership(request: HttpRequest, slug: str) -> HttpResponse:
    view = public.partnership_public(slug=slug)
    if view is None:
        raise Http404
    return render(request, "league/partnership.html", {"view": view})


@require_safe
def season(request: HttpRequest, slug: str) -> HttpResponse:
    view = public.season_public(slug=slug)
    if view is None:
        raise Http404
    return render(
        request,
        "league/season.html",
        {
            "view": view,
        },
    )
