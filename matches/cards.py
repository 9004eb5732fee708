"""The table card: a printed scoresheet for one table, as a PDF (WeasyPrint).

Scorekeepers who write on paper get the tournament, round and table, who sits in
which seat (partners opposite at four players), the target, and a grid with a row
per hand and, for each side, room for the tally strokes (docs/rules.md R23: a stroke is
5, fifty is a large X with a small x in each of its four spaces), the end-of-hand
points and the running total, then a line for each side to sign. The card is in
the active language, with each side's chance of winning from the ratings.
"""

from __future__ import annotations

import logging

from django.template.loader import render_to_string

from league.selectors_public import TableLine
from ratings.selectors import table_win_probabilities

# WeasyPrint reports every layout step at INFO; only its warnings belong in our logs.
logging.getLogger("weasyprint").setLevel(logging.WARNING)

#: Rows printed for hands: a match to 250 rarely takes more.
CARD_HAND_ROWS = 16


def table_card_html(*, line: TableLine) -> str:
    """The card as HTML (what WeasyPrint lays out)."""
    table = line.table
    chances = table_win_probabilities(table_id=table.pk)
    return render_to_string(
        "matches/print/table_card.html",
        {
            "line": line,
            "table": table,
            "round": table.round,
            "tournament": table.round.tournament,
            "hand_rows": range(1, CARD_HAND_ROWS + 1),
            # Each side's chance of winning from the ratings, in side order.
            "chances": [100 * chances[s.side] for s in line.sides if s.side in chances],
        },
    )


def table_card_pdf(*, line: TableLine, base_url: str) -> bytes:
    """The card as PDF bytes."""
    # Imported here: WeasyPrint loads Pango and takes a moment; only this view needs it.
    from weasyprint import HTML

    pdf = HTML(string=table_card_html(line=line), base_url=base_url).write_pdf()
    return bytes(pdf)  # write_pdf returns the bytes when given no target
