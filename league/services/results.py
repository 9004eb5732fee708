"""Table results: handed over by score entry as plain values, or recorded by an
organiser without hands.

``matches`` calls ``table_result_record`` when a match ends (and
``table_status_set`` when one starts); ``league`` keeps its own record, from which
standings and pairings are computed, and tells the apps that listen
(``league.hooks``: standings, ratings) inside the same transaction.

Results without hands (organisers only, ``kind`` on the result, kept in its history):

- ``table_forfeit_record``: one side did not come; the side present wins with the rule
  set's forfeit points (``RuleSet.forfeit_points``: the target, unless set), the others
  lose with the forfeit loss points (0 unless set);
- ``table_double_forfeit_record``: nobody came (or every side is at fault); every side
  loses, with no points;
- ``table_agreed_record``: the final totals both sides agree on, when the hands were
  not kept; placed by the totals like a played match (equal top totals tie).

Each refuses a table whose match has hands recorded unless ``replace_hands`` is given:
then score entry sets that match aside (``league.hooks.table_play_discard``), its hands
kept in their history. How standings and ratings treat each kind is decided where they
read it (``standings.selectors``, ``ratings.services.rating``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from allfives import sides_of
from league.hooks import (
    round_tables_with_play,
    table_changed,
    table_play_discard,
    table_result_keep_reasons,
)
from league.models import ResultKind, Round, Table, TableResult, TableResultSide
from league.policy import AnyUser, tournament_can_manage
from league.selectors import table_side_names


@dataclass(frozen=True, slots=True)
class SideOutcome:
    """One side's outcome: named by its lowest seat, points in half-points."""

    side: int
    points_x2: int
    placing: int
    hands_won: int
    is_winner: bool


def table_status_set(*, table_id: int, status: str) -> None:
    if status not in Table.Status.values:
        raise ValidationError(_("Unknown table status %(s)s.") % {"s": status})
    Table.objects.filter(pk=table_id).update(status=status)
    table_changed(table_id=table_id, is_result=False)  # standings show the tables in play


@transaction.atomic
def table_result_record(
    *,
    table_id: int,
    sides: Sequence[SideOutcome],
    hands_count: int,
    finished_at: datetime,
    is_tie: bool = False,
    kind: str = ResultKind.PLAYED,
    user: AnyUser | None = None,
) -> TableResult:
    """Store (or replace, after a correction) a table's result and mark it finished."""
    table = Table.objects.select_for_update().select_related("round").get(pk=table_id)
    expected = 2 if table.player_count in (2, 4) else 3
    if len(sides) != expected or len({s.side for s in sides}) != expected:
        raise ValidationError(
            _("A table of %(n)d players has %(k)d sides.")
            % {"n": table.player_count, "k": expected},
            code="sides_count",
        )
    if reasons := table_result_keep_reasons(
        table_id=table_id, placings={s.side: s.placing for s in sides}
    ):
        raise ValidationError(" ".join(reasons), code="result_kept")
    result = TableResult.objects.filter(table=table).first() or TableResult(table=table)
    result.finished_at, result.hands_count, result.is_tie = finished_at, hands_count, is_tie
    result.kind = kind
    if user is not None and user.is_authenticated:
        result._history_user = user  # type: ignore[attr-defined]
    if kind != ResultKind.PLAYED:
        result._change_reason = kind  # type: ignore[attr-defined]
    result.save()
    result.sides.all().delete()
    TableResultSide.objects.bulk_create(
        TableResultSide(
            result=result,
            side=s.side,
            points_x2=s.points_x2,
            placing=s.placing,
            hands_won=s.hands_won,
            is_winner=s.is_winner,
        )
        for s in sides
    )
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status", "updated_at"])
    table_changed(table_id=table_id)
    return result


@transaction.atomic
def table_result_clear(*, table_id: int) -> None:
    """Forget a result (a finished match was reopened by an organiser)."""
    Table.objects.select_for_update().filter(pk=table_id).first()
    if reasons := table_result_keep_reasons(table_id=table_id, placings=None):
        raise ValidationError(" ".join(reasons), code="result_kept")
    TableResult.objects.filter(table_id=table_id).delete()
    Table.objects.filter(pk=table_id).update(status=Table.Status.PLAYING)
    table_changed(table_id=table_id)


# --- results without hands ------------------------------------------------------------


