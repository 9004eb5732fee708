"""The round clock (docs/rules.md R24): a round played "to the target or N minutes".

The limit is the rule set's ``time_limit``. ``round_clock_start`` starts a round's clock
(once the round is published); ``round_clock_remaining`` reads what is left of it;
``round_time_called_mark`` notes on the round that the organiser called time. Calling
time on the tables' matches is score entry's part (``matches.services.clock``), which
calls this module.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import Round
from league.policy import AnyUser, tournament_can_manage


def round_time_limit(*, round: Round) -> int | None:
    """The round's time limit in minutes (the rule set's), or None without a clock."""
    limit = round.tournament.effective_rule_set.time_limit
    return None if limit is None else int(limit)


def round_clock_remaining(*, round: Round, now: datetime | None = None) -> timedelta | None:
    """What is left of the round's clock (never below zero); None while it is not running."""
    limit = round_time_limit(round=round)
    if limit is None or round.clock_started_at is None:
        return None
    if round.time_called_at is not None:
        return timedelta(0)
    left = round.clock_started_at + timedelta(minutes=limit) - (now or timezone.now())
    return max(left, timedelta(0))


def _organiser_require(round: Round, user: AnyUser | None) -> None:
    if user is not None and not tournament_can_manage(user=user, tournament_id=round.tournament_id):
        raise PermissionDenied(_("Only an organiser of the tournament may run the round clock."))


def _clocked_round(*, round_id: int, user: AnyUser | None) -> Round:
    """The round, locked, once the user may run its clock and its rule set has one."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
    _organiser_require(round, user)
    if round_time_limit(round=round) is None:
        raise ValidationError(
            _("The rule set of this tournament has no time limit per round."),
            code="no_time_limit",
        )
    return round


@transaction.atomic
def round_clock_start(*, round_id: int, user: AnyUser | None) -> Round:
    """Start the round's clock now; refused without a time limit or before publication."""
    round = _clocked_round(round_id=round_id, user=user)
    if round.status != Round.Status.PUBLISHED:
        raise ValidationError(
            _("Round %(n)d's clock can start once the round is published and until it closes.")
            % {"n": round.number},
            code="round_not_published",
        )
    if round.clock_started_at is not None:
        raise ValidationError(
            _("Round %(n)d's clock has already started.") % {"n": round.number},
            code="clock_started",
        )
    round.clock_started_at = timezone.now()
    round.save(update_fields=["clock_started_at", "updated_at"])
    return round


@transaction.atomic
def round_time_called_mark(*, round_id: int, user: AnyUser | None) -> Round:
    """Note that time was called for the whole round (the tables are score entry's part)."""
    round = _clocked_round(round_id=round_id, user=user)
    if round.status != Round.Status.PUBLISHED:
        raise ValidationError(
            _("Round %(n)d is not being played.") % {"n": round.number},
            code="round_not_published",
        )
    if round.time_called_at is None:
        round.time_called_at = timezone.now()
        if round.clock_started_at is None:
            round.clock_started_at = round.time_called_at
        round.save(update_fields=["time_called_at", "clock_started_at", "updated_at"])
    return round
