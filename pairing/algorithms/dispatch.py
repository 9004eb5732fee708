"""Choosing and running the pairing function for a round: a pure dispatcher.

It is given a :class:`DrawField` — everything a draw needs, read up front (the entrants
with scores, ranks and earlier byes, the history, the tournament's earlier rounds, its
format, table size, byes policy, seed and rounds left) — and looks the pairing function
up in :data:`DISPATCH`, a table keyed by (format, table size), so which algorithm a
tournament gets is data one can read and test rather than a chain of conditions. No
Django, no database: the same field and seed give the same draw.

The entries: Swiss at tables of two and fixed partnerships → ``swiss_pair``; Swiss at
tables of three/four/mixed → ``group_swiss_seat`` (told the rounds left); round robins →
``round_robin_schedule`` / ``group_round_robin_schedule`` while the fixed schedule still
applies, else rematch-free seating; rotating partners → ``whist_schedule`` while it
applies, else ``rotating_seat``; league nights → ``league_night_pair`` on the season's
standings. Tables of three and four are mixed when the count needs it (10 → 4+3+3,
:func:`group_split`); byes only when the tournament allows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from allfives import side_seats, sides_of
from pairing.algorithms.designs import has_whist_tournament
from pairing.algorithms.group_swiss import group_swiss_seat
from pairing.algorithms.league_night import league_night_pair
from pairing.algorithms.quality import make_draw, score_map
from pairing.algorithms.rotating import rotating_seat, whist_schedule
from pairing.algorithms.round_robin import group_round_robin_schedule, round_robin_schedule
from pairing.algorithms.swiss import swiss_pair
from pairing.algorithms.table_sizes import table_sizes
from pairing.algorithms.types import Draw, Entrant, History, PairingError, Schedule

# The values of the league's TournamentFormat and TableSize choices (this package may not
# import the models; a test checks the two stay in step).
ROUND_ROBIN = "round_robin"
SWISS = "swiss"
FIXED_PARTNERSHIP = "fixed_partnership"
ROTATING_PARTNER = "rotating_partner"
LEAGUE_NIGHT = "league_night"

TWO = "2"
THREE = "3"
FOUR = "4"
MIXED = "3-4"


@dataclass(frozen=True, slots=True)
class EarlierRound:
    """One earlier round of the tournament: each table's entry ids by seat number (a
    partnership once per seat it fills), and the entries that had a bye."""

    number: int
    tables: tuple[tuple[int, ...], ...]
    byes: frozenset[int]


@dataclass(frozen=True, slots=True)
class DrawField:
    """Everything a draw of one round needs, read before any pairing function runs."""

    format: str
    table_size: str
    allow_byes: bool
    tournament_seed: int
    rounds_count: int
    round_number: int
    entrants: tuple[Entrant, ...]
    history: History
    earlier_rounds: tuple[EarlierRound, ...]
    """Rounds 1 to ``round_number - 1`` of this tournament, in order (empty ones too)."""

    @property
    def is_partnership_format(self) -> bool:
        return self.format == FIXED_PARTNERSHIP

    @property
    def rounds_left(self) -> int:
        """This round and those still to come (at least 1)."""
        return max(1, self.rounds_count - self.round_number + 1)

    @property
    def table_bounds(self) -> tuple[int, int]:
        """Entrants per table the format allows (partnerships count as one entrant)."""
        return table_bounds(self.format, self.table_size)


def table_bounds(format: str, table_size: str) -> tuple[int, int]:
    """Entrants per table a format allows (partnerships count as one entrant)."""
    if format == FIXED_PARTNERSHIP or table_size == TWO:
        return 2, 2
    return 2, 4


class ByesRefused(PairingError):
    """The entrants do not split into tables and the tournament allows no byes."""

    def __init__(self, count: int) -> None:
        super().__init__("byes_not_allowed", f"{count} entrants cannot all be seated without byes")
        self.count = count


class PartnersNeedFour(PairingError):
    """Rotating partners asked for at tables that have no partners."""

    def __init__(self, table_size: str) -> None:
        super().__init__(
            "partners_need_four", f"rotating partners cannot play at tables of {table_size}"
        )


class FormatNotAvailable(PairingError):
    """No pairing function for this format at this table size."""

    def __init__(self, format: str, table_size: str) -> None:
        super().__init__(
            "format_not_available", f"no automatic pairing for {format} at tables of {table_size}"
        )
        self.format = format
        self.table_size = table_size


# -- splitting a field into tables --------------------------------------------------------

# (table size, smallest table) to try, in order, per table size: tables of three and four
# before a table of two; a split without byes always before one with byes.
_GROUP_SPLITS: dict[str, tuple[tuple[int, int], ...]] = {
    THREE: ((3, 3), (4, 3), (3, 2)),
    FOUR: ((4, 4), (4, 3), (4, 2)),
    MIXED: ((4, 3), (4, 2)),
}


def group_split(*, count: int, table_size: str, allow_byes: bool) -> tuple[int, int, bool]:
    """The (table size, smallest table, byes allowed) to seat ``count`` entrants at tables
    of three and four (10 at tables of four: 4+3+3), using byes only when allowed and no
    split fits without them."""
    candidates = _GROUP_SPLITS[table_size]
    for byes in (False, True) if allow_byes else (False,):
        for size, smallest in candidates:
            try:
                table_sizes(count, size=size, smallest=smallest, byes_allowed=byes)
            except PairingError:
                continue
            return size, smallest, byes
    if count < 2:
        raise PairingError("too_few", f"{count} entrants cannot be seated")
    raise ByesRefused(count)


# -- the pairing functions, one per kind of entry -----------------------------------------


def _two_sided(field: DrawField, seed: int) -> Draw:
    """Two sides a table (players at tables of two, or partnerships at tables of four)."""
    if len(field.entrants) % 2 and not field.allow_byes:
        raise ByesRefused(len(field.entrants))
    return swiss_pair(field.entrants, field.history, seed=seed)


def _group_swiss(field: DrawField, seed: int) -> Draw:
    size, smallest, byes = group_split(
        count=len(field.entrants), table_size=field.table_size, allow_byes=field.allow_byes
    )
    return group_swiss_seat(
        field.entrants,
        field.history,
        seed=seed,
        table_size=size,
        smallest=smallest,
        byes_allowed=byes,
        rounds_left=field.rounds_left,
        earlier=[r.tables for r in field.earlier_rounds],
    )


TableShape = frozenset[frozenset[int]]


def _table_shape(seats: Sequence[int]) -> TableShape:
    """A table up to rotation: its sides (partners 0+2 and 1+3 at four seats)."""
    n = len(seats)
    return frozenset(frozenset(seats[s] for s in side_seats(side, n)) for side in sides_of(n))


def _earlier_round_shapes(field: DrawField) -> list[frozenset[TableShape]]:
    """The tournament's earlier rounds, each as the set of its tables' shapes."""
    return [frozenset(_table_shape(t) for t in r.tables) for r in field.earlier_rounds]


def _whist_round(field: DrawField) -> Draw | None:
    """This round of the whist tournament (every pair partners once, opponents twice)
    when the field is whist-sized and unchanged and every earlier round followed that
    schedule; None otherwise. The schedule is placed by the tournament's seed, so every
    round reads the same one."""
    ids = sorted(e.id for e in field.entrants)
    if len(ids) % 4 == 3:
        # 4n + 3: the whist with one empty seat, if the tournament seats tables of three.
        if field.table_size != MIXED or not has_whist_tournament(len(ids) + 1):
            return None
    elif not has_whist_tournament(len(ids)):
        return None
    if len(ids) % 4 == 1 and not field.allow_byes:
        return None  # 4n + 1 players: one sits out every round
    schedule = whist_schedule(ids, seed=field.tournament_seed)
    if field.round_number > len(schedule.rounds):
        return None
    planned = [frozenset(_table_shape(t.seats) for t in d.tables) for d in schedule.rounds]
    if _earlier_round_shapes(field) != planned[: field.round_number - 1]:
        return None
    drawn = schedule.rounds[field.round_number - 1]
    draw = make_draw(
        [t.seats for t in drawn.tables],
        drawn.byes,
        scores=score_map(field.entrants),
        history=field.history,
        seed=field.tournament_seed,
    )
    # The organiser sees how far the whole planned schedule is from a true whist.
    report = replace(
        draw.report,
        schedule_partner_deviation=schedule.report.whist_partner_deviation,
        schedule_opponent_deviation=schedule.report.whist_opponent_deviation,
    )
    return replace(draw, report=report)


def _rotating(field: DrawField, seed: int) -> Draw:
    """Rotating partners: the whist tournament while it fits, else one round at a time."""
    whist = _whist_round(field)
    if whist is not None:
        return whist
    _size, smallest, byes = group_split(
        count=len(field.entrants), table_size=MIXED, allow_byes=field.allow_byes
    )
    return rotating_seat(
        field.entrants,
        field.history,
        seed=seed,
        by_standing=False,
        smallest=smallest,
        byes_allowed=byes,
    )


def _partners_need_four(field: DrawField, seed: int) -> Draw:
    raise PartnersNeedFour(field.table_size)


def _round_field(field: DrawField, number: int) -> set[int]:
    """Entry ids seated, or given a bye, in earlier round ``number``."""
    earlier = field.earlier_rounds[number - 1]
    return {e for table in earlier.tables for e in table} | set(earlier.byes)


@lru_cache(maxsize=32)
def _group_round_robin(
    ids: tuple[int, ...], seed: int, size: int, rounds: int, smallest: int, byes: bool
) -> Schedule:
    # The tabu search is deterministic but not free: a worker pairing round after round
    # of one event builds it once.
    return group_round_robin_schedule(
        ids, seed=seed, table_size=size, rounds=rounds, smallest=smallest, byes_allowed=byes
    )


def _round_robin_schedule(field: DrawField, ids: tuple[int, ...]) -> Schedule:
    if field.table_size == TWO:
        single = len(ids) - 1 if len(ids) % 2 == 0 else len(ids)
        legs = 2 if field.rounds_count > single else 1
        return round_robin_schedule(ids, seed=field.tournament_seed, legs=legs)
    size, smallest, byes = group_split(
        count=len(ids), table_size=field.table_size, allow_byes=field.allow_byes
    )
    return _group_round_robin(ids, field.tournament_seed, size, field.rounds_count, smallest, byes)


def _round_robin_round(field: DrawField) -> Draw | None:
    """This round of the schedule fixed for the field of round 1 (placed by the
    tournament's seed, so every round reads the same schedule), while every earlier round
    followed it. A withdrawn entrant's seat is left out (at two-player tables the opponent
    has a bye, if byes are allowed). None when the schedule no longer applies: a late
    entrant, a hand-made earlier round, or more rounds than the schedule has."""
    active = {e.id for e in field.entrants}
    planned = _round_field(field, 1) if field.round_number > 1 else set(active)
    if not planned or not active <= planned:
        return None
    schedule = _round_robin_schedule(field, tuple(sorted(planned)))
    if field.round_number > len(schedule.rounds):
        return None
    for earlier, drawn in zip(_earlier_round_shapes(field), schedule.rounds, strict=False):
        if not earlier <= {_table_shape(t.seats) for t in drawn.tables}:
            return None
    drawn = schedule.rounds[field.round_number - 1]
    tables: list[list[int]] = []
    byes = [e for e in drawn.byes if e in active]
    for table in drawn.tables:
        kept = [e for e in table.seats if e in active]
        if len(kept) >= 2 and (len(kept) == len(table.seats) or len(table.seats) > 2):
            tables.append(kept)
        else:
            byes += kept
    if byes and not field.allow_byes:
        return None
    return make_draw(
        tables,
        sorted(byes),
        scores=score_map(field.entrants),
        history=field.history,
        seed=field.tournament_seed,
    )


def _round_robin_pairs(field: DrawField, seed: int) -> Draw:
    """Round robins at tables of two: the fixed schedule while it applies; else (a late
    entrant, an edited round) each round paired to avoid meeting anyone twice."""
    scheduled = _round_robin_round(field)
    return scheduled if scheduled is not None else _two_sided(field, seed)


def _round_robin_groups(field: DrawField, seed: int) -> Draw:
    """Round robins at tables of three and four: the fixed schedule while it applies; else
    each round seated to avoid meeting anyone twice, as the Swiss seaters do first."""
    scheduled = _round_robin_round(field)
    return scheduled if scheduled is not None else _group_swiss(field, seed)


def _league_night_pairs(field: DrawField, seed: int) -> Draw:
    """Tonight's checked-in entrants against the season's history, as a Swiss on the
    season's match points (the field and history are read season-wide)."""
    if len(field.entrants) % 2 and not field.allow_byes:
        raise ByesRefused(len(field.entrants))
    return league_night_pair(
        field.entrants, field.history, seed=seed, table_size=2, by_standing=True
    )


