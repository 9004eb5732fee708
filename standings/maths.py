"""Standings maths: ranks entrants from table results, with no database and no Django.

Vocabulary. An *entrant* is what a standings table ranks: a fixed partnership's
entry, or, in rotating-partner formats, one player's entry. A *table record* is
one match at one table in one round (docs/rules.md R22: hands until a side reaches its
target); each of its *sides* credits its result to every entrant it lists, so a
partnership side lists one entrant and a rotating-partner side lists both players.
Points are integer half-points (``points_x2``) because a three-player split can
give 7.5 (R20). *Match points* come from the result: at a two-sided table (two
players, or two partnerships) a win, a tie (R22) or a loss; at a three-player
table, points by placing, tied placings sharing the places' points. The *target
share* of a table is points ÷ target capped at 1, so tables of different sizes
(R4: targets differ per player count) compare fairly; an entrant's target share
is the mean over their finished tables. Tables still in play count for nothing
but are reported; a bye gives the configured bye points and nothing else.

Ranking: entrants are split by the organiser's tiebreaks in order, each in its own
direction (for the built-in ones, higher value first); ``head_to_head`` is
recomputed among the entrants still tied when it is reached. Entrants equal on every
tiebreak share a rank (1, 2, 2, 4). For every two adjacent rows a ``Separation``
says which tiebreak put one above the other, with both values, or that they share
the rank. A tiebreak is one ``TiebreakSpec`` in the ``TIEBREAKS`` registry (key,
label, computation, direction); validation, storage and every page read it there.

Everything is exact: match points are scaled to integers internally and reported
as ``Fraction``; nothing is ever a float.
"""

from __future__ import annotations

import enum
import hashlib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Final, Literal, NoReturn

from allfives import outcome


