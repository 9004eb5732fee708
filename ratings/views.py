"""Public rating leaderboards: all time (players and fixed partnerships) and per season.

The views parse the optional ``?min=`` (fewest rated matches to be listed, 1-100),
read one leaderboard selector each and render it; they compute nothing.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from league.models import Season
from ratings.selectors import (
    DEFAULT_MIN_MATCHES,
    partnerships_leaderboard,
    ratings_leaderboard,
)

LIMIT = 200


def _min_matches(request: HttpRequest) -> int:
    try:
        value = int(request.GET.get("min", DEFAULT_MIN_MATCHES))
    except ValueError:
        return DEFAULT_MIN_MATCHES
    return min(max(value, 1), 100)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Every player's (and fixed partnership's) current rating, strongest first."""
    min_matches = _min_matches(request)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "title": _("Ratings"),
            "min_matches": min_matches,
            "players": ratings_leaderboard(min_matches=min_matches, limit=LIMIT),
            "partnerships": partnerships_leaderboard(min_matches=min_matches, limit=LIMIT),
            "season": None,
        },
    )


@require_safe
def season_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """Players by their rating at the end of their last match of the season."""
    season = Season.objects.filter(slug=slug).first()
    if season is None:
        raise Http404
    min_matches = _min_matches(request)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "title": _("Ratings: %(season)s") % {"season": season.name},
            "min_matches": min_matches,
            "players": ratings_leaderboard(
                season_id=season.pk, min_matches=min_matches, limit=LIMIT
            ),
            "partnerships": None,
            "season": season,
        },
    )
