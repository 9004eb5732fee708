"""How points read for people, on every page and printed sheet: a half point is
written ``½`` (``17½``, ``½``, ``-3½``), as scorers write it on the sheet and the
scoring page shows it, in every language. Values that are not whole or half points
(a target share, an average) keep the language's decimal form (``0,875`` / ``0.875``).

Programs get plain numbers instead (the API's JSON and the CSV's number columns);
only text meant to be read goes through here. The template filters are in
``league/templatetags/points.py``.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format

HALF = "½"
#: Places kept for a value that does not terminate (2/3 → 0.6667), as standings store them.
PLACES = Decimal("0.0001")

type Number = Decimal | Fraction | int


def points_text(points_x2: int) -> str:
    """Half-points as people write them: 30 → "15", 35 → "17½", 1 → "½", -7 → "-3½"."""
    sign = "-" if points_x2 < 0 else ""
    whole, half = divmod(abs(int(points_x2)), 2)
    if not half:
        return f"{sign}{whole}"
    return f"{sign}{whole}{HALF}" if whole else f"{sign}{HALF}"


def number_text(value: Number | str | None, separator: str | None = None) -> str:
    """A number of points for people: whole and half points as ``points_text`` writes
    them, any other value exact and short with the language's decimal separator (or
    ``separator``): 17.5 → "17½", 4 → "4", 0.875 → "0,875" in Indonesian."""
    if value is None or value == "":
        return ""
    exact = Fraction(Decimal(value) if isinstance(value, str) else value)
    doubled = exact * 2
    if doubled.denominator == 1:
        return points_text(int(doubled))
    decimal = (
        value
        if isinstance(value, Decimal)
        else (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(PLACES)
    )
    text = f"{decimal:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if separator is not None:
        return text.replace(".", separator)
    return str(number_format(Decimal(text), use_l10n=True))
