"""Template tags with which the league's pages offer sign-up without importing
entrants: ``{% tournament_signup tournament as signup %}`` (its state and the link) and
``{% signups_open as tournaments %}`` (the public tournaments taking sign-ups now)."""

from __future__ import annotations

from dataclasses import dataclass

from django import template
from django.urls import reverse

from entrants.selectors import SignUpState, signup_state, signups_open_public
from league.models import Tournament

register = template.Library()


@dataclass(frozen=True, slots=True)
class SignUpLink:
    url: str
    is_open: bool
    is_waiting_list: bool


@register.simple_tag
def tournament_signup(tournament: Tournament) -> SignUpLink | None:
    """The tournament's sign-up link while it takes applications (none otherwise)."""
    state = signup_state(tournament=tournament)
    if state not in (SignUpState.OPEN, SignUpState.WAITING_LIST):
        return None
    return SignUpLink(
        url=reverse("entrants:signup", kwargs={"slug": tournament.slug}),
        is_open=state == SignUpState.OPEN,
        is_waiting_list=state == SignUpState.WAITING_LIST,
    )


@register.simple_tag
def signups_open() -> list[Tournament]:
    """The public tournaments whose sign-up is open now with a place free."""
    return signups_open_public()
