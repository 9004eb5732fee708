"""How stored standings rows read for people and programs: tiebreak and column names,
numbers (exact and short: 7.5, never 7.5000; for people, points with a half as 7½,
as ``league.points`` writes them), the lot as a small draw number, a row's status,
and the "why am I here?" sentence; translated (Indonesian and English) and shared by
the pages, the CSV export and the API.

The *draw number* stands for the lot: the stored lot values (stable 48-bit draws from
the tournament's seed) are numbered 1 to N over the whole field, the highest lot
first, so the entrant with the smaller draw number is placed higher when the lot
decides a tie. The API keeps the stored lot itself, a plain number.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext, ngettext

from league.points import number_text
from standings.maths import TIEBREAKS
from standings.models import StandingsRow
from standings.selectors import RoundProgress, StandingsProgress

#: The record's columns, shown first on every table (match points and wins are
#: tiebreaks too, but belong to the record whatever the order).
RECORD_COLUMNS = ("match_points", "played", "wins", "ties", "losses", "byes")

#: Columns counted in points (game points or match points): for people a half point
#: reads as ½ there. Ratios and averages (target share, table-mates' strength) keep
#: their decimals.
POINTS_COLUMNS = frozenset(
    {
        "match_points",
        "points_scored",
        "points_difference",
        "head_to_head",
        "buchholz",
        "median_buchholz",
        "sonneborn_berger",
    }
)

LOT = "lot"

#: Draw numbers by stored lot value (``draw_numbers``).
type Draws = dict[str, int]


def tiebreak_label(name: str | None) -> str:
    """The translated name of a tiebreak (the raw name if it is unknown)."""
    if name is None:
        return ""
    spec = TIEBREAKS.get(name)
    return name if spec is None else gettext(spec.label)


def table_columns(tiebreaks: Iterable[str]) -> list[str]:
    """The value columns of a table ranked by ``tiebreaks``: the record's, then every
    tiebreak always shown or used, in the registry's order."""
    used = set(tiebreaks)
    return [
        *RECORD_COLUMNS,
        *(
            key
            for key, spec in TIEBREAKS.items()
            if (spec.always_shown or key in used) and key not in RECORD_COLUMNS
        ),
    ]


def draw_numbers(rows: Iterable[StandingsRow]) -> Draws:
    """Each stored lot value of ``rows`` (the whole field) numbered 1..N, the highest
    lot (which ranks first) as 1."""
    lots = {row.tiebreak_values.get(LOT) for row in rows} - {None}
    ordered = sorted(lots, key=Decimal, reverse=True)
    return {format_number(Decimal(lot)): n for n, lot in enumerate(ordered, start=1)}


def value_text(
    key: str | None,
    value: str | Decimal | int | None,
    *,
    separator: str = ".",
    draws: Draws | None = None,
    for_people: bool = False,
) -> str:
    """One column's value: the lot as its draw number (given ``draws``), points with
    a half as ½ ``for_people``, every other number exact and short with ``separator``."""
    if value is None or value == "":
        return ""
    if key == LOT and draws is not None:
        found = draws.get(format_number(Decimal(value)))
        if found is not None:
            return str(found)
    if for_people and key in POINTS_COLUMNS:
        return number_text(value, separator)
    number = Decimal(value) if isinstance(value, str) else value
    return format_number(number, separator)


def separation_text(
    *,
    separation: dict[str, Any],
    upper: str,
    lower: str,
    separator: str = ".",
    draws: Draws | None = None,
) -> str:
    """One sentence saying why ``upper`` is listed just above ``lower`` (the values with
    ``separator`` for decimals, points with ½, the lot as draw numbers given ``draws``)."""
    reason = separation.get("reason")
    if reason == "shared_rank":
        text = gettext("%(upper)s and %(lower)s are equal on every tiebreak and share the rank.")
        return text % {"upper": upper, "lower": lower}
    if reason == "withdrawal":
        return gettext("%(lower)s withdrew and is listed after those still playing.") % {
            "lower": lower
        }
    if reason == "tiebreak":
        tiebreak = separation.get("tiebreak")

        def text_of(side: str) -> str:
            return value_text(
                tiebreak,
                separation.get(side, ""),
                separator=separator,
                draws=draws,
                for_people=True,
            )

        values = {
            "upper": upper,
            "lower": lower,
            "tiebreak": tiebreak_label(tiebreak),
            "upper_value": text_of("upper"),
            "lower_value": text_of("lower"),
        }
        if tiebreak == LOT and draws is not None:
            return (
                gettext(
                    "%(upper)s and %(lower)s are equal on every other tiebreak, so the draw "
                    "decides: %(upper)s has draw number %(upper_value)s and %(lower)s "
                    "%(lower_value)s (everyone is numbered from 1 by a fixed drawing of lots, "
                    "and the smaller number goes first)."
                )
                % values
            )
        return (
            gettext(
                "%(upper)s is above %(lower)s on %(tiebreak)s: "
                "%(upper_value)s against %(lower_value)s."
            )
            % values
        )
    return ""


