"""Ranking entrants: crediting every table record to its entrants' tallies, ordering them
by the organiser's tiebreaks, shared ranks, and why each row stands above the next
(``compute_standings`` → ``Ranking``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from allfives import outcome
from standings.maths.records import (
    DEFAULT_SCORING,
    Bye,
    ScoringConfig,
    StandingsError,
    TableRecord,
    Withdrawal,
)
from standings.maths.tiebreaks import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    RankingContext,
    Tally,
    TiebreakValue,
    TiebreakValues,
    validate_tiebreaks,
)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One ranked entrant with its record and all tiebreak values."""

    rank: int
    entrant_id: int
    values: TiebreakValues
    match_points: Fraction
    tables_played: int
    wins: int
    ties: int
    losses: int
    byes_count: int
    withdrawn_round: int | None
    in_progress_table_ids: tuple[int, ...]

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_round is not None

    @property
    def is_playing(self) -> bool:
        """True while one of the entrant's matches is still in progress."""
        return bool(self.in_progress_table_ids)


SeparationReason = Literal["tiebreak", "shared_rank", "withdrawal"]


@dataclass(frozen=True, slots=True)
class Separation:
    """Why ``upper`` is listed just above ``lower``: a tiebreak and both values, or a tie."""

    upper_entrant_id: int
    lower_entrant_id: int
    reason: SeparationReason
    tiebreak: str | None = None
    upper_value: Fraction | None = None
    lower_value: Fraction | None = None

    @property
    def is_shared_rank(self) -> bool:
        return self.reason == "shared_rank"


@dataclass(frozen=True, slots=True)
class Ranking:
    """Ranked rows, best first, and one ``Separation`` per adjacent pair of rows."""

    rows: tuple[StandingRow, ...]
    separations: tuple[Separation, ...]
    tiebreaks: tuple[str, ...]

    @property
    def is_provisional(self) -> bool:
        """True while any table is still in play."""
        return any(row.in_progress_table_ids for row in self.rows)

    def row_for(self, entrant_id: int) -> StandingRow:
        """The row of one entrant (``KeyError`` if it is not ranked)."""
        for row in self.rows:
            if row.entrant_id == entrant_id:
                return row
        raise KeyError(entrant_id)


def _config_values(scoring: ScoringConfig) -> list[Fraction]:
    return [
        Fraction(v)
        for v in (
            scoring.win_points,
            scoring.tie_points,
            scoring.loss_points,
            scoring.bye_points,
            *scoring.placing_points,
        )
    ]


class _Points:
    """One scoring config's match points, as integers on the common scale."""

    __slots__ = ("bye", "loss", "pair", "placing", "tie", "win")

    def __init__(self, scoring: ScoringConfig, denominator: int) -> None:
        win, tie, loss, bye, *placing = (int(v * denominator) for v in _config_values(scoring))
        self.win, self.tie, self.loss, self.bye = win, tie, loss, bye
        self.placing = placing
        self.pair = (loss, tie, win)  # indexed by the result x2 against one opponent

    def three_player(self, placing: int, tied: int) -> int:
        """Scaled points for a placing shared by ``tied`` sides (their places' mean)."""
        return sum(self.placing[placing - 1 : placing - 1 + tied]) // tied


class _Scale:
    """Match points as integers: every configured value times one common denominator."""

    def __init__(self, configs: Iterable[ScoringConfig]) -> None:
        distinct = set(configs)
        denominators = (v.denominator for c in distinct for v in _config_values(c))
        # x6 so that places shared by two or three tied sides split exactly.
        self.denominator = 6 * math.lcm(*denominators)
        self.points = {c: _Points(c, self.denominator) for c in distinct}


