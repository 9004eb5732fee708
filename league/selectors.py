"""Reads of the league's data, and who may do what to which tournament."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from league.models import (
    ApiToken,
    Entry,
    EntryMember,
    Partnership,
    Player,
    Round,
    Table,
    Tournament,
)

type AnyUser = AbstractBaseUser | AnonymousUser


def user_is_superuser(*, user: AnyUser) -> bool:
    """A signed-in, active superuser: sees and manages everything."""
    return bool(user.is_authenticated and user.is_active and getattr(user, "is_superuser", False))


def tournaments_managed_by(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments the user organises (all of them for a superuser)."""
    if not user.is_authenticated or not user.is_active:
        return Tournament.objects.none()
    if user_is_superuser(user=user):
        return Tournament.objects.all()
    return Tournament.objects.filter(organisers__pk=user.pk)


def tournaments_scored_by(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments whose matches the user may score (organisers score too)."""
    if not user.is_authenticated or not user.is_active:
        return Tournament.objects.none()
    if user_is_superuser(user=user):
        return Tournament.objects.all()
    return Tournament.objects.filter(
        pk__in=Tournament.objects.filter(Q(organisers=user) | Q(scorekeepers=user)).values("pk")
    )


def tournament_can_manage(*, user: AnyUser, tournament_id: int) -> bool:
    return tournaments_managed_by(user=user).filter(pk=tournament_id).exists()


def tournament_can_score(*, user: AnyUser, tournament_id: int) -> bool:
    return tournaments_scored_by(user=user).filter(pk=tournament_id).exists()


# --- What a caller may see and change (the API and the public pages) ------------------
# Every list an API or a page shows is built from these, so that list endpoints are
# filtered by the caller's rights and not only guarded by object checks.


def user_is_organiser(*, user: AnyUser) -> bool:
    """True for a superuser, a member of the Organisers group, or anyone organising a tournament."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user_is_superuser(user=user):
        return True
    from league.roles import ORGANISERS_GROUP

    return (
        Tournament.objects.filter(organisers__pk=user.pk).exists()
        or getattr(user, "groups").filter(name=ORGANISERS_GROUP).exists()  # noqa: B009
    )


def tournaments_visible_to(*, user: AnyUser) -> QuerySet[Tournament]:
    """Published tournaments (anything but a draft), and the drafts the user organises or
    scores (every tournament for a superuser)."""
    if user_is_superuser(user=user):
        return Tournament.objects.all()
    public = ~Q(status=Tournament.Status.DRAFT)
    if not user.is_authenticated or not user.is_active:
        return Tournament.objects.filter(public)
    return Tournament.objects.filter(
        public | Q(pk__in=tournaments_scored_by(user=user).values("pk"))
    )


def rounds_visible_to(*, user: AnyUser) -> QuerySet[Round]:
    """Published and finished rounds of visible tournaments; draft rounds to their organisers."""
    if user_is_superuser(user=user):
        return Round.objects.all()
    public = Q(tournament__in=tournaments_visible_to(user=user).values("pk")) & ~Q(
        status=Round.Status.DRAFT
    )
    return Round.objects.filter(
        public | Q(tournament__in=tournaments_managed_by(user=user).values("pk"))
    )


def tables_visible_to(*, user: AnyUser) -> QuerySet[Table]:
    """Tables of the rounds the user may see (never a draft round's, to the public)."""
    if user_is_superuser(user=user):
        return Table.objects.all()
    return Table.objects.filter(round__in=rounds_visible_to(user=user).values("pk"))


def entries_visible_to(*, user: AnyUser) -> QuerySet[Entry]:
    """Entries of the tournaments the user may see."""
    return Entry.objects.filter(tournament__in=tournaments_visible_to(user=user).values("pk"))


def players_with_contact_for(*, user: AnyUser) -> QuerySet[Player]:
    """Players whose email and phone the user may read: those entered in tournaments they
    organise (every player for a superuser). Contact details are never public."""
    if not user.is_authenticated or not user.is_active:
        return Player.objects.none()
    if user_is_superuser(user=user):
        return Player.objects.all()
    managed = tournaments_managed_by(user=user).values("pk")
    return Player.objects.filter(
        pk__in=EntryMember.objects.filter(tournament__in=managed).values("player_id")
    )


def players_editable_by(*, user: AnyUser) -> QuerySet[Player]:
    """Players an organiser may change: those entered in their tournaments, and those not
    yet entered anywhere (a new registration); every player for a superuser."""
    if not user_is_organiser(user=user):
        return Player.objects.none()
    if user_is_superuser(user=user):
        return Player.objects.all()
    return Player.objects.filter(
        Q(pk__in=players_with_contact_for(user=user).values("pk"))
        | ~Q(pk__in=EntryMember.objects.values("player_id"))
    )


def partnerships_editable_by(*, user: AnyUser) -> QuerySet[Partnership]:
    """Partnerships whose two players the user may both change."""
    if user_is_superuser(user=user):
        return Partnership.objects.all()
    editable = players_editable_by(user=user).values("pk")
    return Partnership.objects.filter(player_a__in=editable, player_b__in=editable)


def api_tokens_of(*, user: AnyUser) -> QuerySet[ApiToken]:
    """The user's API tokens, newest first (revoked ones included, marked)."""
    if not user.is_authenticated:
        return ApiToken.objects.none()
    return ApiToken.objects.filter(user__pk=user.pk).order_by("-created_at", "-pk")
