"""Measuring a draw: each table's cost breakdown, a round's quality report, a whole
schedule's meeting counts, and the warnings for a draft an organiser edited by hand.

Every format builds its tables through :func:`costed_table` and its report through
:func:`draw_report`, so the figures an organiser sees are computed one way only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from pairing.algorithms.types import (
    Draw,
    Entrant,
    History,
    Pair,
    QualityReport,
    ScheduleReport,
    Table,
    TableCost,
    as_fraction,
    opponent_pairs,
    pair,
    partner_pairs,
)


def table_cost(seats: Sequence[int], scores: Mapping[int, Fraction], history: History) -> TableCost:
    """The cost breakdown of one table given the entrants' match points and the history."""
    gaps = [abs(scores[a] - scores[b]) for a, b in combinations(seats, 2)]
    opponents = opponent_pairs(seats)
    return TableCost(
        score_gap=max(gaps, default=Fraction(0)),
        score_cost=sum(
            ((scores[a] - scores[b]) ** 2 for a, b in (tuple(p) for p in opponents)),
            Fraction(0),
        ),
        rematches=sum(1 for a, b in combinations(seats, 2) if history.meetings(a, b)),
        partner_repeats=sum(1 for p in partner_pairs(seats) if history.partnerships(*p)),
        opponent_repeats=sum(1 for p in opponents if history.oppositions(*p)),
    )


def costed_table(seats: Sequence[int], scores: Mapping[int, Fraction], history: History) -> Table:
    """A table carrying its own cost breakdown."""
    return Table(tuple(seats), table_cost(seats, scores, history))


def score_map(entrants: Iterable[Entrant]) -> dict[int, Fraction]:
    """Entrant id to exact match points."""
    return {e.id: as_fraction(e.score) for e in entrants}


def draw_report(
    tables: Sequence[Table], byes: Sequence[int], *, is_certified_optimal: bool | None = None
) -> QualityReport:
    """The quality report of a round, summed from its tables' cost breakdowns."""
    return QualityReport(
        table_count=len(tables),
        bye_count=len(byes),
        rematches=sum(t.cost.rematches for t in tables),
        partner_repeats=sum(t.cost.partner_repeats for t in tables),
        opponent_repeats=sum(t.cost.opponent_repeats for t in tables),
        largest_score_gap=max((t.cost.score_gap for t in tables), default=Fraction(0)),
        score_cost=sum((t.cost.score_cost for t in tables), Fraction(0)),
        is_certified_optimal=is_certified_optimal,
    )


def make_draw(
    seatings: Iterable[Sequence[int]],
    byes: Iterable[int],
    *,
    scores: Mapping[int, Fraction],
    history: History,
    seed: int,
    is_certified_optimal: bool | None = None,
) -> Draw:
    """A draw with costed tables and its report."""
    tables = tuple(costed_table(s, scores, history) for s in seatings)
    bye_ids = tuple(byes)
    return Draw(
        tables,
        bye_ids,
        draw_report(tables, bye_ids, is_certified_optimal=is_certified_optimal),
        seed,
    )


def schedule_report(rounds: Sequence[Draw], entrant_ids: Sequence[int]) -> ScheduleReport:
    """Meeting counts of a whole schedule against the best any schedule of its shape allows."""
    met: Counter[Pair] = Counter()
    partnered: Counter[Pair] = Counter()
    for draw in rounds:
        for t in draw.tables:
            met.update(pair(a, b) for a, b in combinations(t.seats, 2))
            partnered.update(partner_pairs(t.seats))
    all_pairs = [pair(a, b) for a, b in combinations(sorted(entrant_ids), 2)]
    counts = [met[p] for p in all_pairs]
    meetings = sum(counts)
    partner_counts = sorted({partnered[p] for p in all_pairs})
    opponent_counts = sorted({met[p] - partnered[p] for p in all_pairs})
    has_partners = any(len(t.seats) == 4 for d in rounds for t in d.tables)
    return ScheduleReport(
        round_count=len(rounds),
        pair_count=len(all_pairs),
        pairs_unmet=sum(1 for c in counts if c == 0),
        pairs_met_once=sum(1 for c in counts if c == 1),
        excess_meetings=sum(c - 1 for c in counts if c > 1),
        max_meetings=max(counts, default=0),
        deviation=sum((c - 1) ** 2 for c in counts),
        deviation_bound=deviation_bound(len(all_pairs), meetings),
        partner_counts=tuple(partner_counts) if has_partners else (),
        opponent_counts=tuple(opponent_counts) if has_partners else (),
        whist_partner_deviation=sum(1 for p in all_pairs if partnered[p] != 1),
        whist_opponent_deviation=sum(1 for p in all_pairs if met[p] - partnered[p] != 2),
    )


