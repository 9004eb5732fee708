"""The PDF table card: a paper scoresheet for one table of a published round."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from league.selectors_public import table_public
from matches.cards import CARD_HAND_ROWS, table_card_html
from tests.league.site.conftest import LeagueDay

pytestmark = pytest.mark.django_db


def test_table_card_is_a_one_page_pdf(client: Client, league_day: LeagueDay) -> None:
    response = client.get("/tournaments/piala-kelipatan/rounds/1/tables/2/card.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="piala-kelipatan-r1-t2.pdf"' in response["Content-Disposition"]
    assert response.content.startswith(b"%PDF-")


def test_table_card_of_three_players_fits_on_one_page(league_day: LeagueDay) -> None:
    from weasyprint import HTML

    line = table_public(slug="piala-kelipatan", number=1, table_number=2)
    assert line is not None
    assert len(HTML(string=table_card_html(line=line)).render().pages) == 1


def test_table_card_names_the_table_its_seats_and_target_with_a_row_per_hand(
    league_day: LeagueDay,
) -> None:
    line = table_public(slug="piala-kelipatan", number=1, table_number=2)
    assert line is not None
    with translation.override("en"):
        html = table_card_html(line=line)
    assert "Piala Kelipatan" in html and "Round 1 · table 2" in html
    assert "Target 200" in html
    assert "Seat 1: Citra" in html and "Seat 2: Dedi" in html and "Seat 3: Eka" in html
    assert html.count('<th class="hand">') == CARD_HAND_ROWS
    assert "50 points is a large X with a small x in each of its four spaces" in html
    assert html.count("Signature, side") == 3
    # No one is rated yet: three equal chances from the initial ratings, shown so that
    # they add up to 100 (the first side takes the point left over).
    chances = re.findall(r"Chance of winning \(ratings\): (\d+) %", html)
    assert chances == ["34", "33", "33"]


def test_table_card_of_four_players_shows_partners_opposite(league_day: LeagueDay) -> None:
    line = table_public(slug="pasangan-tetap", number=1, table_number=1)
    assert line is not None
    with translation.override("en"):
        html = table_card_html(line=line)
    assert "Seat 1: Ani<br>Seat 3: Budi" in html
    assert "Seat 2: Citra<br>Seat 4: Dedi" in html
    assert "Partners sit opposite each other" in html


def test_table_card_escapes_names(league_day: LeagueDay) -> None:
    line = table_public(slug="piala-kelipatan", number=2, table_number=1)
    assert line is not None
    html = table_card_html(line=line)
    assert "<script>" not in html and "&lt;script&gt;" in html


@pytest.mark.parametrize("language", ["id", "en"])
def test_table_card_headings_fit_inside_their_columns(league_day: LeagueDay, language: str) -> None:
    from weasyprint import HTML

    # given a table of three's card, laid out in the language
    line = table_public(slug="piala-kelipatan", number=1, table_number=2)
    assert line is not None
    with translation.override(language):
        page = HTML(string=table_card_html(line=line)).render().pages[0]._page_box
    # then every heading of the hands grid ("Ronde", "Akhir ronde", ...) ends inside its
    # cell, not across the cell's border into the next column
    cells = [
        box
        for box in page.descendants()
        if type(box).__name__ == "TableCellBox" and box.element.tag == "th"
    ]
    assert cells
    for cell in cells:
        right = cell.content_box_x() + cell.width
        for text in cell.descendants():
            if type(text).__name__ == "TextBox":
                assert text.position_x + text.width <= right + 0.5, text.text
