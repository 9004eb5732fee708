"""Shared set-ups of the entrants tests: a tournament taking sign-ups."""

from __future__ import annotations

from typing import Any

from entrants.models import SignUp
from league.models import Tournament
from tests.factories import TournamentFactory


def open_tournament(**signup: Any) -> Tournament:
    """A running Swiss tournament at tables of two whose sign-up is open."""
    tournament = TournamentFactory(
        name="Piala Terbuka", slug="piala-terbuka", status=Tournament.Status.REGISTRATION
    )
    SignUp.objects.create(**{"tournament": tournament, "is_open": True, **signup})
    return tournament
