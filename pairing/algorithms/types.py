"""The value types every pairing format takes and returns: entrants, the meeting history,
tables with their cost breakdown, a round's draw with its quality report, and a whole
schedule. They are plain frozen dataclasses so that the Django side can build them from
models and store them back without the algorithms ever seeing the ORM.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from types import MappingProxyType
from typing import Any

from allfives import side_seats, sides_of

Points = int | Fraction | Decimal
"""Match points: whole or half points, exact (never float)."""

Pair = frozenset[int]
"""Two entrant ids, unordered."""


def pair(a: int, b: int) -> Pair:
    """The unordered pair of two distinct entrant ids."""
    if a == b:
        raise ValueError(f"a pair needs two different entrants, got {a} twice")
    return frozenset((a, b))


def as_fraction(points: Points) -> Fraction:
    """Match points as an exact fraction (int, Decimal and Fraction all convert exactly)."""
    return Fraction(points)


class PairingError(ValueError):
    """A pairing request the organiser can fix (too few entrants, impossible table sizes).

    ``code`` is stable and meant for translation and API error bodies.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Entrant:
    """One active entrant of a round: a player, or a partnership in two-sided formats.

    ``rank`` is the position in the standings (1 = top); equal ranks are broken by the
    seed. ``had_bye`` says whether the entrant has already had a bye in this event.
    """

    id: int
    score: Points = 0
    rank: int = 0
    had_bye: bool = False


def _frozen_counts(counts: Mapping[Pair, int]) -> Mapping[Pair, int]:
    return MappingProxyType({p: c for p, c in counts.items() if c > 0})


@dataclass(frozen=True)
class History:
    """What happened before this round: how often each pair shared a table (``met``) and
    how often they were partners (``partnered``, seats 0+2 or 1+3 at a four-player table).
    Two entrants opposed each other ``met - partnered`` times.
    """

    met: Mapping[Pair, int] = field(default_factory=dict)
    partnered: Mapping[Pair, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "met", _frozen_counts(self.met))
        object.__setattr__(self, "partnered", _frozen_counts(self.partnered))
        for p, c in self.partnered.items():
            if self.met.get(p, 0) < c:
                raise ValueError(f"pair {sorted(p)} partnered {c} times but met fewer times")

    def meetings(self, a: int, b: int) -> int:
        """How often a and b shared a table."""
        return self.met.get(frozenset((a, b)), 0)

    def partnerships(self, a: int, b: int) -> int:
        """How often a and b were partners."""
        return self.partnered.get(frozenset((a, b)), 0)

    def oppositions(self, a: int, b: int) -> int:
        """How often a and b sat on opposing sides."""
        return self.meetings(a, b) - self.partnerships(a, b)

    def with_tables(self, tables: Iterable[Table | Sequence[int]]) -> History:
        """This history plus one more round of tables (seat order matters at four seats)."""
        met = dict(self.met)
        partnered = dict(self.partnered)
        for t in tables:
            seats = t.seats if isinstance(t, Table) else tuple(t)
            for a, b in combinations(seats, 2):
                p = pair(a, b)
                met[p] = met.get(p, 0) + 1
            for p in partner_pairs(seats):
                partnered[p] = partnered.get(p, 0) + 1
        return History(met, partnered)

    @classmethod
    def from_rounds(cls, rounds: Iterable[Iterable[Table | Sequence[int]]]) -> History:
        """The history of several rounds of tables."""
        history = cls()
        for tables in rounds:
            history = history.with_tables(tables)
        return history


def partner_pairs(seats: Sequence[int]) -> tuple[Pair, ...]:
    """Partners at a table: seats 0+2 and 1+3 at four players (docs/rules.md R2), none otherwise."""
    if len(seats) == 4:
        return tuple(pair(*(seats[s] for s in side_seats(side, 4))) for side in sides_of(4))
    return ()


def opponent_pairs(seats: Sequence[int]) -> tuple[Pair, ...]:
    """Pairs at a table who play on opposing sides."""
    partners = set(partner_pairs(seats))
    return tuple(p for p in (pair(a, b) for a, b in combinations(seats, 2)) if p not in partners)