def column_labels() -> dict[str, str]:
    """Translated headings of every column (tiebreak columns share the tiebreaks' names)."""
    return {
        "rank": gettext("Rank"),
        "name": gettext("Name"),
        "played": gettext("Played"),
        "ties": gettext("Ties"),
        "losses": gettext("Losses"),
        "byes": gettext("Byes"),
        **{key: tiebreak_label(key) for key in TIEBREAKS},
    }


def format_number(value: Decimal | int | None, separator: str = ".") -> str:
    """Exact, short and with the given decimal separator: 2, 7,5, 0,875 (never 2.0000)."""
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    text = f"{value:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", separator)


def row_values(
    row: StandingsRow,
    separator: str = ".",
    *,
    draws: Draws | None = None,
    for_people: bool = False,
) -> dict[str, str]:
    """Every numeric column of a row, formatted, by column key: the record's, and every
    registered tiebreak's (empty where the row has no value for it); for people,
    points with ½, and the lot as its draw number given ``draws``."""
    raw: dict[str, Decimal | int | None] = {
        "match_points": row.match_points,
        "played": row.tables_played,
        "wins": row.wins,
        "ties": row.ties,
        "losses": row.losses,
        "byes": row.byes_count,
    }
    for key in TIEBREAKS:
        raw.setdefault(key, row.tiebreak_value(key))
    return {
        key: value_text(key, value, separator=separator, draws=draws, for_people=for_people)
        for key, value in raw.items()
    }


def row_status(row: StandingsRow) -> str:
    """Withdrawn (from which round) and tables in play, in words."""
    parts = []
    if row.is_withdrawn:
        parts.append(
            gettext("withdrew in round %(n)d") % {"n": row.withdrawn_round}
            if row.withdrawn_round
            else gettext("withdrawn")
        )
    if row.playing_tables:
        parts.append(
            gettext("playing at table %(tables)s")
            % {"tables": ", ".join(str(t) for t in row.playing_tables)}
        )
    return "; ".join(parts)


def progress_text(progress: StandingsProgress) -> tuple[bool, str]:
    """Whether the standings are final, and the sentence that says so: provisional
    while a table of a published round has no result (naming how many, of which
    round), final once every one has."""
    if not progress.rounds:
        return False, gettext("Provisional: no round has been published yet.")
    if progress.unfinished:
        parts = "; ".join(_round_unfinished(r) for r in progress.unfinished)
        return False, gettext("Provisional: %(rounds)s.") % {"rounds": parts}
    if progress.is_over:
        return True, gettext("Final: every table has finished.")
    if progress.rounds[0].tournament:
        return True, gettext("Final: every table of the published rounds has finished.")
    return True, gettext("Final after round %(round)d: every table has finished.") % {
        "round": progress.last_round
    }


def _round_unfinished(progress: RoundProgress) -> str:
    values = {
        "unfinished": progress.unfinished_count,
        "total": progress.tables_count,
        "round": progress.round_number,
        "tournament": progress.tournament,
    }
    if progress.tournament:
        return (
            ngettext(
                "%(unfinished)d of %(total)d table of round %(round)d of %(tournament)s "
                "not finished",
                "%(unfinished)d of %(total)d tables of round %(round)d of %(tournament)s "
                "not finished",
                progress.tables_count,
            )
            % values
        )
    return (
        ngettext(
            "%(unfinished)d of %(total)d table of round %(round)d not finished",
            "%(unfinished)d of %(total)d tables of round %(round)d not finished",
            progress.tables_count,
        )
        % values
    )
