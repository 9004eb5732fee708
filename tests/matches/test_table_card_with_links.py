"""One table's card with its sides' private links as QR codes, for the organiser (a
lost card printed again, or a single table's): printing it issues the missing links
once, a stranger gets none, and a card of three sides stays on one page."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from allfives import sides_of
from league.models import Table, Tournament
from league.selectors_public import table_lines_for
from matches.cards import CardLink, card_hand_rows, table_card_html
from matches.models import TableLink, table_link_key_typed
from matches.services.links import table_links_revoke
from tests.factories import (
    EntryFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

#: Long names, so that the link boxes wrap as much as a real card's would.
NAMES = (
    "Bambang Sutrisno Adiwijaya Kusumanegara",
    "Ani Kusumawardhani Putri",
    "Siti Rahmawati Hendrawan",
    "Dewi Lestari Wulandari",
)


def _table(*, player_count: int = 4) -> tuple[Table, Any]:
    organiser = UserFactory(username="panitia")
    tournament = TournamentFactory(
        name="Piala Meja",
        slug="piala-meja",
        table_size=Tournament.TableSize.FOUR if player_count == 4 else Tournament.TableSize.THREE,
    )
    tournament.organisers.add(organiser)
    table = TableFactory(
        round=RoundFactory(tournament=tournament), number=3, player_count=player_count, target=200
    )
    for number, name in enumerate(NAMES[:player_count]):
        SeatFactory(
            table=table, number=number, entry=EntryFactory(tournament=tournament, player__name=name)
        )
    return table, organiser


def _url(table: Table) -> str:
    return reverse(
        "matches:table_card_with_links", args=["piala-meja", table.round.number, table.number]
    )


def _print(table: Table, user: Any) -> Any:
    client = Client()
    client.force_login(user)
    return client.get(_url(table))


def _keys(table: Table) -> set[str]:
    return set(TableLink.objects.filter(table=table).values_list("key", flat=True))


def _pdf_link_keys(pdf: bytes) -> set[str]:
    reader = PdfReader(io.BytesIO(pdf))
    uris = [
        annot.get_object()["/A"]["/URI"]
        for page in reader.pages
        for annot in page.get("/Annots", [])
        if "/A" in annot.get_object()
    ]
    return {table_link_key_typed(uri.rstrip("/").rsplit("/", 1)[-1]) for uri in uris}


def test_printing_a_tables_card_issues_its_links_once_and_prints_them() -> None:
    # given a published table of four without links
    table, organiser = _table()
    assert not TableLink.objects.exists()
    # when the organiser prints its card with links
    first = _print(table, organiser)
    # then each side has a link, printed on one private page that is not cached
    assert first.status_code == 200
    assert first["Content-Type"] == "application/pdf"
    filename = f"piala-meja-r{table.round.number}-t3-links.pdf"
    assert first["Content-Disposition"] == f'inline; filename="{filename}"'
    assert first["Cache-Control"] == "no-store"
    keys = _keys(table)
    assert len(keys) == 2
    assert _pdf_link_keys(first.content) == keys
    assert len(PdfReader(io.BytesIO(first.content)).pages) == 1
    # and printing it again prints the same links, issuing none
    again = _print(table, organiser)
    assert _keys(table) == keys
    assert _pdf_link_keys(again.content) == keys


def test_printing_after_a_revoked_link_issues_only_the_missing_side() -> None:
    table, organiser = _table()
    _print(table, organiser)
    first = dict(TableLink.objects.filter(table=table).values_list("side", "key"))
    table_links_revoke(links=[TableLink.objects.get(table=table, side=0)], user=organiser)
    response = _print(table, organiser)
    active = dict(
        TableLink.objects.filter(table=table, revoked_at__isnull=True).values_list("side", "key")
    )
    assert active[1] == first[1] and active[0] != first[0]
    assert _pdf_link_keys(response.content) == set(active.values())


def test_a_stranger_gets_no_card_with_links_and_no_link_is_issued() -> None:
    table, _organiser = _table()
    refused = _print(table, UserFactory())
    assert refused.status_code == 403
    assert "application/pdf" not in refused["Content-Type"]
    assert not TableLink.objects.exists()
    # and without an account it asks to sign in
    anonymous = Client().get(_url(table))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert not TableLink.objects.exists()


def test_an_unknown_table_is_not_found() -> None:
    table, organiser = _table()
    client = Client()
    client.force_login(organiser)
    url = reverse("matches:table_card_with_links", args=["piala-meja", table.round.number, 9])
    assert client.get(url).status_code == 404


def test_the_cards_qr_codes_decode_to_the_tables_links(tmp_path: Path) -> None:
    import zxingcpp
    from PIL import Image

    # given a table of three's card with links, as the organiser prints it
    table, organiser = _table(player_count=3)
    pdf = _print(table, organiser).content
    (tmp_path / "card.pdf").write_bytes(pdf)
    # when its page is rendered to an image and the codes are read
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm is not None, "pdftoppm (poppler-utils) is needed to read the card"
    subprocess.run(
        [pdftoppm, "-r", "200", "-png", str(tmp_path / "card.pdf"), str(tmp_path / "page")],
        check=True,
    )
    pages = sorted(tmp_path.glob("page*.png"))
    decoded = {r.text for page in pages for r in zxingcpp.read_barcodes(Image.open(page))}
    # then the codes are exactly its three sides' links, on one page
    assert len(pages) == 1
    assert decoded == {
        f"http://testserver{link.get_absolute_url()}"
        for link in TableLink.objects.filter(table=table)
    }


@pytest.mark.parametrize("language", ["id", "en"])
@pytest.mark.parametrize("player_count", [2, 3, 4])
def test_a_card_with_links_is_one_page_for_every_table_size(
    language: str, player_count: int
) -> None:
    from weasyprint import HTML

    # given a table with long names and a link per side
    table, _organiser = _table(player_count=player_count)
    line = table_lines_for(tables=Table.objects.filter(pk=table.pk))[0]
    links = [
        CardLink(
            label=f"meja 3, pihak {side + 1}: {NAMES[0]}",
            url=f"http://kelipatan.example/t/{'k' * 27}/",
            table_id=table.pk,
        )
        for side in sides_of(player_count)
    ]
    # when its card is laid out
    with translation.override(language):
        html = table_card_html(line=line, links=links)
    # then it prints every hand row it promises on a single page
    rows = card_hand_rows(sides_count=len(sides_of(player_count)), has_links=True)
    assert html.count('<th class="hand">') == rows
    assert len(HTML(string=html).render().pages) == 1


def test_the_printed_three_player_card_has_one_page_by_pdfinfo(tmp_path: Path) -> None:
    table, organiser = _table(player_count=3)
    (tmp_path / "card.pdf").write_bytes(_print(table, organiser).content)
    pdfinfo = shutil.which("pdfinfo")
    assert pdfinfo is not None, "pdfinfo (poppler-utils) is needed to count the pages"
    info = subprocess.run(
        [pdfinfo, str(tmp_path / "card.pdf")], check=True, capture_output=True, text=True
    ).stdout
    assert re.search(r"^Pages:\s+1$", info, re.MULTILINE), info
