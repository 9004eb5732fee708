"""Checking a drafted round: what is wrong with a (possibly hand-edited) draft.

``round_draft_validate`` reads the draft's tables and byes, runs the pure
``validate_draft`` against the round's field (``pairing.selectors.pairing_field``) and
turns each warning into a :class:`DraftProblem` for people: translated, with names and
the table number. ``round_draft_blocking_problems`` keeps the ones that make a round
unplayable; ``pairing.apps`` registers it as a league publish check.
``round_pairable_check`` says whether a round may be paired (again) at all.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from league.hooks import round_tables_with_play
from league.models import Entry, Round, Seat, Table
from pairing.algorithms.quality import DraftWarning, validate_draft
from pairing.selectors import pairing_field


@dataclass(frozen=True, slots=True)
class DraftProblem:
    """One warning about a draft, ready for people: translated, with names and the table."""

    code: str
    message: str
    entry_ids: tuple[int, ...]
    table_number: int | None
    is_blocking: bool


def round_pairable_check(*, round: Round) -> None:
    """Refuse to pair a round that is no longer a draft (its tables are played on), or
    whose tables have hands recorded (re-pairing would delete them), or that a knockout
    bracket seats (its winners advance to it)."""
    if round.is_knockout:
        raise ValidationError(
            _("This is a knockout round: its tables come from the bracket, not the pairing."),
            code="knockout_round",
        )
    if round.status != Round.Status.DRAFT:
        raise ValidationError(
            _("Only a draft round can be paired; this round is %(status)s.")
            % {"status": round.get_status_display()},
            code="not_draft",
        )
    recorded = round_tables_with_play(round=round)
    if recorded:
        # Pairing afresh deletes the round's tables, and with them their matches.
        raise ValidationError(
            _(
                "This round cannot be paired again: hands are recorded at table %(tables)s. "
                "Void those matches first (Matches, action “Void the selected matches”); "
                "their hands stay in the history."
            )
            % {"tables": ", ".join(str(n) for n in recorded)},
            code="hands_recorded",
        )


def round_pair_refusal(*, round: Round) -> str | None:
    """Why ``round`` cannot be paired (again) now, in the words of
    :func:`round_pairable_check`, or None when it can: the admin and the desk offer their
    pair button only then, so no button asks for what the check refuses."""
    try:
        round_pairable_check(round=round)
    except ValidationError as exc:
        return " ".join(exc.messages)
    return None


def _drafted_tables(round: Round) -> tuple[list[list[int]], list[int]]:
    """The round's tables as entry ids in seat order (a partnership once), and table numbers."""
    seats: dict[int, list[tuple[int, int, bool]]] = defaultdict(list)
    numbers: dict[int, int] = {}
    for table_id, table_number, number, entry_id, partnership_id in Seat.objects.filter(
        table__round=round
    ).values_list("table_id", "table__number", "number", "entry_id", "entry__partnership_id"):
        seats[table_id].append((number, entry_id, partnership_id is not None))
        numbers[table_id] = table_number
    for table_id, table_number in Table.objects.filter(round=round).values_list("id", "number"):
        numbers.setdefault(table_id, table_number)
        seats.setdefault(table_id, [])
    order = sorted(numbers, key=lambda t: numbers[t])
    tables: list[list[int]] = []
    for table_id in order:
        ids: list[int] = []
        for _number, entry_id, is_partnership in sorted(seats[table_id]):
            if not (is_partnership and entry_id in ids):
                ids.append(entry_id)
        tables.append(ids)
    return tables, [numbers[t] for t in order]


def _problem_message(warning: DraftWarning, names: dict[int, str], table: int | None) -> str:
    ids = warning.entrant_ids
    who = names.get(ids[0], "?") if ids else ""
    other = names.get(ids[1], "?") if len(ids) > 1 else ""
    match warning.code:
        case "player_twice":
            return _("%(who)s appears more than once in this round.") % {"who": who}
        case "unknown_entrant":
            return _(
                "%(who)s is not active in this tournament (withdrawn, not checked in, "
                "or entered elsewhere)."
            ) % {"who": who}
        case "unseated":
            return _("%(who)s has neither a seat nor a bye.") % {"who": who}
        case "bye_repeat":
            return _("%(who)s has already had a bye.") % {"who": who}
        case "table_size":
            return _("Table %(table)s seats %(n)d entrants.") % {"table": table, "n": len(ids)}
        case "rematch":
            return _("Table %(table)s: %(a)s and %(b)s have met before.") % {
                "table": table,
                "a": who,
                "b": other,
            }
        case "partner_repeat":
            return _("Table %(table)s: %(a)s and %(b)s have been partners before.") % {
                "table": table,
                "a": who,
                "b": other,
            }
    return warning.message


def round_draft_validate(*, round: Round) -> list[DraftProblem]:
    """The warnings for a (hand-edited) draft: an entrant twice, tables of the wrong size,
    inactive or unseated entrants, repeated byes, rematches and partner repeats."""
    round = Round.objects.select_related("tournament").get(pk=round.pk)
    read = pairing_field(round=round)
    tables, numbers = _drafted_tables(round)
    byes = list(round.byes.values_list("pk", flat=True))
    smallest, largest = read.field.table_bounds
    warnings = validate_draft(
        tables,
        byes,
        entrants=read.entrants,
        history=read.history,
        smallest=smallest,
        largest=largest,
    )
    ids = {i for w in warnings for i in w.entrant_ids}
    names = {e.pk: e.display_name for e in read.entries.values()}
    missing = ids - set(names)
    if missing:
        names.update(
            (e.pk, e.display_name)
            for e in Entry.objects.filter(pk__in=missing).select_related("player", "partnership")
        )
    problems = []
    for w in warnings:
        table = numbers[w.table_index] if w.table_index is not None else None
        problems.append(
            DraftProblem(
                code=w.code,
                message=_problem_message(w, names, table),
                entry_ids=tuple(w.entrant_ids),
                table_number=table,
                is_blocking=w.is_blocking,
            )
        )
    return problems


def round_draft_blocking_problems(round: Round) -> list[str]:
    """What makes a drafted round unplayable (an entrant twice, a table of the wrong size):
    the ``league.hooks`` publish check. Rematches and partner repeats are only warnings."""
    return [p.message for p in round_draft_validate(round=round) if p.is_blocking]
