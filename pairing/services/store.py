"""Storing a computed draw as a round's draft.

``draw_store`` writes what the dispatcher returned: tables (through
``league.services.rounds.table_create``, so each table's target follows its player
count, R4), seats (partnerships fill seats 0+2 / 1+3, R2), each table's cost breakdown,
the round's quality report, the seed the draw was made with and its byes. It is called
inside the pairing transaction, once the old draft is gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from league.models import Entry, Round
from league.services.rounds import seats_for_entries, table_create
from pairing.algorithms.types import Draw, TableCost
from pairing.services.progress import Progress


def table_cost_json(cost: TableCost) -> dict[str, Any]:
    """A table's cost breakdown for ``Table.cost`` (fractions as strings such as "1/2")."""
    return {
        "score_gap": str(cost.score_gap),
        "score_cost": str(cost.score_cost),
        "rematches": cost.rematches,
        "partner_repeats": cost.partner_repeats,
        "opponent_repeats": cost.opponent_repeats,
    }


def _seat_count(entry: Entry) -> int:
    return 2 if entry.partnership_id is not None else 1


def draw_store(
    *,
    round: Round,
    draw: Draw,
    entries: Mapping[int, Entry],
    progress: Progress,
    done: int,
    total: int,
) -> None:
    """Write ``draw`` as the round's draft (the round has no tables or byes yet); report
    progress from ``done`` of ``total`` as each table's entrants are seated."""
    for number, drawn in enumerate(draw.tables, start=1):
        seated = [entries[eid] for eid in drawn.seats]
        table_create(
            round=round,
            number=number,
            seats=seats_for_entries(seated, player_count=sum(_seat_count(e) for e in seated)),
            cost=table_cost_json(drawn.cost),
        )
        done += len(drawn.seats)
        progress(done, total)
    round.byes.set(draw.byes)
    round.quality = draw.report.as_dict()
    round.pairing_seed = draw.seed  # a fixed schedule is placed by the tournament's
    round.save(update_fields=["quality", "pairing_seed", "updated_at"])
