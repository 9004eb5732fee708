"""Standings maths: ranks entrants from table results, with no database and no Django.

Vocabulary. An *entrant* is what a standings table ranks: a fixed partnership's
entry, or, in rotating-partner formats, one player's entry. A *table record* is
one match at one table in one round (RULES.md R22: hands until a side reaches its
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

Ranking: entrants are split by the organiser's tiebreaks in order, higher value
first; ``head_to_head`` is recomputed among the entrants still tied when it is
reached. Entrants equal on every tiebreak share a rank (1, 2, 2, 4). For every two
adjacent rows a ``Separation`` says which tiebreak put one above the other, with
both values, or that they share the rank.

Everything is exact: match points are scaled to integers internally and reported
as ``Fraction``; nothing is ever a float.
"""

from __future__ import annotations

import enum
import hashlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Final, Literal, NoReturn

from allfives import outcome


class Tiebreak(enum.StrEnum):
    """A ranking criterion; for every one of them the higher value ranks first."""

    MATCH_POINTS = "match_points"
    WINS = "wins"
    POINTS_DIFFERENCE = "points_difference"
    POINTS_SCORED = "points_scored"
    TARGET_SHARE = "target_share"
    HEAD_TO_HEAD = "head_to_head"
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    TABLE_MATES_STRENGTH = "table_mates_strength"
    HANDS_WON = "hands_won"
    LOT = "lot"


DEFAULT_TIEBREAKS: Final[tuple[Tiebreak, ...]] = (
    Tiebreak.MATCH_POINTS,
    Tiebreak.WINS,
    Tiebreak.TARGET_SHARE,
    Tiebreak.POINTS_DIFFERENCE,
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.BUCHHOLZ,
    Tiebreak.HANDS_WON,
    Tiebreak.LOT,
)