def deviation_bound(pair_count: int, meetings: int) -> int:
    """Least sum over pairs of (count - 1) squared with this many meetings in all."""
    if pair_count == 0:
        return 0
    q, rem = divmod(meetings, pair_count)
    return (pair_count - rem) * (q - 1) ** 2 + rem * q**2


@dataclass(frozen=True, slots=True)
class DraftWarning:
    """One problem in a hand-edited draft. ``is_blocking`` problems make the draft unplayable
    (an entrant seated twice, a table of the wrong size, an unknown entrant); the others are
    the organiser's call (rematches, partner repeats, a second bye, someone left out)."""

    code: str
    message: str
    entrant_ids: tuple[int, ...]
    table_index: int | None
    is_blocking: bool


def validate_draft(
    tables: Sequence[Sequence[int]],
    byes: Sequence[int] = (),
    *,
    entrants: Sequence[Entrant],
    history: History,
    smallest: int = 2,
    largest: int = 4,
) -> tuple[DraftWarning, ...]:
    """Warnings for a draft edited by hand: entrants twice in the round, table sizes out of
    range, unknown or unseated entrants, rematches, partner repeats and repeated byes."""
    warnings: list[DraftWarning] = []
    known = {e.id: e for e in entrants}
    seen: Counter[int] = Counter()
    for seats in tables:
        seen.update(seats)
    seen.update(byes)
    for eid in sorted(e for e, c in seen.items() if c > 1):
        warnings.append(
            DraftWarning(
                "player_twice",
                f"entrant {eid} appears {seen[eid]} times in the round",
                (eid,),
                None,
                True,
            )
        )
    for eid in sorted(e for e in seen if e not in known):
        warnings.append(
            DraftWarning(
                "unknown_entrant", f"entrant {eid} is not active in this event", (eid,), None, True
            )
        )
    for eid in sorted(e for e in known if e not in seen):
        warnings.append(
            DraftWarning(
                "unseated", f"entrant {eid} has neither a seat nor a bye", (eid,), None, False
            )
        )
    for eid in byes:
        if eid in known and known[eid].had_bye:
            warnings.append(
                DraftWarning("bye_repeat", f"entrant {eid} already had a bye", (eid,), None, False)
            )
    for index, seats in enumerate(tables):
        if not smallest <= len(seats) <= largest:
            warnings.append(
                DraftWarning(
                    "table_size",
                    f"table {index + 1} seats {len(seats)}, allowed {smallest} to {largest}",
                    tuple(seats),
                    index,
                    True,
                )
            )
        if len(set(seats)) < len(seats):
            continue
        for a, b in combinations(seats, 2):
            if history.meetings(a, b):
                warnings.append(
                    DraftWarning(
                        "rematch",
                        f"table {index + 1}: {a} and {b} have met {history.meetings(a, b)} time(s)",
                        (a, b),
                        index,
                        False,
                    )
                )
        for p in partner_pairs(seats):
            a, b = sorted(p)
            if history.partnerships(a, b):
                warnings.append(
                    DraftWarning(
                        "partner_repeat",
                        f"table {index + 1}: {a} and {b} have been partners "
                        f"{history.partnerships(a, b)} time(s)",
                        (a, b),
                        index,
                        False,
                    )
                )
    return tuple(warnings)