def _table_for_result(*, table_id: int, user: AnyUser | None, replace_hands: bool) -> Table:
    """The table, locked, once the user may record its result without hands."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament__rule_set", "round__tournament__season__rule_set")
        .get(pk=table_id)
    )
    round = table.round
    if user is not None and not tournament_can_manage(user=user, tournament_id=round.tournament_id):
        raise PermissionDenied(
            _("Only an organiser of the tournament may record a result without hands.")
        )
    if round.status == Round.Status.DRAFT:
        raise ValidationError(
            _("Round %(n)d is still a draft: publish it before recording results.")
            % {"n": round.number},
            code="round_not_published",
        )
    if table.number in round_tables_with_play(round=round) and not replace_hands:
        raise ValidationError(
            _(
                "Table %(n)d has hands recorded. Choose to replace them to record this "
                "result instead; the hands stay in the history."
            )
            % {"n": table.number},
            code="table_has_hands",
        )
    table_play_discard(table_id=table.pk, user=user)
    return table


def _sides_check(table: Table, side: int) -> None:
    if side not in sides_of(table.player_count):
        raise ValidationError(
            _("Table %(n)d has no side %(side)d.") % {"n": table.number, "side": side + 1},
            code="bad_side",
        )


@transaction.atomic
def table_forfeit_record(
    *, table_id: int, present_side: int, user: AnyUser | None, replace_hands: bool = False
) -> TableResult:
    """Record a forfeit ("menang WO"): ``present_side`` (named by its lowest seat, from 0)
    wins with the rule set's forfeit points; every other side loses."""
    table = _table_for_result(table_id=table_id, user=user, replace_hands=replace_hands)
    _sides_check(table, present_side)
    rule_set = table.round.tournament.effective_rule_set
    win, loss = rule_set.forfeit_points(target=table.target)
    sides = [
        SideOutcome(
            side=side,
            points_x2=2 * (win if side == present_side else loss),
            placing=1 if side == present_side else 2,
            hands_won=0,
            is_winner=side == present_side,
        )
        for side in sides_of(table.player_count)
    ]
    return table_result_record(
        table_id=table.pk,
        sides=sides,
        hands_count=0,
        finished_at=timezone.now(),
        kind=ResultKind.FORFEIT,
        user=user,
    )


@transaction.atomic
def table_double_forfeit_record(
    *, table_id: int, user: AnyUser | None, replace_hands: bool = False
) -> TableResult:
    """Record a double forfeit ("WO ganda"): every side loses, with no points."""
    table = _table_for_result(table_id=table_id, user=user, replace_hands=replace_hands)
    sides = [
        SideOutcome(side=side, points_x2=0, placing=2, hands_won=0, is_winner=False)
        for side in sides_of(table.player_count)
    ]
    return table_result_record(
        table_id=table.pk,
        sides=sides,
        hands_count=0,
        finished_at=timezone.now(),
        kind=ResultKind.DOUBLE_FORFEIT,
        user=user,
    )


@transaction.atomic
def table_agreed_record(
    *,
    table_id: int,
    totals: Mapping[int, int],
    user: AnyUser | None,
    replace_hands: bool = False,
) -> TableResult:
    """Record an agreed final score ("skor disepakati"): each side's total (whole points,
    by side from 0), placed by the totals; equal top totals tie."""
    table = _table_for_result(table_id=table_id, user=user, replace_hands=replace_hands)
    sides_here = sides_of(table.player_count)
    if set(totals) != set(sides_here):
        raise ValidationError(
            _("Give a total for each of the %(k)d sides of table %(n)d.")
            % {"k": len(sides_here), "n": table.number},
            code="sides_count",
        )
    for side, points in totals.items():
        if type(points) is not int or points < 0:
            raise ValidationError(
                _("The total of %(names)s must be a whole number from 0.")
                % {"names": table_side_names(table=table)[side]},
                code="bad_total",
            )
    placings = {
        side: 1 + sum(1 for other in sides_here if totals[other] > totals[side])
        for side in sides_here
    }
    tied = sum(1 for placing in placings.values() if placing == 1) > 1
    sides = [
        SideOutcome(
            side=side,
            points_x2=2 * totals[side],
            placing=min(placings[side], 3),
            hands_won=0,
            is_winner=placings[side] == 1,
        )
        for side in sides_here
    ]
    return table_result_record(
        table_id=table.pk,
        sides=sides,
        hands_count=0,
        finished_at=timezone.now(),
        is_tie=tied,
        kind=ResultKind.AGREED,
        user=user,
    )