class StandingsError(ValueError):
    """A record or configuration the maths cannot rank; ``code`` is stable for callers."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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


@dataclass(frozen=True, slots=True)
class TiebreakValues:
    """Every tiebreak's value for one entrant (``head_to_head`` only where it was used)."""

    match_points: Fraction
    wins: int
    points_difference_x2: int
    points_scored_x2: int
    target_share: Fraction
    head_to_head: Fraction | None
    buchholz: Fraction
    median_buchholz: Fraction
    sonneborn_berger: Fraction
    table_mates_strength: Fraction
    hands_won: int
    lot: int

    def value(self, tiebreak: Tiebreak) -> Fraction | None:
        """The value the ranking compares for ``tiebreak`` (points in whole points)."""
        match tiebreak:
            case Tiebreak.POINTS_DIFFERENCE:
                return Fraction(self.points_difference_x2, 2)
            case Tiebreak.POINTS_SCORED:
                return Fraction(self.points_scored_x2, 2)
            case Tiebreak.HEAD_TO_HEAD:
                return self.head_to_head
            case _:
                return Fraction(getattr(self, tiebreak.value))


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One ranked entrant with its record and all tiebreak values."""

    rank: int
    entrant_id: int
    values: TiebreakValues
    tables_played: int
    wins: int
    ties: int
    losses: int
    byes_count: int
    withdrawn_round: int | None
    in_progress_table_ids: tuple[int, ...]

    @property
    def match_points(self) -> Fraction:
        return self.values.match_points

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
    tiebreak: Tiebreak | None = None
    upper_value: Fraction | None = None
    lower_value: Fraction | None = None

    @property
    def is_shared_rank(self) -> bool:
        return self.reason == "shared_rank"


@dataclass(frozen=True, slots=True)
class Standings:
    """Ranked rows, best first, and one ``Separation`` per adjacent pair of rows."""

    rows: tuple[StandingRow, ...]
    separations: tuple[Separation, ...]
    tiebreaks: tuple[Tiebreak, ...]

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


def validate_tiebreaks(tiebreaks: Sequence[Tiebreak | str]) -> tuple[Tiebreak, ...]:
    """The order as ``Tiebreak`` values: known names, no repeats, ``lot`` only last."""
    try:
        order = tuple(Tiebreak(name) for name in tiebreaks)
    except ValueError as error:
        raise StandingsError("tiebreak_unknown", str(error)) from None
    if len(set(order)) != len(order):
        raise StandingsError("tiebreak_repeated", "a tiebreak appears twice in the order")
    if Tiebreak.LOT in order[:-1]:
        raise StandingsError("lot_not_last", "lot decides every tie, so it must come last")
    return order


class _Tally:
    """Running totals for one entrant while the records are read."""

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
        d = self.denominator
        #: What a tiebreak's key is divided by to give its value (1 when not listed).
        self.key_scale = {
            Tiebreak.MATCH_POINTS: d,
            Tiebreak.POINTS_DIFFERENCE: 2,
            Tiebreak.POINTS_SCORED: 2,
            Tiebreak.HEAD_TO_HEAD: d,
            Tiebreak.BUCHHOLZ: d,
            Tiebreak.MEDIAN_BUCHHOLZ: d,
            Tiebreak.SONNEBORN_BERGER: 2 * d,
            Tiebreak.TABLE_MATES_STRENGTH: d,
        }


def compute_standings(
    *,
    tables: Iterable[TableRecord],
    byes: Iterable[Bye] = (),
    withdrawals: Iterable[Withdrawal] = (),
    entrant_ids: Iterable[int] = (),
    scoring: ScoringConfig = DEFAULT_SCORING,
    tiebreaks: Sequence[Tiebreak | str] = DEFAULT_TIEBREAKS,
    lot_seed: str = "",
    withdrawn_last: bool = False,
) -> Standings:
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
    tallies: dict[int, _Tally] = {entrant_id: _Tally() for entrant_id in entrant_ids}

    def tally(entrant_id: int) -> _Tally:
        found = tallies.get(entrant_id)
        if found is None:
            found = tallies[entrant_id] = _Tally()
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

    keys = _tiebreak_keys(tallies, scale, lot_seed)
    head_to_head: dict[int, Fraction] = {}
    ranker = _Ranker(order, keys, tallies, scale, head_to_head)
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
                    values=_row_values(keys, scale, entrant_id, head_to_head.get(entrant_id)),
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
    return Standings(rows=tuple(rows), separations=tuple(separations), tiebreaks=order)


def _credit_table(table: TableRecord, scale: _Points, tally: Callable[[int], _Tally]) -> None:
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


type _Key = int | Fraction


def _tiebreak_keys(
    tallies: dict[int, _Tally], scale: _Scale, lot_seed: str
) -> dict[Tiebreak, dict[int, _Key]]:
    """Every global tiebreak (all but head-to-head) for every entrant, exact and cheap to
    compare: integers on a per-tiebreak scale (``_Scale.key_scale``) where they can be."""
    mp = {e: t.mp for e, t in tallies.items()}
    keys: dict[Tiebreak, dict[int, _Key]] = {tb: {} for tb in Tiebreak}
    for e, t in tallies.items():
        opponent_scores = [mp[o] for o, _, _ in t.opponents]
        buchholz = sum(opponent_scores)
        median = buchholz
        if len(opponent_scores) > 2:
            median -= max(opponent_scores) + min(opponent_scores)
        mates = len(opponent_scores) + len(t.partners)
        share = sum(
            (Fraction(n, 2 * target) for target, n in t.share_by_target.items()), Fraction()
        )
        keys[Tiebreak.MATCH_POINTS][e] = t.mp
        keys[Tiebreak.WINS][e] = t.wins
        keys[Tiebreak.POINTS_DIFFERENCE][e] = t.diff_x2
        keys[Tiebreak.POINTS_SCORED][e] = t.scored_x2
        keys[Tiebreak.TARGET_SHARE][e] = share / t.tables if t.tables else 0
        keys[Tiebreak.BUCHHOLZ][e] = buchholz
        keys[Tiebreak.MEDIAN_BUCHHOLZ][e] = median
        keys[Tiebreak.SONNEBORN_BERGER][e] = sum(r * mp[o] for o, r, _ in t.opponents)
        keys[Tiebreak.TABLE_MATES_STRENGTH][e] = (
            Fraction(buchholz + sum(mp[p] for p in t.partners), mates) if mates else 0
        )
        keys[Tiebreak.HANDS_WON][e] = t.hands_won
        keys[Tiebreak.LOT][e] = lot_draw(seed=lot_seed, entrant_id=e)
    return keys


def _row_values(
    keys: dict[Tiebreak, dict[int, _Key]], scale: _Scale, e: int, head_to_head: Fraction | None
) -> TiebreakValues:
    def exact(tiebreak: Tiebreak) -> Fraction:
        return Fraction(keys[tiebreak][e], scale.key_scale.get(tiebreak, 1))

    return TiebreakValues(
        match_points=exact(Tiebreak.MATCH_POINTS),
        wins=int(keys[Tiebreak.WINS][e]),
        points_difference_x2=int(keys[Tiebreak.POINTS_DIFFERENCE][e]),
        points_scored_x2=int(keys[Tiebreak.POINTS_SCORED][e]),
        target_share=exact(Tiebreak.TARGET_SHARE),
        head_to_head=head_to_head,
        buchholz=exact(Tiebreak.BUCHHOLZ),
        median_buchholz=exact(Tiebreak.MEDIAN_BUCHHOLZ),
        sonneborn_berger=exact(Tiebreak.SONNEBORN_BERGER),
        table_mates_strength=exact(Tiebreak.TABLE_MATES_STRENGTH),
        hands_won=int(keys[Tiebreak.HANDS_WON][e]),
        lot=int(keys[Tiebreak.LOT][e]),
    )


class _Ranker:
    """Splits groups of entrants tiebreak by tiebreak and remembers what split each pair."""

    def __init__(
        self,
        order: tuple[Tiebreak, ...],
        keys: dict[Tiebreak, dict[int, _Key]],
        tallies: dict[int, _Tally],
        scale: _Scale,
        head_to_head: dict[int, Fraction],
    ) -> None:
        self.order = order
        self.keys = keys
        self.tallies = tallies
        self.scale = scale
        self.head_to_head = head_to_head
        self.boundaries: dict[tuple[int, int], Tiebreak] = {}

    def value(self, tiebreak: Tiebreak, entrant_id: int) -> Fraction:
        """The exact value ``tiebreak`` compared for an entrant."""
        if tiebreak is Tiebreak.HEAD_TO_HEAD:
            return self.head_to_head[entrant_id]
        return Fraction(self.keys[tiebreak][entrant_id], self.scale.key_scale.get(tiebreak, 1))

    def rank(self, group: list[int]) -> list[list[int]]:
        """``group`` as blocks of entrants sharing a rank, best block first."""
        return self._split(sorted(group), 0) if group else []

    def _split(self, group: list[int], level: int) -> list[list[int]]:
        if len(group) == 1:
            return [group]
        if level == len(self.order):
            return [group]  # tied on everything: one shared rank, listed by entrant id
        tiebreak = self.order[level]
        if tiebreak is Tiebreak.HEAD_TO_HEAD:
            keys = self._head_to_head(group)
        else:
            keys = self.keys[tiebreak]
        ordered = sorted(group, key=keys.__getitem__, reverse=True)  # stable: ids stay sorted
        blocks: list[list[int]] = []
        start = 0
        for end in range(1, len(ordered) + 1):
            if end == len(ordered) or keys[ordered[end]] != keys[ordered[start]]:
                sub_blocks = self._split(ordered[start:end], level + 1)
                if blocks:
                    self.boundaries[(blocks[-1][-1], sub_blocks[0][0])] = tiebreak
                blocks.extend(sub_blocks)
                start = end
        return blocks

    def _head_to_head(self, group: list[int]) -> dict[int, _Key]:
        """Match points each member took from the others in ``group`` (pairwise results),
        scaled like match points; the exact values are kept for the rows."""
        members = set(group)
        scaled: dict[int, _Key] = {}
        for e in group:
            scaled[e] = sum(p for o, _, p in self.tallies[e].opponents if o in members)
            self.head_to_head[e] = Fraction(scaled[e], self.scale.denominator)
        return scaled