class StandingsError(ValueError):
    """A record or configuration the maths cannot rank; ``code`` is stable for callers,
    ``tiebreak`` names the tiebreak an order was refused for."""

    def __init__(self, code: str, message: str, *, tiebreak: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.tiebreak = tiebreak


@dataclass(frozen=True, slots=True)
class ScoringConfig:
    """Match points per result; defaults 2/1/0 at two-sided tables, 3/1/0 by placing at three."""

    win_points: Decimal = Decimal(2)
    tie_points: Decimal = Decimal(1)
    loss_points: Decimal = Decimal(0)
    placing_points: tuple[Decimal, Decimal, Decimal] = (Decimal(3), Decimal(1), Decimal(0))
    bye_points: Decimal = Decimal(2)

    def __post_init__(self) -> None:
        if len(self.placing_points) != 3:
            raise StandingsError("placing_points", "three-player placing points need 3 values")
        for value in (self.win_points, self.tie_points, self.loss_points, self.bye_points):
            _require_finite(value)
        for value in self.placing_points:
            _require_finite(value)


def _require_finite(value: Decimal) -> None:
    if not Decimal(value).is_finite():
        raise StandingsError("points_not_finite", f"match points must be finite, not {value}")


DEFAULT_SCORING: Final = ScoringConfig()


@dataclass(frozen=True, slots=True)
class SideResult:
    """One side at a table: the entrants credited, its points in half-points, placing, hands."""

    entrant_ids: tuple[int, ...]
    points_x2: int
    placing: int | None = None
    hands_won: int = 0


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One match at one table; ``placing`` left out on every side is derived from the points."""

    round_number: int
    table_id: int
    player_count: int
    target: int
    sides: tuple[SideResult, ...]
    is_finished: bool = True
    scoring: ScoringConfig | None = None  # the table's own scoring (season tables), else the call's

    def __post_init__(self) -> None:
        if self.player_count not in (2, 3, 4):
            self._refuse("player_count", "player count must be 2, 3 or 4 (R2)")
        expected_sides = 3 if self.player_count == 3 else 2
        if len(self.sides) != expected_sides:
            self._refuse(
                "side_count", f"{self.player_count} players make {expected_sides} sides (R2)"
            )
        if self.target <= 0:
            self._refuse("target", "the target must be positive (R4)")
        credited = 0
        seen: set[int] = set()
        some_placing = False
        for side in self.sides:
            if not side.entrant_ids:
                self._refuse("empty_side", "a side credits no entrant")
            if side.points_x2 < 0 or side.hands_won < 0:
                self._refuse("negative", "points and hands cannot be negative")
            credited += len(side.entrant_ids)
            seen.update(side.entrant_ids)
            some_placing = some_placing or side.placing is not None
        if len(seen) != credited:
            self._refuse("entrant_twice", "an entrant is credited twice")
        if (
            some_placing
            and self.is_finished
            and any(side.placing is None or side.placing < 1 for side in self.sides)
        ):
            self._refuse("placing_invalid", "give every placing (from 1) or none")

    def _refuse(self, code: str, message: str) -> NoReturn:
        raise StandingsError(code, f"table {self.table_id}: {message}")

    def placings(self) -> tuple[int, ...]:
        """Each side's placing as 1 + the sides placed above it (given placings, else points)."""
        # Given placings are normalised too: 1, 3, 3 reads as 1, 2, 2.
        if self.sides[0].placing is None:
            scores = [side.points_x2 for side in self.sides]
        else:
            # Lower placing is better; negate so "more is better" as with points.
            scores = [-(side.placing or 0) for side in self.sides]
        return tuple(1 + sum(other > own for other in scores) for own in scores)


@dataclass(frozen=True, slots=True)
class Bye:
    """A round the entrant sat out with the bye (``scoring`` as for ``TableRecord``)."""

    entrant_id: int
    round_number: int
    scoring: ScoringConfig | None = None


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """The entrant left the event; ``round_number`` is the first round they do not play."""

    entrant_id: int
    round_number: int


class Tally:
    """One entrant's running totals while the records are read: what tiebreaks are
    computed from.

    Match points (``mp``, and the third item of each ``opponents`` entry) are integers
    on the call's common scale; ``RankingContext.points`` turns them into values.
    """

    __slots__ = (
        "byes",
        "diff_x2",
        "hands_won",
        "in_progress",
        "losses",
        "mp",
        "opponents",
        "partners",
        "scored_x2",
        "share_by_target",
        "tables",
        "ties",
        "wins",
        "withdrawn_round",
    )

    def __init__(self) -> None:
        self.mp = 0  # match points x the common scale
        self.wins = 0
        self.ties = 0
        self.losses = 0
        self.tables = 0
        self.diff_x2 = 0
        self.scored_x2 = 0
        self.share_by_target: dict[int, int] = {}  # target -> sum of capped points_x2
        self.hands_won = 0
        self.byes = 0
        # (opponent, result x2: 2 win 1 tie 0 loss, the scaled match points of that result)
        self.opponents: list[tuple[int, int, int]] = []
        self.partners: list[int] = []
        self.in_progress: list[int] = []
        self.withdrawn_round: int | None = None


@dataclass(frozen=True, slots=True)
class RankingContext:
    """What a tiebreak is computed from: every entrant's tally, the match-point scale,
    the lot seed, and ``tied``: the entrants ranked among (all of them, or for an
    ``among_tied`` tiebreak the group still tied when it is reached)."""

    tallies: Mapping[int, Tally]
    denominator: int
    lot_seed: str
    tied: frozenset[int]

    def points(self, scaled: int) -> Fraction:
        """Scaled match points (as a ``Tally`` holds them) as their exact value."""
        return Fraction(scaled, self.denominator)


type TiebreakValue = int | Fraction


@dataclass(frozen=True, slots=True)
class TiebreakSpec:
    """Everything about one ranking criterion; registering it is all a new one needs.

    ``label`` is English, marked for the catalogue with ``gettext_noop`` and translated
    where it is shown. ``compute`` gives one entrant's exact value. ``among_tied``
    recomputes it among the entrants still tied when it is reached (rows it never
    ranked report ``None``). ``decides_every_tie`` forces it to the end of an order,
    since nothing after a criterion that never ties could matter. ``always_shown``
    puts its column on the pages even when the order does not use it.
    """

    key: str
    label: str
    compute: Callable[[RankingContext, int], TiebreakValue]
    higher_is_better: bool = True
    among_tied: bool = False
    decides_every_tie: bool = False
    always_shown: bool = False


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the catalogue (``makemessages`` looks for this name) without
    translating it: the maths stays free of Django, and the pages translate labels."""
    return message


def _opponent_points(context: RankingContext, e: int) -> list[int]:
    return [context.tallies[o].mp for o, _, _ in context.tallies[e].opponents]


def _target_share(context: RankingContext, e: int) -> TiebreakValue:
    tally = context.tallies[e]
    if not tally.tables:
        return 0
    share = sum(
        (Fraction(n, 2 * target) for target, n in tally.share_by_target.items()), Fraction()
    )
    return share / tally.tables


def _head_to_head(context: RankingContext, e: int) -> TiebreakValue:
    return context.points(sum(p for o, _, p in context.tallies[e].opponents if o in context.tied))


def _median_buchholz(context: RankingContext, e: int) -> TiebreakValue:
    scores = _opponent_points(context, e)
    total = sum(scores)
    if len(scores) > 2:
        total -= max(scores) + min(scores)
    return context.points(total)


def _sonneborn_berger(context: RankingContext, e: int) -> TiebreakValue:
    # Each opponent's match points times the result against them (x2: 2 win, 1 tie).
    weighted = sum(r * context.tallies[o].mp for o, r, _ in context.tallies[e].opponents)
    return Fraction(weighted, 2 * context.denominator)


def _table_mates_strength(context: RankingContext, e: int) -> TiebreakValue:
    # Partners count too: in rotating-partner play they are table-mates as well.
    mates = _opponent_points(context, e) + [
        context.tallies[p].mp for p in context.tallies[e].partners
    ]
    return Fraction(sum(mates), len(mates) * context.denominator) if mates else 0


#: Every tiebreak an order may name, by key, in the order the pages list their columns.
TIEBREAKS: Final[dict[str, TiebreakSpec]] = {}


def tiebreak_register(spec: TiebreakSpec) -> str:
    """Add ``spec`` to ``TIEBREAKS`` and return its key (a key can be taken only once)."""
    if spec.key in TIEBREAKS:
        raise StandingsError("tiebreak_taken", f"the tiebreak {spec.key!r} exists already")
    TIEBREAKS[spec.key] = spec
    return spec.key


class Tiebreak(enum.StrEnum):
    """The built-in tiebreaks, each registered where it is named; a member is its key.
    Tiebreaks registered elsewhere are keys of ``TIEBREAKS`` without a member here."""

    MATCH_POINTS = tiebreak_register(
        TiebreakSpec(
            "match_points",
            gettext_noop("Match points"),
            lambda c, e: c.points(c.tallies[e].mp),
        )
    )
    WINS = tiebreak_register(
        TiebreakSpec("wins", gettext_noop("Wins"), lambda c, e: c.tallies[e].wins)
    )
    POINTS_SCORED = tiebreak_register(
        TiebreakSpec(
            "points_scored",
            gettext_noop("Points scored"),
            lambda c, e: Fraction(c.tallies[e].scored_x2, 2),
            always_shown=True,
        )
    )
    # At three-player tables the difference is against the best other side.
    POINTS_DIFFERENCE = tiebreak_register(
        TiebreakSpec(
            "points_difference",
            gettext_noop("Points difference"),
            lambda c, e: Fraction(c.tallies[e].diff_x2, 2),
            always_shown=True,
        )
    )
    TARGET_SHARE = tiebreak_register(
        TiebreakSpec("target_share", gettext_noop("Target share"), _target_share, always_shown=True)
    )
    HEAD_TO_HEAD = tiebreak_register(
        TiebreakSpec("head_to_head", gettext_noop("Head-to-head"), _head_to_head, among_tied=True)
    )
    BUCHHOLZ = tiebreak_register(
        TiebreakSpec(
            "buchholz",
            gettext_noop("Buchholz"),
            lambda c, e: c.points(sum(_opponent_points(c, e))),
        )
    )
    MEDIAN_BUCHHOLZ = tiebreak_register(
        TiebreakSpec("median_buchholz", gettext_noop("Median-Buchholz"), _median_buchholz)
    )
    SONNEBORN_BERGER = tiebreak_register(
        TiebreakSpec("sonneborn_berger", gettext_noop("Sonneborn-Berger"), _sonneborn_berger)
    )
    TABLE_MATES_STRENGTH = tiebreak_register(
        TiebreakSpec(
            "table_mates_strength",
            gettext_noop("Strength of table-mates"),
            _table_mates_strength,
        )
    )
    HANDS_WON = tiebreak_register(
        TiebreakSpec("hands_won", gettext_noop("Hands won"), lambda c, e: c.tallies[e].hands_won)
    )
    LOT = tiebreak_register(
        TiebreakSpec(
            "lot",
            gettext_noop("Lot"),
            lambda c, e: lot_draw(seed=c.lot_seed, entrant_id=e),
            decides_every_tie=True,
        )
    )


DEFAULT_TIEBREAKS: Final[tuple[str, ...]] = (
    Tiebreak.MATCH_POINTS,
    Tiebreak.WINS,
    Tiebreak.TARGET_SHARE,
    Tiebreak.POINTS_DIFFERENCE,
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.BUCHHOLZ,
    Tiebreak.HANDS_WON,
    Tiebreak.LOT,
)


@dataclass(frozen=True, slots=True)
class TiebreakValues:
    """Every registered tiebreak's exact value for one entrant, by key (``None`` for an
    ``among_tied`` one that never ranked it). ``values.buchholz`` reads one value, and
    ``values.points_scored_x2`` a points value in half-points, the records' unit."""

    by_key: Mapping[str, TiebreakValue | None]

    def value(self, tiebreak: str) -> Fraction | None:
        """The value the ranking compares for ``tiebreak``."""
        found = self.by_key[tiebreak]
        return None if found is None else Fraction(found)

    def __getattr__(self, name: str) -> TiebreakValue | None:
        if not name.startswith("_"):
            if name in self.by_key:
                return self.by_key[name]
            if name.endswith("_x2") and name[:-3] in self.by_key:
                found = self.by_key[name[:-3]]
                return None if found is None else int(found * 2)
        raise AttributeError(name)


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


