"""How stored standings rows read for people and programs: tiebreak and column names,
numbers (exact and short: 7.5, never 7.5000), a row's status, and the "why am I
here?" sentence; translated (Indonesian and English) and shared by the pages, the
CSV export and the API."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext

from standings.maths import TIEBREAKS
from standings.models import StandingsRow

#: The record's columns, shown first on every table (match points and wins are
#: tiebreaks too, but belong to the record whatever the order).
RECORD_COLUMNS = ("match_points", "played", "wins", "ties", "losses", "byes")


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


def separation_text(
    *, separation: dict[str, Any], upper: str, lower: str, separator: str = "."
) -> str:
    """One sentence saying why ``upper`` is listed just above ``lower`` (the values with
    ``separator`` for decimals)."""
    reason = separation.get("reason")
    if reason == "shared_rank":
        text = gettext("%(upper)s and %(lower)s are equal on every tiebreak and share the rank.")
        return text % {"upper": upper, "lower": lower}
    if reason == "withdrawal":
        return gettext("%(lower)s withdrew and is listed after those still playing.") % {
            "lower": lower
        }
    if reason == "tiebreak":
        return gettext(
            "%(upper)s is above %(lower)s on %(tiebreak)s: %(upper_value)s against %(lower_value)s."
        ) % {
            "upper": upper,
            "lower": lower,
            "tiebreak": tiebreak_label(separation.get("tiebreak")),
            "upper_value": separation.get("upper", "").replace(".", separator),
            "lower_value": separation.get("lower", "").replace(".", separator),
        }
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


def row_values(row: StandingsRow, separator: str = ".") -> dict[str, str]:
    """Every numeric column of a row, formatted, by column key: the record's, and every
    registered tiebreak's (empty where the row has no value for it)."""
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
    return {key: format_number(value, separator) for key, value in raw.items()}


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
