"""Reads of the league's data, and who may do what to which tournament."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from league.models import Tournament

type AnyUser = AbstractBaseUser | AnonymousUser


def tournaments_managed_by(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments the user organises (all of them for a superuser)."""
    if not user.is_authenticated or not user.is_active:
        return Tournament.objects.none()
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    return Tournament.objects.filter(organisers=user)


def tournaments_scored_by(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments whose matches the user may score (organisers score too)."""
    if not user.is_authenticated or not user.is_active:
        return Tournament.objects.none()
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    return Tournament.objects.filter(
        pk__in=Tournament.objects.filter(Q(organisers=user) | Q(scorekeepers=user)).values("pk")
    )


def tournament_can_manage(*, user: AnyUser, tournament_id: int) -> bool:
    return tournaments_managed_by(user=user).filter(pk=tournament_id).exists()


def tournament_can_score(*, user: AnyUser, tournament_id: int) -> bool:
    return tournaments_scored_by(user=user).filter(pk=tournament_id).exists()
