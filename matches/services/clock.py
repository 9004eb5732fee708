"""Calling time on a table's match or on a whole round (docs/rules.md R24).

When time is called the hand in play is finished and the match ends: the match records
``time_called_after`` = the hands recorded + 1 (the hand in play is the next to be
recorded), and the engine ends it once that hand is in, the higher total winning and
equal totals tying. A finished match is left as it is. Only an organiser calls time.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from allfives import Rules
from league.models import Table
from league.services.clock import round_time_called_mark
from matches.models import Match
from matches.selectors import match_can_manage
from matches.services.concurrency import match_lock
from matches.services.lifecycle import match_for_table
from matches.services.verdicts import AnyUser, match_save


@transaction.atomic
def match_time_call(*, match: Match, user: AnyUser) -> Match:
    """Call time on one match: the hand in play is its last (R24)."""
    if user is not None and not match_can_manage(user=user, match=match):
        raise PermissionDenied(_("Only an organiser of the tournament may call time."))
    if not Rules.from_json(match.rules).has_clock:
        raise ValidationError(
            _("This match is played to the target only: its rule set has no time limit."),
            code="no_time_limit",
        )
    locked = match_lock(match_id=match.pk, version=match.version)
    if locked.status == Match.Status.FINISHED or locked.time_called_after is not None:
        return locked
    locked.time_called_after = locked.hands_count + 1
    locked.time_called_at = timezone.now()
    match_save(match=locked, user=user, reason="time called")
    return locked


@transaction.atomic
def table_time_call(*, table_id: int, user: AnyUser) -> Match | None:
    """Call time at one table (its match is created if no hand is in yet); None when the
    table already has its result."""
    table = Table.objects.select_related("round__tournament").get(pk=table_id)
    if table.status == Table.Status.FINISHED:
        return None
    return match_time_call(match=match_for_table(table=table), user=user)


@transaction.atomic
def round_time_call(*, round_id: int, user: AnyUser) -> list[int]:
    """Call time for the whole round: every table still playing or not started plays
    out its hand in play. Returns the numbers of the tables time was called at."""
    round = round_time_called_mark(round_id=round_id, user=user)
    called = []
    for table in Table.objects.filter(round=round).exclude(status=Table.Status.FINISHED):
        if table_time_call(table_id=table.pk, user=user) is not None:
            called.append(table.number)
    return called
