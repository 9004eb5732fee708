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
from collections.abc import Sequence
from dataclasses import dataclass

import segno
from django.template.loader import render_to_string

from league.models import Round, Table
from league.selectors_public import TableLine, table_lines_for
from matches.chances import whole_percents
from ratings.selectors import table_win_probabilities

# WeasyPrint reports every layout step at INFO; only its warnings belong in our logs.
logging.getLogger("weasyprint").setLevel(logging.WARNING)

#: Rows printed for hands: a match to 250 rarely takes more.
CARD_HAND_ROWS = 16
#: Fewer rows when the sides' QR codes take their place, so a card stays one page.
CARD_HAND_ROWS_WITH_LINKS = 11
#: Fewer still for three sides: three narrow link boxes wrap their text onto more lines.
CARD_HAND_ROWS_WITH_LINKS_THREE_SIDES = 10


def card_hand_rows(*, sides_count: int, has_links: bool) -> int:
    """How many hand rows a card prints so that it stays one page."""
    if not has_links:
        return CARD_HAND_ROWS
    return CARD_HAND_ROWS_WITH_LINKS_THREE_SIDES if sides_count > 2 else CARD_HAND_ROWS_WITH_LINKS


@dataclass(frozen=True, slots=True)
class CardLink:
    """One side's private scoring link, as its table card prints it."""

    label: str  # "table 3, side 1: Budi & Siti"
    url: str
    table_id: int

    @property
    def qr_svg(self) -> str:
        """The link as a QR code, an SVG data URI (quiet zone included)."""
        return str(segno.make(self.url, error="m").svg_data_uri(scale=4, border=4))


def table_card_html(*, line: TableLine, links: Sequence[CardLink] = ()) -> str:
    """The card as HTML (what WeasyPrint lays out), with the sides' links if given."""
    table = line.table
    found = table_win_probabilities(table_id=table.pk)
    chances = whole_percents([100 * found[s.side] for s in line.sides if s.side in found])
    return render_to_string(
        "matches/print/table_card.html",
        {
            "line": line,
            "table": table,
            "round": table.round,
            "tournament": table.round.tournament,
            "hand_rows": range(
                1, card_hand_rows(sides_count=len(line.sides), has_links=bool(links)) + 1
            ),
            # Each side's chance of winning from the ratings, in side order.
            "chances": chances,
            "links": list(links),
        },
    )


def table_card_pdf(*, line: TableLine, base_url: str) -> bytes:
    """The card as PDF bytes."""
    # Imported here: WeasyPrint loads Pango and takes a moment; only this view needs it.
    from weasyprint import HTML

    pdf = HTML(string=table_card_html(line=line), base_url=base_url).write_pdf()
    return bytes(pdf)  # write_pdf returns the bytes when given no target


def cards_pdf(*, lines: Sequence[TableLine], links: Sequence[CardLink], base_url: str) -> bytes:
    """These tables' cards in one PDF, one page each in the given order, each with its links."""
    from weasyprint import HTML

    documents = [
        HTML(
            string=table_card_html(
                line=line, links=[link for link in links if link.table_id == line.table.pk]
            ),
            base_url=base_url,
        ).render()
        for line in lines
    ]
    if not documents:
        return bytes(HTML(string="<p></p>", base_url=base_url).write_pdf())
    pages = [page for document in documents for page in document.pages]
    return bytes(documents[0].copy(pages).write_pdf())


def round_cards_pdf(*, round: Round, links: Sequence[CardLink], base_url: str) -> bytes:
    """Every table card of a round in one PDF, in table order, each with its links."""
    return cards_pdf(
        lines=table_lines_for(tables=round.tables.all()), links=links, base_url=base_url
    )


def table_card_with_links_pdf(*, table: Table, links: Sequence[CardLink], base_url: str) -> bytes:
    """One table's card with its sides' links (a lost card printed again), as PDF bytes."""
    lines = table_lines_for(tables=Table.objects.filter(pk=table.pk))
    return cards_pdf(lines=lines, links=links, base_url=base_url)
