"""CSV exports a spreadsheet cannot turn into formulas (CSV injection, as OWASP describes).

A player's name such as ``=HYPERLINK("http://…")`` or ``@SUM(…)`` is data here, but a
spreadsheet opening the export would run it. Every cell of every export goes through
`csv_cell`: text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
gets a leading ``'``, which spreadsheets read as "this is text" and do not show.
Plain numbers (``-12``, ``+3.5``) are left as they are so that exports stay
machine-readable; they cannot be formulas. The standings CSV writes with
`csv_writer`; the admin's django-import-export exports use `SafeCSV`
(``EXPORT_FORMATS``).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, Protocol

from import_export.formats.base_formats import CSV

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell that a spreadsheet shows as text, never runs.

    >>> csv_cell("=1+2"), csv_cell("@SUM(A1)"), csv_cell("-12"), csv_cell("Ani"), csv_cell(4)
    ("'=1+2", "'@SUM(A1)", '-12', 'Ani', 4)
    """
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    if NUMBER.fullmatch(value):
        return value
    return "'" + value


class _Writer(Protocol):
    def writerow(self, row: Iterable[Any], /) -> Any: ...


class SafeWriter:
    """A ``csv.writer`` whose every cell goes through `csv_cell`."""

    def __init__(self, writer: _Writer) -> None:
        self._writer = writer

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([csv_cell(cell) for cell in row])


def csv_writer(stream: Any) -> SafeWriter:
    """``csv.writer(stream)`` with formula cells neutralised."""
    return SafeWriter(csv.writer(stream))


class SafeCSV(CSV):
    """django-import-export's CSV export with formula cells neutralised."""

    def export_data(self, dataset: Any, **kwargs: Any) -> Any:
        if dataset.headers:
            dataset.headers = [csv_cell(header) for header in dataset.headers]
        rows = [[csv_cell(cell) for cell in row] for row in dataset]
        del dataset[:]
        for row in rows:
            dataset.append(row)
        return super().export_data(dataset, **kwargs)
