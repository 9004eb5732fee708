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

from standings.maths.ranking import Ranking, Separation, StandingRow, compute_standings
from standings.maths.records import (
    DEFAULT_SCORING,
    Bye,
    ScoringConfig,
    SideResult,
    StandingsError,
    TableRecord,
    Withdrawal,
)
from standings.maths.tiebreaks import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    RankingContext,
    Tally,
    Tiebreak,
    TiebreakSpec,
    TiebreakValue,
    TiebreakValues,
    format_value,
    gettext_noop,
    lot_draw,
    tiebreak_register,
    to_decimal,
    validate_tiebreaks,
)

__all__ = [
    "DEFAULT_SCORING",
    "DEFAULT_TIEBREAKS",
    "TIEBREAKS",
    "Bye",
    "Ranking",
    "RankingContext",
    "ScoringConfig",
    "Separation",
    "SideResult",
    "StandingRow",
    "StandingsError",
    "TableRecord",
    "Tally",
    "Tiebreak",
    "TiebreakSpec",
    "TiebreakValue",
    "TiebreakValues",
    "Withdrawal",
    "compute_standings",
    "format_value",
    "gettext_noop",
    "lot_draw",
    "tiebreak_register",
    "to_decimal",
    "validate_tiebreaks",
]
