"""The desk's way to a single table's card with its scoring links: the board links each
table of a published round to it, beside the public card without links, and the admin's
list of that table's links, while it has none, says how they are issued and links there."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from desk.selectors import round_board
from desk.services import round_next
from league.models import Round, Tournament
from league.services.rounds import round_publish
from matches.models import TableLink
from tests.desk.conftest import organiser_of
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def _paired(tournament: Tournament, capture: Any) -> Round:
    with capture(execute=True):
        return round_next(tournament=tournament)


def _desk(client: Client, tournament: Tournament) -> str:
    return client.get(reverse("desk:desk", args=[tournament.slug])).content.decode()


def test_the_board_links_a_published_rounds_tables_to_their_cards_with_links(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    # given a drafted round: its links cannot be printed yet
    round = _paired(tournament, django_capture_on_commit_callbacks)
    assert all(t.card_with_links_url is None for t in round_board(round=round).tables)
    assert 'data-testid="card-with-links-1"' not in _desk(desk, tournament)
    # when it is published
    round_publish(round=round)
    table = round_board(round=round).tables[0]
    # then each table's row links to its card with links, and to the public card apart
    url = reverse(
        "matches:table_card_with_links", args=[tournament.slug, round.number, table.number]
    )
    assert table.card_with_links_url == url
    page = _desk(desk, tournament)
    assert f'href="{url}" data-testid="card-with-links-{table.number}"' in page
    assert f'href="{table.card_url}" data-testid="card-{table.number}"' in page
    # and following it prints that table's card with its two sides' links
    response = desk.get(url)
    assert response["Content-Type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(response.content)).pages) == 1
    assert TableLink.objects.filter(table_id=table.id).count() == 2


def test_the_admin_list_of_a_table_without_links_links_to_its_card_with_links(
    desk: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    # given a published round whose cards were not printed
    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    table = round_board(round=round).tables[0]
    # when the organiser opens the table's links from the desk
    response = desk.get(table.links_url)
    # then the empty list says how links are issued and links to the table's card
    assert response.status_code == 200
    assert response.context["cl"].result_count == 0
    html = response.content.decode()
    assert 'data-testid="links-missing"' in html
    assert f'href="{table.card_with_links_url}" data-testid="links-missing-card"' in html
    # and that link prints the card, after which the list holds the links, without the help
    assert desk.get(table.card_with_links_url)["Content-Type"] == "application/pdf"
    again = desk.get(table.links_url)
    assert again.context["cl"].result_count == 2
    assert 'data-testid="links-missing"' not in again.content.decode()


def test_the_admin_list_says_nothing_of_another_clubs_table(
    tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    # given a published round and an organiser of another club
    round = _paired(tournament, django_capture_on_commit_callbacks)
    round_publish(round=round)
    table = round_board(round=round).tables[0]
    other = Client()
    other.force_login(organiser_of(ClubFactory(name="Klub Lain"), username="lain"))
    # when they open that table's links, then no help points them to its card
    response = other.get(table.links_url)
    assert 'data-testid="links-missing"' not in response.content.decode()
    assert table.card_with_links_url not in response.content.decode()
