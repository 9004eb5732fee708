"""The public bracket page: the tournament's knockout as a printable SVG (a list per
round beside it, for phones and screen readers). While the tournament runs and a match
is still open, the page polls itself with htmx; the poll answers 286 (htmx stops) once
every match is decided."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from knockout.selectors import BracketView, bracket_public
from knockout.svg import bracket_drawing
from league.models import Tournament

POLL_SECONDS = 15  # unless the site's LIVE_REFRESH_SECONDS says otherwise
STOP_POLLING = 286


def _is_open(brackets: list[BracketView]) -> bool:
    matches = [m for b in brackets for r in b.rounds for m in r.matches]
    matches += [b.third_place for b in brackets if b.third_place is not None]
    return any(m.state not in ("decided", "bye") for m in matches)


@require_safe
def tournament_bracket(request: HttpRequest, slug: str) -> HttpResponse:
    found = bracket_public(slug=slug)
    if found is None:
        raise Http404
    tournament, brackets = found
    is_polling = tournament.status == Tournament.Status.RUNNING and _is_open(brackets)
    context = {
        "tournament": tournament,
        "title": _("Knockout: %(name)s") % {"name": tournament.name},
        "brackets": [(b, bracket_drawing(b)) for b in brackets],
        "is_polling": is_polling,
        "poll_seconds": int(getattr(settings, "LIVE_REFRESH_SECONDS", POLL_SECONDS)),
        "poll_url": request.get_full_path(),
        "json_url": reverse("api-tournament-bracket", kwargs={"slug": slug}),
    }
    if request.headers.get("HX-Request"):
        response = render(request, "knockout/_brackets.html", context)
        if not is_polling:
            response.status_code = STOP_POLLING
        return response
    return render(request, "knockout/bracket.html", context)