@dataclass(frozen=True, slots=True)
class TableCost:
    """Why a table was made: the cost it carries, broken down.

    ``score_gap`` is the largest difference in match points at the table; ``score_cost``
    the sum over opposing pairs of the squared difference; ``rematches`` the pairs at the
    table who had already shared a table; ``partner_repeats`` the partner pairs who had
    already been partners; ``opponent_repeats`` the opposing pairs who had already opposed.
    """

    score_gap: Fraction = Fraction(0)
    score_cost: Fraction = Fraction(0)
    rematches: int = 0
    partner_repeats: int = 0
    opponent_repeats: int = 0


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: entrant ids in seat order (clockwise from seat 0)."""

    seats: tuple[int, ...]
    cost: TableCost = TableCost()

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The sides: partners 0+2 and 1+3 at four seats, otherwise each seat alone."""
        n = len(self.seats)
        return tuple(tuple(self.seats[s] for s in side_seats(side, n)) for side in sides_of(n))


@dataclass(frozen=True, slots=True)
class QualityReport:
    """How good a round's draw is, for the organiser.

    ``is_certified_optimal`` is set by the Swiss when it has proved that its restricted
    search found the same cost as a search over every pair (None when not applicable).
    ``schedule_partner_deviation`` / ``schedule_opponent_deviation``: when the round is
    one of a whist schedule planned whole, how many pairs that schedule partners other
    than once / opposes other than twice (0 and 0 for a true whist tournament; None for
    rounds seated one at a time).
    """

    table_count: int
    bye_count: int
    rematches: int
    partner_repeats: int
    opponent_repeats: int
    largest_score_gap: Fraction
    score_cost: Fraction
    is_certified_optimal: bool | None = None
    schedule_partner_deviation: int | None = None
    schedule_opponent_deviation: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (fractions as strings such as "1/2"); the schedule's deviations
        only when the round belongs to a planned whist schedule."""
        schedule = (
            {
                "schedule_partner_deviation": self.schedule_partner_deviation,
                "schedule_opponent_deviation": self.schedule_opponent_deviation,
            }
            if self.schedule_partner_deviation is not None
            else {}
        )
        return {
            "table_count": self.table_count,
            "bye_count": self.bye_count,
            "rematches": self.rematches,
            "partner_repeats": self.partner_repeats,
            "opponent_repeats": self.opponent_repeats,
            "largest_score_gap": str(self.largest_score_gap),
            "score_cost": str(self.score_cost),
            "is_certified_optimal": self.is_certified_optimal,
            **schedule,
        }


@dataclass(frozen=True, slots=True)
class Draw:
    """One round: its tables, the entrants given a bye, the quality report and the seed."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...]
    report: QualityReport
    seed: int

    @property
    def seated(self) -> tuple[int, ...]:
        """Every entrant seated this round, table by table."""
        return tuple(e for t in self.tables for e in t.seats)


@dataclass(frozen=True, slots=True)
class ScheduleReport:
    """How close a whole schedule comes to every pair meeting exactly once.

    Counts are over all pairs of entrants. ``excess_meetings`` is the sum over pairs of
    meetings beyond the first. ``deviation`` is the sum over pairs of (meetings - 1)
    squared — an unmet pair and a pair met twice each add 1, a pair met three times 4 —
    and ``deviation_bound`` the least any schedule with the same number of meetings could
    have (meetings spread as evenly as arithmetic allows; not always reachable).
    ``partner_counts`` / ``opponent_counts``: the distinct numbers of times pairs were
    partners / opponents (``(1,)`` and ``(2,)`` for a whist tournament; empty when no
    table seats four). ``whist_partner_deviation`` / ``whist_opponent_deviation``: how many
    pairs are partners other than exactly once / opponents other than exactly twice, a
    whist schedule's distance from the ideal (0 and 0 for a true whist tournament).
    """

    round_count: int
    pair_count: int
    pairs_unmet: int
    pairs_met_once: int
    excess_meetings: int
    max_meetings: int
    deviation: int
    deviation_bound: int
    partner_counts: tuple[int, ...] = ()
    opponent_counts: tuple[int, ...] = ()
    whist_partner_deviation: int = 0
    whist_opponent_deviation: int = 0

    @property
    def is_best_possible(self) -> bool:
        """The deviation reaches its bound: no schedule of this shape does better."""
        return self.deviation == self.deviation_bound

    @property
    def is_exact(self) -> bool:
        """Every pair met exactly once."""
        return self.pairs_met_once == self.pair_count


@dataclass(frozen=True, slots=True)
class Schedule:
    """Every round of an event fixed in advance (round robins, whist tournaments)."""

    rounds: tuple[Draw, ...]
    report: ScheduleReport
    construction: str