def compute_standings(
    *,
    tables: Iterable[TableRecord],
    byes: Iterable[Bye] = (),
    withdrawals: Iterable[Withdrawal] = (),
    entrant_ids: Iterable[int] = (),
    scoring: ScoringConfig = DEFAULT_SCORING,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    lot_seed: str = "",
    withdrawn_last: bool = False,
) -> Ranking:
    """Rank every entrant named in the records (or in ``entrant_ids``) by ``tiebreaks``.

    >>> win = TableRecord(1, 10, 2, 250, (SideResult((1,), 500), SideResult((2,), 300)))
    >>> [(row.rank, row.entrant_id, str(row.match_points)) for row in
    ...     compute_standings(tables=[win]).rows]
    [(1, 1, '2'), (2, 2, '0')]
    """
    order = validate_tiebreaks(tiebreaks)
    tables = list(tables)
    byes = list(byes)
    scale = _Scale(
        [scoring]
        + [t.scoring for t in tables if t.scoring is not None]
        + [b.scoring for b in byes if b.scoring is not None]
    )
    default_points = scale.points[scoring]
    tallies: dict[int, Tally] = {entrant_id: Tally() for entrant_id in entrant_ids}

    def tally(entrant_id: int) -> Tally:
        found = tallies.get(entrant_id)
        if found is None:
            found = tallies[entrant_id] = Tally()
        return found

    seen_tables: set[int] = set()
    for table in tables:
        if table.table_id in seen_tables:
            raise StandingsError("table_twice", f"table {table.table_id} is recorded twice")
        seen_tables.add(table.table_id)
        if table.is_finished:
            points = default_points if table.scoring is None else scale.points[table.scoring]
            _credit_table(table, points, tally)
        else:
            for side in table.sides:
                for entrant_id in side.entrant_ids:
                    tally(entrant_id).in_progress.append(table.table_id)

    for bye in byes:
        entry = tally(bye.entrant_id)
        entry.byes += 1
        entry.mp += (default_points if bye.scoring is None else scale.points[bye.scoring]).bye
    for withdrawal in withdrawals:
        entry = tally(withdrawal.entrant_id)
        if entry.withdrawn_round is None or withdrawal.round_number < entry.withdrawn_round:
            entry.withdrawn_round = withdrawal.round_number

    context = RankingContext(tallies, scale.denominator, lot_seed, frozenset(tallies))
    ranker = _Ranker(order, context)
    active = [
        e for e, t in tallies.items() if not (withdrawn_last and t.withdrawn_round is not None)
    ]
    blocks = ranker.rank(active)
    withdrawal_boundary: tuple[int, int] | None = None
    if withdrawn_last:
        gone = [e for e, t in tallies.items() if t.withdrawn_round is not None]
        if gone:
            gone_blocks = ranker.rank(gone)
            if blocks:
                withdrawal_boundary = (blocks[-1][-1], gone_blocks[0][0])
            blocks += gone_blocks

    rows: list[StandingRow] = []
    separations: list[Separation] = []
    position = 1
    previous: int | None = None
    for block in blocks:
        for index, entrant_id in enumerate(block):
            if previous is not None:
                if index:
                    separations.append(Separation(previous, entrant_id, "shared_rank"))
                elif (previous, entrant_id) == withdrawal_boundary:
                    separations.append(Separation(previous, entrant_id, "withdrawal"))
                else:
                    tiebreak = ranker.boundaries[(previous, entrant_id)]
                    separations.append(
                        Separation(
                            previous,
                            entrant_id,
                            "tiebreak",
                            tiebreak,
                            ranker.value(tiebreak, previous),
                            ranker.value(tiebreak, entrant_id),
                        )
                    )
            entry = tallies[entrant_id]
            rows.append(
                StandingRow(
                    rank=position,
                    entrant_id=entrant_id,
                    values=ranker.row_values(entrant_id),
                    match_points=context.points(entry.mp),
                    tables_played=entry.tables,
                    wins=entry.wins,
                    ties=entry.ties,
                    losses=entry.losses,
                    byes_count=entry.byes,
                    withdrawn_round=entry.withdrawn_round,
                    in_progress_table_ids=tuple(entry.in_progress),
                )
            )
            previous = entrant_id
        position += len(block)
    return Ranking(rows=tuple(rows), separations=tuple(separations), tiebreaks=order)


