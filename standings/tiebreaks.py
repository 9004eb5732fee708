"""Checking a tournament's tiebreak order for people: the ``league.hooks`` validator.

The maths (``standings.maths.validate_tiebreaks``) refuses a name not in its registry,
a repeat, or a tiebreak that decides every tie (``lot``) anywhere but last, with a
stable code; this turns that into a Django ``ValidationError`` in the user's language,
so that the API, the admin and the pages refuse the same orders with the same words;
and lists the tiebreaks by their names for people, for the forms that arrange the order.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from standings.display import tiebreak_label
from standings.maths import TIEBREAKS, StandingsError, validate_tiebreaks


def tiebreaks_validate(tiebreaks: Sequence[str]) -> list[str]:
    """The order as stored names, or ``ValidationError`` saying what is wrong with it."""
    try:
        return [str(t) for t in validate_tiebreaks(tiebreaks)]
    except StandingsError as error:
        known = ", ".join(f"{key} ({tiebreak_label(key)})" for key in TIEBREAKS)
        message = {
            "tiebreak_unknown": _("Unknown tiebreak. Choose from: %(known)s.") % {"known": known},
            "tiebreak_repeated": _("A tiebreak appears twice in the order."),
            "lot_not_last": _("%(tiebreak)s decides every tie, so it must come last.")
            % {"tiebreak": tiebreak_label(error.tiebreak)},
        }.get(error.code, str(error))
        raise ValidationError(message, code=error.code) from error


def tiebreak_choices_list() -> list[tuple[str, str]]:
    """Every tiebreak of the registry as (stored name, translated name), registry order."""
    return [(key, tiebreak_label(key)) for key in TIEBREAKS]
