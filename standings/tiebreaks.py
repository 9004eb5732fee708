"""Checking a tournament's tiebreak order for people: the ``league.hooks`` validator.

The maths (``standings.maths.validate_tiebreaks``) refuses an unknown name, a repeat or
``lot`` anywhere but last with a stable code; this turns that into a Django
``ValidationError`` in the user's language, so that the API, the admin and the pages
refuse the same orders with the same words.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from standings.display import tiebreak_label
from standings.maths import StandingsError, Tiebreak, validate_tiebreaks


def tiebreaks_validate(tiebreaks: Sequence[str]) -> list[str]:
    """The order as stored names, or ``ValidationError`` saying what is wrong with it."""
    try:
        return [str(t) for t in validate_tiebreaks(tiebreaks)]
    except StandingsError as error:
        known = ", ".join(f"{t.value} ({tiebreak_label(t.value)})" for t in Tiebreak)
        message = {
            "tiebreak_unknown": _("Unknown tiebreak. Choose from: %(known)s.") % {"known": known},
            "tiebreak_repeated": _("A tiebreak appears twice in the order."),
            "lot_not_last": _("Lot decides every tie, so it must come last."),
        }.get(error.code, str(error))
        raise ValidationError(message, code=error.code) from error
