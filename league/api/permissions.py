"""Who may do what through the API: one module every app's API reuses.

The rules:

- **Public** (anyone, no login): reads what is published — tournaments that are not
  drafts, their published and finished rounds and those rounds' tables, players and
  partnerships without contact details, seasons, divisions and rule sets.
- **Scorekeeper of a tournament**: records and corrects hands for that tournament's
  matches only (``ROLE_SCORE``; organisers score too).
- **Organiser of a tournament**: manages it, its rounds, pairings and entries
  (``ROLE_MANAGE``); nothing in other organisers' tournaments.
- **Superuser**: everything.

Every answer comes from ``league.policy``: this module only maps it to HTTP. A club's
organisers also write its seasons, divisions, rule sets, players and members
(``ClubWriteScope``, ``club_for_write``).

Two layers, both required:

1. *Querysets*: every view builds its queryset from a ``league.selectors``
   ``*_visible_to(user=...)`` function (``tournaments_visible_to``,
   ``rounds_visible_to``, ``tables_visible_to``, ``entries_visible_to``), so a list
   never shows a row the caller may not see, and an object outside it is a 404.
2. *Writes*: ``TournamentRolePermission`` (or ``CanManage`` / ``CanScore``) checks
   the caller's role on the object's tournament; creating something under a
   tournament named in the request body calls ``require_tournament_role``.

Reusing it in another app's API (``matches``, pairings, standings)::

    from league.api.permissions import CanScore, require_tournament_role, ROLE_SCORE
    from league.selectors import tables_visible_to

    class HandViewSet(viewsets.GenericViewSet):
        permission_classes = [CanScore]
        tournament_field = "match__tournament"   # lookup path from the object to its tournament

        def get_queryset(self):
            return Hand.objects.filter(match__table__in=tables_visible_to(user=self.request.user))

    # an APIView that posts under a tournament with no object to check:
    require_tournament_role(request, tournament_id=match.tournament_id, role=ROLE_SCORE)

Answers: a caller with no credentials writing gets 401; a caller who can see the
object but lacks the role gets 403; an object outside the caller's queryset is 404.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from league.models import Club
from league.selectors import (
    club_can_manage,
    club_can_register,
    clubs_organised_by,
    clubs_registering_for,
    tournament_can_manage,
    tournament_can_score,
    tournaments_visible_to,
    user_is_organiser,
    user_is_superuser,
)

ROLE_SCORE = "score"
ROLE_MANAGE = "manage"
ROLE_SUPERUSER = "superuser"


def tournament_id_of(obj: Model, path: str) -> int | None:
    """The id of the tournament ``obj`` belongs to, following the lookup ``path``.

    ``""`` means ``obj`` is the tournament; ``"round__tournament"`` reads
    ``obj.round.tournament_id``.
    """
    if not path:
        return int(obj.pk)
    *hops, last = path.split("__")
    target: Any = obj
    for hop in hops:
        target = getattr(target, hop, None)
        if target is None:
            return None
    value = getattr(target, f"{last}_id", None)
    return int(value) if value is not None else None


def has_tournament_role(user: Any, *, tournament_id: int | None, role: str) -> bool:
    """True when ``user`` holds ``role`` (``ROLE_SCORE``/``ROLE_MANAGE``) on the tournament."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user_is_superuser(user=user):
        return True
    if tournament_id is None or role == ROLE_SUPERUSER:
        return False
    if role == ROLE_SCORE:
        return tournament_can_score(user=user, tournament_id=tournament_id)
    return tournament_can_manage(user=user, tournament_id=tournament_id)


def require_tournament_role(request: Request, *, tournament_id: int, role: str) -> None:
    """Raise 401/404/403 unless the caller holds ``role`` on the tournament."""
    user = request.user
    if not user.is_authenticated:
        raise exceptions.NotAuthenticated()
    if has_tournament_role(user, tournament_id=tournament_id, role=role):
        return
    if not tournaments_visible_to(user=user).filter(pk=tournament_id).exists():
        raise exceptions.NotFound()
    raise exceptions.PermissionDenied(_role_message(role))


