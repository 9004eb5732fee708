"""Template tags of the desk: the tournaments whose desk the signed-in organiser opens
(for the admin's index and their "My tables" page), and the projector link that the
league's tournament page shows (``league`` cannot import ``desk``; its template loads
this library)."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import QuerySet
from django.urls import reverse

from league.models import Tournament
from league.policy import tournaments_managed_by, user_can_use_admin

register = template.Library()

#: At most this many desks are listed on the admin's index.
DESKS_LISTED = 12


@register.simple_tag
def desk_tournaments(user: Any) -> QuerySet[Tournament]:
    """The unfinished tournaments the user runs from a desk, newest first (none unless the
    admin opens to them)."""
    if not user_can_use_admin(user=user):
        return Tournament.objects.none()
    return (
        tournaments_managed_by(user=user)
        .exclude(status=Tournament.Status.FINISHED)
        .order_by("-starts_on", "name")[:DESKS_LISTED]
    )


@register.simple_tag
def projector_url(tournament: Tournament) -> str:
    """The address of the tournament's projector view."""
    return reverse("desk:projector", args=[tournament.slug])


@register.simple_tag
def desk_url(tournament: Tournament) -> str:
    """The address of the tournament's desk."""
    return reverse("desk:desk", args=[tournament.slug])
