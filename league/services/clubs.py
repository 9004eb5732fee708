"""Clubs and their members, and the one rule of ownership: what a club's row points at
belongs to the same club (a tournament's season, a season's or tournament's rule set —
unless it is one of the shared rule sets shipped with the service). A shared rule set is
changed by copying it into a club first.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from league.models import Club, Membership, MembershipRole, RuleSet, Season, Tournament
from league.roles import ORGANISERS_GROUP


def _unique(model: type[models.Model], field: str, base: str, limit: int) -> str:
    root = base[: limit - 8] or "x"
    value, n = root, 1
    while model._default_manager.filter(**{field: value}).exists():
        n += 1
        value = f"{root} ({n})" if field == "name" else f"{root}-{n}"
    return value


@transaction.atomic
def club_create(*, name: str, city: str = "", organiser: Any = None) -> Club:
    """A new club; ``organiser`` (a user), when given, becomes its first organiser."""
    name = name.strip()
    if not name:
        raise ValidationError(_("A club needs a name."), code="name_required")
    club = Club(name=name, city=city.strip(), slug=_unique(Club, "slug", slugify(name), 140))
    club.full_clean()
    club.save()
    if organiser is not None:
        membership_add(club=club, user=organiser, role=MembershipRole.ORGANISER)
    return club


@transaction.atomic
def membership_add(*, club: Club, user: Any, role: str) -> Membership:
    """Make ``user`` a member of ``club`` (or change their role there). An organiser is
    let into the organisers' admin."""
    if role not in MembershipRole.values:
        raise ValidationError(_("Choose organiser, scorekeeper or member."), code="role_invalid")
    membership, created = Membership.objects.get_or_create(
        club=club, user=user, defaults={"role": role}
    )
    if not created and membership.role != role:
        _keep_an_organiser(membership, new_role=role)
        membership.role = role
        membership.save(update_fields=["role", "updated_at"])
    if role == MembershipRole.ORGANISER:
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
        # The group carries the admin's model permissions; the rows are the policy's.
        Group.objects.get_or_create(name=ORGANISERS_GROUP)[0].user_set.add(user)
    return membership


def _keep_an_organiser(membership: Membership, *, new_role: str | None) -> None:
    if membership.role != MembershipRole.ORGANISER or new_role == MembershipRole.ORGANISER:
        return
    others = Membership.objects.filter(club=membership.club_id, role=MembershipRole.ORGANISER)
    if not others.exclude(pk=membership.pk).exists():
        raise ValidationError(
            _("%(club)s needs at least one organiser.") % {"club": membership.club},
            code="last_organiser",
        )


def membership_remove(*, membership: Membership) -> None:
    """End a membership; a club's last organiser stays."""
    _keep_an_organiser(membership, new_role=None)
    membership.delete()


@transaction.atomic
def rule_set_copy(*, rule_set: RuleSet, club: Club, name: str = "") -> RuleSet:
    """A club's own copy of a rule set (a shared one, say), to change as it likes."""
    copy = RuleSet.objects.get(pk=rule_set.pk)
    copy.pk = None
    copy.id = None
    copy._state.adding = True
    copy.club = club
    copy.name = _unique(RuleSet, "name", (name.strip() or f"{rule_set.name} — {club.name}"), 80)
    copy.full_clean()
    copy.save()
    return copy


def _club_of(value: Any) -> int | None:
    return getattr(value, "club_id", None)


def ownership_check(*, instance: models.Model) -> None:
    """Refuse a club's row that points at another club's season or rule set; a shared
    rule set is refused for change by anyone but through a copy (the caller's policy
    decides who may change it at all)."""
    if isinstance(instance, Season):
        _rule_set_fits(instance.rule_set if instance.rule_set_id else None, instance.club_id)
    elif isinstance(instance, Tournament):
        season = instance.season if instance.season_id else None
        if season is not None and instance.club_id is None:
            instance.club_id = season.club_id
        if season is not None and season.club_id != instance.club_id:
            raise ValidationError(
                {"season": _("The season belongs to another club.")}, code="season_other_club"
            )
        _rule_set_fits(instance.rule_set if instance.rule_set_id else None, instance.club_id)
        division = instance.division if instance.division_id else None
        if division is not None and division.season_id != instance.season_id:
            raise ValidationError(
                {"division": _("The division belongs to another season.")},
                code="division_other_season",
            )


def _rule_set_fits(rule_set: RuleSet | None, club_id: int | None) -> None:
    if rule_set is None or rule_set.club_id is None or rule_set.club_id == club_id:
        return
    raise ValidationError(
        {"rule_set": _("The rule set belongs to another club: copy it to use it.")},
        code="rule_set_other_club",
    )