def format_value(value: Fraction | None, places: int = 4) -> str:
    """A value for people: exact when it terminates within ``places`` decimals.

    >>> format_value(Fraction(15, 2)), format_value(Fraction(4)), format_value(Fraction(2, 3))
    ('7.5', '4', '0.6667')
    """
    if value is None:
        return ""
    text = f"{to_decimal(value, places):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def to_decimal(value: Fraction, places: int = 4) -> Decimal:
    """``value`` rounded half-even to ``places`` decimals (for storage and display)."""
    quantum = Decimal(1).scaleb(-places)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        quantum, rounding=ROUND_HALF_EVEN
    )


def lot_draw(*, seed: str, entrant_id: int) -> int:
    """The entrant's lot number: a stable 48-bit draw from the seed (the higher ranks first).

    >>> lot_draw(seed="s", entrant_id=1) == lot_draw(seed="s", entrant_id=1)
    True
    """
    digest = hashlib.sha256(f"{seed}\x00{entrant_id}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def validate_tiebreaks(tiebreaks: Sequence[str]) -> tuple[str, ...]:
    """The order as registered keys: known names, no repeats, and a tiebreak that
    decides every tie (``lot``) only last."""
    order = tuple(str(name) for name in tiebreaks)
    for name in order:
        if name not in TIEBREAKS:
            raise StandingsError("tiebreak_unknown", f"{name!r} is not a tiebreak", tiebreak=name)
    if len(set(order)) != len(order):
        raise StandingsError("tiebreak_repeated", "a tiebreak appears twice in the order")
    for name in order[:-1]:
        if TIEBREAKS[name].decides_every_tie:
            # The code predates other such tiebreaks; callers match on it.
            raise StandingsError(
                "lot_not_last", f"{name} decides every tie, so it must come last", tiebreak=name
            )
    return order


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
            entry.scored_x2 += own
            # At three-player tables the difference is against the best other side.
            entry.diff_x2 += own - best_other
            entry.share_by_target[table.target] = entry.share_by_target.get(table.target, 0) + min(
                own, cap
            )
            entry.hands_won += side.hands_won
            entry.opponents.extend(opponents)
            if len(side.entrant_ids) > 1:
                entry.partners.extend(e for e in side.entrant_ids if e != entrant_id)


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
