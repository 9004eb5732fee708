"""The organiser's presence rule per round: pair the checked-in entries only, or all."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from entrants.models import RoundPresence
from league.models import Round


def round_presence_set(*, round: Round, checked_in_only: bool) -> RoundPresence:
    """Choose whether pairing ``round`` seats checked-in entries only (draft rounds)."""
    if round.status != Round.Status.DRAFT:
        raise ValidationError(
            _("Round %(n)d is already published: its tables are set.") % {"n": round.number},
            code="round_published",
        )
    presence, _created = RoundPresence.objects.update_or_create(
        round=round, defaults={"is_checked_in_only": checked_in_only}
    )
    return presence