def _credit_table(table: TableRecord, scale: _Points, tally: Callable[[int], Tally]) -> None:
    """Add one finished table to the tallies of every entrant it credits."""
    sides = table.sides
    if table.all_lose:
        _credit_double_forfeit(table, scale, tally)
        return
    placings = table.placings()
    points = [side.points_x2 for side in sides]
    cap = 2 * table.target
    if len(sides) == 2:
        by_result = {"win": scale.win, "tie": scale.tie, "loss": scale.loss}
        match_points = [by_result[outcome(p, placings)] for p in placings]
    else:
        match_points = [scale.three_player(p, placings.count(p)) for p in placings]
    for index, side in enumerate(sides):
        placing = placings[index]
        own = points[index]
        best_other = max(p for i, p in enumerate(points) if i != index)
        opponents: list[tuple[int, int, int]] = []
        for i, other in enumerate(sides):
            if i != index:
                head_to_head = outcome(placing, (placing, placings[i]))
                result_x2 = {"win": 2, "tie": 1, "loss": 0}[head_to_head]
                pair_points = scale.pair[result_x2]
                opponents.extend((o, result_x2, pair_points) for o in other.entrant_ids)
        result = outcome(placing, placings)
        for entrant_id in side.entrant_ids:
            entry = tally(entrant_id)
            entry.tables += 1
            entry.mp += match_points[index]
            entry.wins += result == "win"
            entry.ties += result == "tie"
            entry.losses += result == "loss"
            entry.opponents.extend(opponents)
            if len(side.entrant_ids) > 1:
                entry.partners.extend(e for e in side.entrant_ids if e != entrant_id)
            if not table.counts_points:
                continue
            entry.scored_x2 += own
            # At three-player tables the difference is against the best other side.
            entry.diff_x2 += own - best_other
            entry.share_by_target[table.target] = entry.share_by_target.get(table.target, 0) + min(
                own, cap
            )
            entry.hands_won += side.hands_won


def _credit_double_forfeit(
    table: TableRecord, scale: _Points, tally: Callable[[int], Tally]
) -> None:
    """Every side of a double forfeit loses: the loss's match points (the last place's at
    three players), a table counted, and nothing else — nobody met, nobody scored."""
    last = scale.loss if len(table.sides) == 2 else scale.three_player(len(table.sides), 1)
    for side in table.sides:
        for entrant_id in side.entrant_ids:
            entry = tally(entrant_id)
            entry.tables += 1
            entry.mp += last
            entry.losses += 1


class _Ranker:
    """Splits groups of entrants tiebreak by tiebreak and remembers what split each pair."""

    def __init__(self, order: tuple[str, ...], context: RankingContext) -> None:
        # One snapshot of the registry, so that every row reports the same tiebreaks.
        self.specs = dict(TIEBREAKS)
        self.order = [self.specs[name] for name in order]
        self.context = context
        # Values over all entrants now; those of ``among_tied`` tiebreaks as groups are split.
        self.values: dict[str, dict[int, TiebreakValue]] = {
            key: {} if spec.among_tied else {e: spec.compute(context, e) for e in context.tied}
            for key, spec in self.specs.items()
        }
        self.boundaries: dict[tuple[int, int], str] = {}

    def value(self, tiebreak: str, entrant_id: int) -> Fraction:
        """The exact value ``tiebreak`` compared for an entrant."""
        return Fraction(self.values[tiebreak][entrant_id])

    def row_values(self, entrant_id: int) -> TiebreakValues:
        return TiebreakValues({key: found.get(entrant_id) for key, found in self.values.items()})

    def rank(self, group: list[int]) -> list[list[int]]:
        """``group`` as blocks of entrants sharing a rank, best block first."""
        return self._split(sorted(group), 0) if group else []

    def _split(self, group: list[int], level: int) -> list[list[int]]:
        if len(group) == 1:
            return [group]
        if level == len(self.order):
            return [group]  # tied on everything: one shared rank, listed by entrant id
        spec = self.order[level]
        keys = self.values[spec.key]
        if spec.among_tied:
            tied = replace(self.context, tied=frozenset(group))
            keys.update((e, spec.compute(tied, e)) for e in group)
        # Stable either way: entrants equal on it stay in id order.
        ordered = sorted(group, key=keys.__getitem__, reverse=spec.higher_is_better)
        blocks: list[list[int]] = []
        start = 0
        for end in range(1, len(ordered) + 1):
            if end == len(ordered) or keys[ordered[end]] != keys[ordered[start]]:
                sub_blocks = self._split(ordered[start:end], level + 1)
                if blocks:
                    self.boundaries[(blocks[-1][-1], sub_blocks[0][0])] = spec.key
                blocks.extend(sub_blocks)
                start = end
        return blocks
