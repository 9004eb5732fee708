"""The players' pages: sign up for a tournament, and behind the private player link
"Turnamen saya" (my tournament) with check-in and the entry card.

Views parse the form, call one service or selector and render; a refusal is shown in
the user's language with what was typed kept.
"""

from __future__ import annotations

from typing import Any

import segno
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from allfives import side_of
from entrants.forms import SignUpForm
from entrants.models import Application
from entrants.selectors import (
    MyTournament,
    SignUpState,
    my_tournament,
    player_link_application,
    signup_of,
    signup_state,
)
from entrants.services.applications import (
    application_submit,
    entrant_check_in,
    signup_state_refusal,
)
from entrants.throttling import signup_rate_exceeded, signup_rate_record
from league.models import Round, Tournament
from matches.services.links import table_links_issue

SESSION_NEW_LINK = "entrants_new_link"


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.exclude(status=Tournament.Status.DRAFT), slug=slug)


def signup(request: HttpRequest, slug: str) -> HttpResponse:
    """The public sign-up form, or why the tournament takes no sign-ups now."""
    tournament = _tournament(slug)
    state = signup_state(tournament=tournament)
    settings = signup_of(tournament=tournament)
    context: dict[str, Any] = {"tournament": tournament, "state": state, "signup": settings}
    if state not in (SignUpState.OPEN, SignUpState.WAITING_LIST):
        context["refusal"] = signup_state_refusal(state, settings)
        return render(request, "entrants/signup.html", context, status=403)
    form = SignUpForm(request.POST or None, pairs=tournament.is_partnership_format)
    context["form"] = form
    if request.method != "POST":
        return render(request, "entrants/signup.html", context)
    if signup_rate_exceeded(request):
        context["refusal"] = _(
            "Too many sign-ups were sent from your network. Please try again in an hour, "
            "or ask the organiser."
        )
        return render(request, "entrants/signup.html", context, status=429)
    signup_rate_record(request)
    if form.is_bot:
        context["refusal"] = _("Your sign-up could not be accepted. Please ask the organiser.")
        return render(request, "entrants/signup.html", context, status=400)
    if not form.is_valid():
        return render(request, "entrants/signup.html", context, status=400)
    data = form.cleaned_data
    try:
        _application, key = application_submit(
            tournament=tournament,
            name=data["name"],
            nickname=data["nickname"],
            email=data["email"],
            phone=data["phone"],
            club_name=data["club_name"],
            listed_as=data["listed_as"],
            may_email=data["may_email"],
            partner_name=data.get("partner_name", ""),
            partner_nickname=data.get("partner_nickname", ""),
            partner_email=data.get("partner_email", ""),
            partner_listed_as=data.get("partner_listed_as", Application.ListedAs.NAME),
            language=request.LANGUAGE_CODE,
        )
    except ValidationError as exc:
        for message in exc.messages:
            form.add_error(None, message)
        return render(request, "entrants/signup.html", context, status=400)
    request.session[SESSION_NEW_LINK] = key
    return redirect("entrants:signup_done", slug=tournament.slug)


def signup_done(request: HttpRequest, slug: str) -> HttpResponse:
    """The page after applying: the private player link, shown this once."""
    tournament = _tournament(slug)
    key = request.session.get(SESSION_NEW_LINK)
    application = player_link_application(key=key) if key else None
    if application is None or application.tournament_id != tournament.pk:
        return redirect("entrants:signup", slug=tournament.slug)
    url = request.build_absolute_uri(reverse("entrants:player", kwargs={"key": key}))
    return render(
        request,
        "entrants/signup_done.html",
        {"tournament": tournament, "application": application, "key": key, "link": url},
    )


def _application(key: str) -> Application:
    application = player_link_application(key=key)
    if application is None:
        raise Http404(_("This player link is not known, or was replaced by a new one."))
    return application


def _scoring_url(view: MyTournament) -> str | None:
    """The table link for the player's side while the table is being played."""
    nxt = view.next_table
    if nxt is None or nxt.is_finished or nxt.table.round.status != Round.Status.PUBLISHED:
        return None
    side = side_of(nxt.seat - 1, nxt.table.player_count)
    for link in table_links_issue(table=nxt.table, user=None):
        if link.side == side:
            return link.get_absolute_url()
    return None


def player(request: HttpRequest, key: str) -> HttpResponse:
    """ "Turnamen saya": the application's state, check-in, the next table and seat, the
    scoring link, the results so far and the standings around the player."""
    application = _application(key)
    view = my_tournament(application=application)
    return render(
        request,
        "entrants/player.html",
        {
            "key": key,
            "view": view,
            "application": application,
            "tournament": application.tournament,
            "scoring_url": _scoring_url(view),
        },
    )


@require_POST
def player_check_in(request: HttpRequest, key: str) -> HttpResponse:
    """Check in (or, ``checked_in=0``, undo it) from the player link."""
    application = _application(key)
    checked_in = request.POST.get("checked_in", "1") != "0"
    try:
        entrant_check_in(application=application, checked_in=checked_in)
    except ValidationError as exc:
        view = my_tournament(application=application)
        return render(
            request,
            "entrants/player.html",
            {
                "key": key,
                "view": view,
                "application": application,
                "tournament": application.tournament,
                "errors": exc.messages,
                "scoring_url": _scoring_url(view),
            },
            status=400,
        )
    return redirect("entrants:player", key=key)


def player_card(request: HttpRequest, key: str) -> HttpResponse:
    """The entry card: the player's names and the QR code of the player link, which the
    organiser scans at the door to check the player in."""
    application = _application(key)
    url = request.build_absolute_uri(reverse("entrants:player", kwargs={"key": key}))
    return render(
        request,
        "entrants/card.html",
        {
            "application": application,
            "tournament": application.tournament,
            "key": key,
            "qr": segno.make(url, error="m").svg_data_uri(scale=6, border=4),
        },
    )