def _role_message(role: str) -> str:
    if role == ROLE_SCORE:
        return str(_("You do not keep the score in this tournament."))
    if role == ROLE_MANAGE:
        return str(_("You do not organise this tournament."))
    return str(_("Only an administrator may do this."))


class TournamentRolePermission(BasePermission):
    """Reads for anyone (the queryset decides what exists); writes need a role on the
    object's tournament.

    The view sets ``tournament_field`` (lookup path from its objects to their
    tournament, ``""`` for tournaments themselves) and may set ``write_roles``, a
    mapping from action name to role, for actions needing another role than
    ``default_role``.
    """

    default_role = ROLE_MANAGE

    def _role(self, view: Any) -> str:
        roles: dict[str, str] = getattr(view, "write_roles", {}) or {}
        return roles.get(getattr(view, "action", None) or "", self.default_role)

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Model) -> bool:
        if request.method in SAFE_METHODS:
            return True
        role = self._role(view)
        self.message = _role_message(role)
        if role == ROLE_SUPERUSER:
            return user_is_superuser(user=request.user)
        path = getattr(view, "tournament_field", "tournament")
        return has_tournament_role(
            request.user, tournament_id=tournament_id_of(obj, path), role=role
        )


class CanManage(TournamentRolePermission):
    """Writes need the organiser role on the object's tournament."""

    default_role = ROLE_MANAGE


class CanScore(TournamentRolePermission):
    """Writes need the scorekeeper (or organiser) role on the object's tournament."""

    default_role = ROLE_SCORE


class IsSuperuserOrReadOnly(BasePermission):
    """Reads for anyone; writes for superusers (rule sets, seasons, divisions)."""

    message = _("Only an administrator may do this.")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user) and user_is_superuser(user=request.user)


class IsOrganiserOrReadOnly(BasePermission):
    """Reads for anyone; writes for organisers (people who run tournaments) and superusers.

    Which *rows* an organiser may change is the view's queryset for writes
    (e.g. ``league.selectors.players_editable_by``).
    """

    message = _("Only organisers may do this.")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if not (request.user and request.user.is_authenticated):
            return False
        return user_is_organiser(user=request.user)


def club_for_write(
    request: Request, *, club: Club | None, fallback: Club | None = None, register: bool = False
) -> Club | None:
    """The club a new or changed row will belong to: the one named, else ``fallback``
    (a season's club, say), else the caller's only club. Raises 403 unless the caller
    organises it, 400 when it cannot be told; the superuser may leave it empty."""
    user = request.user
    if not user.is_authenticated:
        raise exceptions.NotAuthenticated()
    chosen = club or fallback
    if chosen is None:
        if user_is_superuser(user=user):
            return None
        mine = clubs_registering_for(user=user) if register else clubs_organised_by(user=user)
        own = list(mine[:2])
        if len(own) != 1:
            raise exceptions.ValidationError(
                {"club": [_("Say which club this is for.")]}, code="club_required"
            )
        chosen = own[0]
    allowed = club_can_register if register else club_can_manage
    if not allowed(user=user, club_id=chosen.pk):
        raise exceptions.PermissionDenied(_("You do not organise this club."))
    return chosen


class ClubWriteScope(BasePermission):
    """Reads for anyone (the queryset decides what exists); writes for organisers of a
    club, and a write on an object needs it in the view's ``get_write_queryset()`` (what
    ``league.policy`` lets the caller change)."""

    message = _("You may not change this.")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated) and user_is_organiser(
            user=request.user
        )

    def has_object_permission(self, request: Request, view: Any, obj: Model) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(view.get_write_queryset().filter(pk=obj.pk).exists())


class WriteScopePermission(BasePermission):
    """Reads for anyone; a write on an object needs the object in the view's
    ``get_write_queryset()`` (e.g. the players an organiser may change)."""

    message = _("You may not change this.")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Model) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(view.get_write_queryset().filter(pk=obj.pk).exists())