def _league_night_groups(field: DrawField, seed: int) -> Draw:
    """A league night at tables of three and four, on the season's match points."""
    size, smallest, byes = group_split(
        count=len(field.entrants), table_size=field.table_size, allow_byes=field.allow_byes
    )
    return league_night_pair(
        field.entrants,
        field.history,
        seed=seed,
        table_size=size,
        smallest=smallest,
        byes_allowed=byes,
        by_standing=True,
    )


Pairer = Callable[[DrawField, int], Draw]
"""A pairing function: the field and the seed in, the draw out."""

DISPATCH: dict[tuple[str, str], Pairer] = {
    (SWISS, TWO): _two_sided,
    (SWISS, THREE): _group_swiss,
    (SWISS, FOUR): _group_swiss,
    (SWISS, MIXED): _group_swiss,
    # Partnerships are one entrant each, two to a table whatever the table size says.
    (FIXED_PARTNERSHIP, TWO): _two_sided,
    (FIXED_PARTNERSHIP, THREE): _two_sided,
    (FIXED_PARTNERSHIP, FOUR): _two_sided,
    (FIXED_PARTNERSHIP, MIXED): _two_sided,
    (ROUND_ROBIN, TWO): _round_robin_pairs,
    (ROUND_ROBIN, THREE): _round_robin_groups,
    (ROUND_ROBIN, FOUR): _round_robin_groups,
    (ROUND_ROBIN, MIXED): _round_robin_groups,
    # Tables of two and three have no partners to rotate: refused with a clear reason.
    (ROTATING_PARTNER, TWO): _partners_need_four,
    (ROTATING_PARTNER, THREE): _partners_need_four,
    (ROTATING_PARTNER, FOUR): _rotating,
    (ROTATING_PARTNER, MIXED): _rotating,
    (LEAGUE_NIGHT, TWO): _league_night_pairs,
    (LEAGUE_NIGHT, THREE): _league_night_groups,
    (LEAGUE_NIGHT, FOUR): _league_night_groups,
    (LEAGUE_NIGHT, MIXED): _league_night_groups,
}
"""The pairing function per (format, table size)."""


def pairer_for(format: str, table_size: str) -> Pairer:
    """The pairing function for a format and table size; :class:`FormatNotAvailable` when
    there is none."""
    try:
        return DISPATCH[(format, table_size)]
    except KeyError:
        raise FormatNotAvailable(format, table_size) from None


def draw_compute(field: DrawField, *, seed: int) -> Draw:
    """Run the pairing function for the field's format and table size."""
    return pairer_for(field.format, field.table_size)(field, seed)
