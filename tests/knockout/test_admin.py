"""The knockout in the organisers' admin: brackets are listed to the organisers of their
tournament only, shown with their seeds and matches, and never written there."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from knockout.models import Bracket
from knockout.services import bracket_create
from tests.knockout.conftest import seeded_tournament
from tests.league.test_admin import _organiser

pytestmark = pytest.mark.django_db


def test_an_organiser_sees_their_tournaments_brackets_only_and_cannot_change_them(
    client: Client,
) -> None:
    me = _organiser(client)
    mine = seeded_tournament(4, name="Piala Saya", slug="piala-saya")
    mine.organisers.add(me)
    theirs = seeded_tournament(4, name="Piala Lain", slug="piala-lain")
    bracket_create(tournament=mine, source="ratings")
    bracket_create(tournament=theirs, source="ratings")
    listing = client.get(reverse("admin:knockout_bracket_changelist"))
    assert listing.status_code == 200
    text = listing.content.decode()
    assert "Piala Saya" in text and "Piala Lain" not in text
    bracket = Bracket.objects.get(tournament=mine)
    page = client.get(reverse("admin:knockout_bracket_change", args=[bracket.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Pemain 01 — Pemain 04" in body and "Pemain 02 — Pemain 03" in body
    assert reverse("knockout:bracket", args=["piala-saya"]) in body
    assert reverse("desk:desk", args=["piala-saya"]) in body
    other = Bracket.objects.get(tournament=theirs)
    assert client.get(reverse("admin:knockout_bracket_change", args=[other.pk])).status_code in (
        302,
        404,
    )
    # Nothing is written here: no add page, and a posted change leaves the bracket as it is.
    assert client.get(reverse("admin:knockout_bracket_add")).status_code == 403
    client.post(reverse("admin:knockout_bracket_change", args=[bracket.pk]), {"field_count": "2"})
    bracket.refresh_from_db()
    assert bracket.field_count == 4
    assert (
        client.post(reverse("admin:knockout_bracket_delete", args=[bracket.pk])).status_code == 403
    )
    assert Bracket.objects.filter(pk=bracket.pk).exists()


def test_the_admin_heads_the_third_place_match_apart_from_the_final(client: Client) -> None:
    # Given a top four with a third-place match
    me = _organiser(client)
    tournament = seeded_tournament(4, name="Piala Saya", slug="piala-saya")
    tournament.organisers.add(me)
    bracket_create(tournament=tournament, source="ratings", third_place=True)
    bracket = Bracket.objects.get(tournament=tournament)
    # When the organiser opens the bracket in the admin
    body = client.get(reverse("admin:knockout_bracket_change", args=[bracket.pk])).content.decode()
    # Then the final and the third-place match, both of the last round, have their own headings
    assert "Piala Saya — Bagan utama — 2.1" in body
    assert "Piala Saya — Bagan utama — Tempat ketiga" in body
    assert body.count("Piala Saya — Bagan utama — 2.1") == 1
