"""Reading a round's draw back as the admin and the API show it.

``round_draw`` gathers the round's tables with their seats and cost breakdowns, its byes
and quality report and — for a draft, unless told otherwise — the warnings about it
(``pairing.services.checks``), as plain view dataclasses that templates and serializers
read without touching the models again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from league.models import Round, Table
from pairing.services.checks import DraftProblem, round_draft_validate


@dataclass(frozen=True, slots=True)
class SeatView:
    number: int
    entry_id: int
    player_id: int
    player_name: str
    entry_name: str


@dataclass(frozen=True, slots=True)
class TableView:
    id: int
    number: int
    player_count: int
    target: int
    status: str
    cost: dict[str, Any]
    seats: tuple[SeatView, ...]


@dataclass(frozen=True, slots=True)
class RoundDraw:
    """A round's draw as the admin and the API show it."""

    round: Round
    tables: tuple[TableView, ...]
    byes: tuple[tuple[int, str], ...]
    quality: dict[str, Any]
    problems: tuple[DraftProblem, ...]


def round_draw(*, round: Round, with_problems: bool | None = None) -> RoundDraw:
    """The round's tables with seats and costs, its byes and quality report, and — for a
    draft, unless told otherwise — the warnings about it."""
    tables = list(
        Table.objects.filter(round=round)
        .prefetch_related("seats__player", "seats__entry__player", "seats__entry__partnership")
        .order_by("number")
    )
    views = tuple(
        TableView(
            id=t.pk,
            number=t.number,
            player_count=t.player_count,
            target=t.target,
            status=t.status,
            cost=dict(t.cost or {}),
            seats=tuple(
                SeatView(s.number, s.entry_id, s.player_id, str(s.player), s.entry.display_name)
                for s in sorted(t.seats.all(), key=lambda s: s.number)
            ),
        )
        for t in tables
    )
    byes = tuple(
        (e.pk, e.display_name)
        for e in round.byes.select_related("player", "partnership").order_by("pk")
    )
    if with_problems is None:
        with_problems = round.status == Round.Status.DRAFT
    problems = tuple(round_draft_validate(round=round)) if with_problems and tables else ()
    return RoundDraw(round, views, byes, dict(round.quality or {}), problems)
