"""Table results handed over by score entry as plain values.

``matches`` calls ``table_result_record`` when a match ends (and
``table_status_set`` when one starts); ``league`` keeps its own record, from which
standings and pairings are computed, and tells the apps that listen
(``league.hooks``: standings, ratings) inside the same transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from league.hooks import table_changed
from league.models import Table, TableResult, TableResultSide


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
    result, _created = TableResult.objects.update_or_create(
        table=table,
        defaults={"finished_at": finished_at, "hands_count": hands_count, "is_tie": is_tie},
    )
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
    TableResult.objects.filter(table_id=table_id).delete()
    Table.objects.filter(pk=table_id).update(status=Table.Status.PLAYING)
    table_changed(table_id=table_id)
