"""Tables' private scoring links: one per side, printed as QR codes on the round's
cards, opening the scoring page without an account; revoked or closed links get a clear
page; the other side confirms a hand, never the side that recorded it."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from league.models import Round, Tournament
from matches.forms import scores_format
from matches.models import Hand, Match, TableLink
from matches.services.hands import hand_confirm, hand_record
from matches.services.lifecycle import match_for_table
from matches.services.links import table_links_issue, table_links_reissue, table_links_revoke
from tests.factories import (
    EntryFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tests.matches.sheets import HAND_1, HAND_2, HAND_3, MATCH_TO_50

pytestmark = pytest.mark.django_db


def _table(*, confirm: bool = True) -> tuple[Any, Any]:
    organiser = UserFactory(username="panitia")
    tournament = TournamentFactory(
        name="Piala Meja",
        slug="piala-meja",
        table_size=Tournament.TableSize.FOUR,
        requires_confirmation=confirm,
    )
    tournament.organisers.add(organiser)
    table = TableFactory(
        round=RoundFactory(tournament=tournament), number=3, player_count=4, target=50
    )
    for number, name in enumerate(["Budi", "Ani", "Siti", "Dewi"]):
        SeatFactory(
            table=table, number=number, entry=EntryFactory(tournament=tournament, player__name=name)
        )
    return table, organiser


def _open(link: TableLink) -> tuple[Client, Any]:
    client = Client()
    response = client.get(link.get_absolute_url(), follow=True)
    return client, response


def test_each_side_gets_an_unguessable_link_that_opens_the_scoring_page_without_account() -> None:
    # given a published table of four
    table, organiser = _table()
    # when the organiser issues its links
    links = table_links_issue(table=table, user=organiser)
    # then there is one per side, each key at least 128 bits of randomness
    assert [link.side for link in links] == [0, 1]
    assert all(len(link.key) >= 22 for link in links)
    assert len({link.key for link in links}) == 2
    # and a browser without an account opens the scoring page, named for its side
    _client, response = _open(links[0])
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="save"' in html
    assert "meja 3, pihak 1: Budi &amp; Siti" in html


def test_a_new_key_holds_no_look_alike_characters_and_prints_in_groups_of_four() -> None:
    # given a published table of four
    table, organiser = _table()
    # when the organiser issues its links
    links = table_links_issue(table=table, user=organiser)
    # then each key is 32 characters of digits and letters other than i, l, o and u
    for link in links:
        assert re.fullmatch(r"[0-9a-hjkmnp-tv-z]{32}", link.key), link.key
        # and the card prints it in eight groups of four, the link's address too
        assert link.printed_key.split("-") == [link.key[i : i + 4] for i in range(0, 32, 4)]
        assert link.get_absolute_url() == f"/t/{link.printed_key}/"


def test_a_key_typed_from_the_card_opens_the_table_whatever_its_case_and_look_alikes() -> None:
    # given a table link whose key holds the characters most easily mistyped
    table, _organiser = _table()
    link = TableLink.objects.create(table=table, side=1, key="0123456789abcdefghjkmnpqrstvwxyz")
    assert link.printed_key == "0123-4567-89ab-cdef-ghjk-mnpq-rstv-wxyz"
    # when someone types it in capitals, O for 0, I for 1, L for l... and spaces for dashes
    client = Client()
    typed = "OI23 4567 89AB CDEF GHJK MNPQ RSTV WXYZ"
    response = client.get(reverse("matches:table_link", args=[typed]), follow=True)
    # then the table's scoring page opens for that side
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="save"' in html
    assert "meja 3, pihak 2: Ani &amp; Dewi" in html
    # and this browser keeps the link as issued, so the page keeps working
    assert client.get(response.redirect_chain[-1][0]).status_code == 200
    # while a key one character off is still unknown
    wrong = client.get(reverse("matches:table_link", args=[typed.replace("Z", "Y")]))
    assert wrong.status_code == 404
    # and its page says how to type it again, in Indonesian
    assert "diketik persis seperti tercetak di kartu meja" in wrong.content.decode()


def test_a_link_issued_before_the_plain_alphabet_still_opens_its_table() -> None:
    # given a link of the old URL-safe alphabet, mixed case with a dash and an underscore
    table, _organiser = _table()
    link = TableLink.objects.create(table=table, side=0, key="Xq7-Ol_1IbZ0aa9Kp2Rt4Wm8Yc3")
    # then its card prints it as it is, and it opens its table
    assert link.printed_key == link.key
    _client, response = _open(link)
    assert response.status_code == 200
    assert "meja 3, pihak 1: Budi &amp; Siti" in response.content.decode()


def test_the_round_pdf_holds_every_card_with_its_links_for_the_organiser_only() -> None:
    # given a published round with a table of four
    table, organiser = _table()
    url = reverse("matches:round_cards", args=["piala-meja", table.round.number])
    # when a stranger asks for the cards, then they get no links
    stranger = Client()
    stranger.force_login(UserFactory())
    refused = stranger.get(url)
    assert refused.status_code == 403
    assert not TableLink.objects.exists()
    # when the organiser prints them
    client = Client()
    client.force_login(organiser)
    response = client.get(url)
    # then the PDF names each side's link, and each link opens that side's page
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    text = " ".join(page.extract_text() for page in reader.pages)
    uris = [
        annot.get_object()["/A"]["/URI"]
        for page in reader.pages
        for annot in page.get("/Annots", [])
        if "/A" in annot.get_object()
    ]
    keys = {link.printed_key for link in TableLink.objects.filter(table=table)}
    assert len(keys) == 2
    assert {uri.rstrip("/").rsplit("/", 1)[-1] for uri in uris} == keys
    assert "Budi" in text and "Dewi" in text
    # and the round page links to the PDF for the organiser only
    page = reverse("league:round", args=["piala-meja", table.round.number])
    assert url in client.get(page).content.decode()
    assert url not in Client().get(page).content.decode()


def test_a_revoked_link_gets_a_clear_page_in_indonesian() -> None:
    table, organiser = _table()
    link = table_links_issue(table=table, user=organiser)[0]
    table_links_revoke(links=[link], user=organiser)
    _client, response = _open(link)
    assert response.status_code == 410
    html = response.content.decode()
    assert "ditarik" in html  # "… ditarik oleh penyelenggara"
    assert "admin" not in response.redirect_chain[-1][0] if response.redirect_chain else True


def test_a_closed_rounds_link_gets_a_clear_page() -> None:
    table, organiser = _table()
    link = table_links_issue(table=table, user=organiser)[0]
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.FINISHED)
    _client, response = _open(link)
    assert response.status_code == 410
    assert "ditutup" in response.content.decode()


def test_a_reissued_tables_old_links_stop_working_and_new_ones_work() -> None:
    table, organiser = _table()
    old = table_links_issue(table=table, user=organiser)
    new = table_links_reissue(table=table, user=organiser)
    assert {link.key for link in old}.isdisjoint({link.key for link in new})
    assert _open(old[0])[1].status_code == 410
    assert _open(new[0])[1].status_code == 200


def test_an_unknown_key_gets_a_clear_page() -> None:
    response = Client().get(reverse("matches:table_link", args=["x" * 27]))
    assert response.status_code == 404
    assert "tidak dikenal" in response.content.decode()


def test_a_key_typed_short_says_how_short_and_can_be_typed_again_on_its_page() -> None:
    # given a table link
    table, _organiser = _table()
    link = TableLink.objects.create(table=table, side=1, key="0123456789abcdefghjkmnpqrstvwxyz")
    # when its last group is left out, as a card's last line may be
    response = Client().get(reverse("matches:table_link", args=[link.printed_key[:-5]]))
    # then the page says how many characters were typed and how many a key has, and
    # holds what was typed in a box to correct
    assert response.status_code == 404
    html = response.content.decode()
    assert "kodenya 28 karakter, sedangkan kode meja 32 karakter" in html
    assert 'value="0123-4567-89ab-cdef-ghjk-mnpq-rstv"' in html
    # when the whole key is typed in that box, then the table opens
    opened = Client().get(reverse("matches:table_link_typed"), {"key": link.printed_key})
    assert opened.status_code == 302
    assert opened["Location"] == link.get_absolute_url()


def test_a_whole_address_pasted_in_the_box_opens_its_table() -> None:
    table, _organiser = _table()
    link = TableLink.objects.create(table=table, side=1, key="0123456789abcdefghjkmnpqrstvwxyz")
    pasted = f" https://kelipatan.example{link.get_absolute_url()} "
    response = Client().get(reverse("matches:table_link_typed"), {"key": pasted}, follow=True)
    assert 'data-testid="save"' in response.content.decode()


def test_an_empty_box_gets_the_unknown_link_page_again() -> None:
    response = Client().get(reverse("matches:table_link_typed"), {"key": "  "})
    assert response.status_code == 404
    assert 'data-testid="typed-key"' in response.content.decode()


def test_a_side_cannot_confirm_its_own_hand_the_other_side_can() -> None:
    # given a tournament whose hands the other side confirms, and both sides' links
    table, organiser = _table(confirm=True)
    first, second = table_links_issue(table=table, user=organiser)
    match = match_for_table(table=table)
    anonymous = Client().get("/").wsgi_request.user
    # when side 1 records hand 1 through its link
    match = hand_record(
        match=match, number=1, hand=HAND_1, version=match.version, user=anonymous, link=first
    )
    # then side 1 cannot confirm it
    with pytest.raises(ValidationError) as refused:
        hand_confirm(match=match, number=1, version=match.version, user=anonymous, link=first)
    assert refused.value.code == "own_hand"
    # and the next hand waits
    with pytest.raises(ValidationError):
        hand_record(
            match=match, number=2, hand=HAND_2, version=match.version, user=anonymous, link=first
        )
    # but side 2 confirms it from its own link, and the history names the sides
    match = Match.objects.get(pk=match.pk)
    hand_confirm(match=match, number=1, version=match.version, user=anonymous, link=second)
    hand = Hand.objects.get(match=match, number=1)
    assert hand.recorded_via == first and hand.confirmed_via == second


def test_the_recording_account_cannot_confirm_its_own_hand(organiser: Any = None) -> None:
    table, organiser = _table(confirm=True)
    match = match_for_table(table=table)
    match = hand_record(match=match, number=1, hand=HAND_1, version=match.version, user=organiser)
    with pytest.raises(ValidationError):
        hand_confirm(match=match, number=1, version=match.version, user=organiser)


def test_the_page_shows_confirm_to_the_other_side_and_waiting_to_the_recorder() -> None:
    table, organiser = _table(confirm=True)
    first, second = table_links_issue(table=table, user=organiser)
    recorder, _page = _open(first)
    match = Match.objects.get(table=table)
    data = {
        "version": match.version,
        "number": 1,
        "leader": 0,
        "scores": "1:10 2:5",
        "end": "domino:2",
        "left_0": 7,
        "left_1": 8,
        "left_2": 0,
        "left_3": 6,
        "action": "save",
    }
    saved = recorder.post(reverse("matches:scorekeeper", args=[match.pk]), data, follow=True)
    assert 'data-testid="waiting"' in saved.content.decode()
    assert 'data-testid="confirm"' not in saved.content.decode()
    other, page = _open(second)
    assert 'data-testid="confirm"' in page.content.decode()
    # the other side disputes it: flagged for the organiser
    match.refresh_from_db()
    other.post(reverse("matches:hand_dispute", args=[match.pk, 1]), {"version": match.version})
    assert Hand.objects.get(match=match, number=1).is_disputed
    organiser_client = Client()
    organiser_client.force_login(organiser)
    tables = organiser_client.get(reverse("matches:my_tables")).content.decode()
    assert f'data-testid="disputed-{table.pk}"' in tables
    assert re.search(r"sengketa", tables)


def test_each_cards_qr_code_decodes_to_its_printed_link(tmp_path: Any) -> None:
    # given the round's cards as the organiser prints them
    import shutil
    import subprocess

    import zxingcpp
    from PIL import Image

    table, organiser = _table()
    client = Client()
    client.force_login(organiser)
    pdf = client.get(
        reverse("matches:round_cards", args=["piala-meja", table.round.number])
    ).content
    (tmp_path / "cards.pdf").write_bytes(pdf)
    # when its page is rendered to an image and the codes are read
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm is not None, "pdftoppm (poppler-utils) is needed to read the cards"
    subprocess.run(
        [pdftoppm, "-r", "200", "-png", str(tmp_path / "cards.pdf"), str(tmp_path / "page")],
        check=True,
    )
    pages = sorted(tmp_path.glob("page*.png"))
    decoded = {r.text for page in pages for r in zxingcpp.read_barcodes(Image.open(page))}
    # then each code is exactly one side's link, as printed beside it
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    links = {
        f"http://testserver{link.get_absolute_url()}"
        for link in TableLink.objects.filter(table=table)
    }
    assert decoded == links
    squashed = re.sub(r"\s+", "", text)
    assert all(link in squashed for link in links)


def test_confirming_the_winning_hand_through_a_link_shows_the_finished_match() -> None:
    # given hands 1-3 of a match to 50 recorded through side 1's link, 1 and 2 confirmed
    table, organiser = _table(confirm=True)
    first, second = table_links_issue(table=table, user=organiser)
    anonymous = Client().get("/").wsgi_request.user
    match = match_for_table(table=table)
    for number, hand in enumerate(MATCH_TO_50, start=1):
        match = hand_record(
            match=match, number=number, hand=hand, version=match.version, user=anonymous, link=first
        )
        if number < 3:
            match = hand_confirm(
                match=match, number=number, version=match.version, user=anonymous, link=second
            )
    # when side 2 confirms the winning hand on its page
    other, _page = _open(second)
    url = reverse("matches:hand_confirm", args=[match.pk, 3])
    response = other.post(url, {"version": match.version}, follow=True)
    # then its page shows the finished match: winner, final score, the confirmation,
    # why it cannot be scored any more, and the public scoresheet
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert response.status_code == 200
    html = response.content.decode()
    assert "tidak bisa dicatat" not in html
    assert 'data-testid="finished"' in html
    winner = html.split('data-testid="winner"')[1].split("</p>")[0]
    assert "Budi" in winner and "Siti" in winner
    assert 'data-testid="total-0">50<' in html and 'data-testid="total-1">20<' in html
    assert "Ronde 3 dikonfirmasi" in html
    assert "sudah selesai" in html
    assert reverse("matches:public_scoresheet", args=[match.pk]) in html
    # and opening the link again shows the same page
    again = _open(second)[1]
    assert again.status_code == 200 and 'data-testid="finished"' in again.content.decode()


def _htmx_post(client: Client, url: str, data: dict[str, Any]) -> Any:
    return client.post(url, data, headers={"HX-Request": "true"})


def _htmx_follow(client: Client, response: Any) -> Any:
    """The page a redirect leads to, asked for as htmx does when it follows one."""
    assert response.status_code == 302, response.content
    return client.get(response["Location"], headers={"HX-Request": "true"})


@pytest.mark.parametrize("correcting", [False, True])
def test_a_save_through_htmx_that_ends_the_match_loads_the_finished_page(
    correcting: bool,
) -> None:
    # given a match to 50 at 45 to 15 after two hands recorded through side 1's link
    table, organiser = _table(confirm=False)
    link = table_links_issue(table=table, user=organiser)[0]
    anonymous = Client().get("/").wsgi_request.user
    match = match_for_table(table=table)
    for number, hand in enumerate([HAND_1, HAND_2], start=1):
        match = hand_record(
            match=match, number=number, hand=hand, version=match.version, user=anonymous, link=link
        )
    client, _page = _open(link)
    scorekeeper = reverse("matches:scorekeeper", args=[match.pk])
    # when the page's htmx saves the hand that takes side 0 to 50: hand 3, or hand 2
    # corrected so that side 0 reaches the target in it
    number, scores, leader = (2, [[2, 20], [0, 5]], 2) if correcting else (3, HAND_3["scores"], 1)
    url = reverse("matches:hand_edit", args=[match.pk, 2]) if correcting else scorekeeper
    saved = _htmx_post(
        client,
        url,
        {
            "version": match.version,
            "number": number,
            "leader": leader,
            "scores": scores_format([list(play) for play in scores]),
            "end": "target",
            "action": "save",
        },
    )
    # then the page it redirects to tells htmx to load it whole (it has no panel to swap)
    followed = _htmx_follow(client, saved)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert followed.status_code == 200
    assert followed["HX-Redirect"] == scorekeeper
    assert followed.content == b""
    # and that page shows the finished match, with what the save said
    html = client.get(followed["HX-Redirect"]).content.decode()
    assert 'data-testid="finished"' in html and 'id="scorekeeper"' not in html
    winner = html.split('data-testid="winner"')[1].split("</p>")[0]
    assert "Budi" in winner and "Siti" in winner
    said = f"Ronde {number} disimpan." if correcting else "Ronde 3 tercatat. Pertandingan selesai."
    assert said in html


def test_a_step_through_htmx_on_a_match_finished_meanwhile_loads_the_finished_page() -> None:
    # given a scoring page open on side 2's phone while side 1's phone ends the match
    table, organiser = _table(confirm=False)
    first, second = table_links_issue(table=table, user=organiser)
    client, _page = _open(second)
    anonymous = Client().get("/").wsgi_request.user
    match = match_for_table(table=table)
    for number, hand in enumerate(MATCH_TO_50, start=1):
        match = hand_record(
            match=match, number=number, hand=hand, version=match.version, user=anonymous, link=first
        )
    # when side 2 taps a scoring button (htmx), then htmx is told to load the page whole
    url = reverse("matches:scorekeeper", args=[match.pk])
    response = _htmx_post(client, url, {"version": 1, "number": 1, "action": "add:1:5"})
    assert response.status_code == 200 and response["HX-Redirect"] == url
    # and without htmx the same tap shows the finished page itself
    plain = client.post(url, {"version": 1, "number": 1, "action": "add:1:5"})
    assert 'data-testid="finished"' in plain.content.decode()


def test_the_page_htmx_lands_on_after_a_save_shows_its_own_address() -> None:
    # given a match with a hand recorded through side 1's link, its page open on that phone
    table, organiser = _table(confirm=False)
    link = table_links_issue(table=table, user=organiser)[0]
    anonymous = Client().get("/").wsgi_request.user
    match = match_for_table(table=table)
    match = hand_record(
        match=match, number=1, hand=HAND_1, version=match.version, user=anonymous, link=link
    )
    client, _page = _open(link)
    scorekeeper = reverse("matches:scorekeeper", args=[match.pk])
    # when htmx follows the redirect after a save (from a correction's address, say)
    followed = client.get(scorekeeper, headers={"HX-Request": "true"})
    # then the page tells htmx to show its own address, so a reload opens the match
    assert followed.status_code == 200
    assert followed["HX-Replace-Url"] == scorekeeper
    # and a page loaded whole sends no such header
    assert "HX-Replace-Url" not in client.get(scorekeeper)


def test_the_history_names_the_link_whose_first_hand_started_the_match() -> None:
    # given hand 1 recorded through side 1's link
    table, organiser = _table(confirm=False)
    first, _second = table_links_issue(table=table, user=organiser)
    match = match_for_table(table=table)
    anonymous = Client().get("/").wsgi_request.user
    hand_record(
        match=match, number=1, hand=HAND_1, version=match.version, user=anonymous, link=first
    )
    # when that side opens the match's history from its link
    client = Client()
    client.get(reverse("matches:table_link", args=[first.key]))
    html = client.get(reverse("matches:history", args=[match.pk])).content.decode()
    # then the match started, not ended, with that hand, and the line names the side
    started = re.search(r"pertandingan dimulai dengan ronde yang dicatat oleh ([^<]*)", html)
    assert started is not None, html
    assert "meja" in started.group(1) and "pihak 1" in started.group(1)
    assert "pertandingan berakhir" not in html


def test_a_mistyped_address_gets_a_page_in_the_sites_language_with_a_box_for_the_code() -> None:
    # given a table link, and an address typed wrong where "/t/" should be
    table, _organiser = _table()
    link = TableLink.objects.create(table=table, side=1, key="0123456789abcdefghjkmnpqrstvwxyz")
    response = Client().get(f"/T/{link.printed_key}/")
    # then the page says so in Indonesian, and offers a box for the table's code
    assert response.status_code == 404
    html = response.content.decode()
    assert "Halaman tidak ditemukan" in html and "Not Found" not in html
    assert 'data-testid="typed-key"' in html
    # when the code is typed there, then the table opens
    opened = Client().get(reverse("matches:table_link_typed"), {"key": link.printed_key})
    assert opened["Location"] == link.get_absolute_url()
