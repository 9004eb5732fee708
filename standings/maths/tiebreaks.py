"""The tiebreak registry: a ``TiebreakSpec`` per criterion (key, label, computation,
direction) in ``TIEBREAKS``, the built-in ones (``Tiebreak``), the running ``Tally`` they
are computed from, the validation of an order, and the exact formatting of values.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Final

from standings.maths.records import StandingsError


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
