"""The probes that once leaked or wrote across clubs, each now refused by name: contact
details on another club's change page, in the export and in the autocomplete; editing
another club's player; reading or editing a player by entering them in one's own
tournament; entering a visitor where visitors are not accepted; a CSV row that would
overwrite another club's player."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league.models import Entry, Membership, Player, Tournament
from league.services.clubs import membership_add
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@dataclass
class Probe:
    attacker: Any  # organiser of Klub Merdeka
    victim: Player  # Spinner Malang's player
    own: Player  # Klub Merdeka's player
    draft: Tournament  # the attacker's own draft, open to visitors


@pytest.fixture
def probe() -> Probe:
    mine, theirs = ClubFactory(name="Klub Merdeka"), ClubFactory(name="Spinner Malang")
    attacker = UserFactory(username="penyerang", is_staff=True)
    membership_add(club=mine, user=attacker, role=Membership.Role.ORGANISER)
    membership_add(club=theirs, user=UserFactory(is_staff=True), role=Membership.Role.ORGANISER)
    victim = PlayerFactory(
        home_club=theirs, name="Dewi Lestari", email="dewi@example.org", phone="0811111"
    )
    own = PlayerFactory(home_club=mine, name="Budi Santoso", email="budi@example.org")
    draft = TournamentFactory(
        season=SeasonFactory(club=mine), status=Tournament.Status.DRAFT, accepts_visitors=True
    )
    return Probe(attacker, victim, own, draft)


def _admin(probe: Probe) -> Client:
    client = Client()
    client.force_login(probe.attacker)
    return client


def _api(probe: Probe) -> APIClient:
    client = APIClient()
    client.force_authenticate(probe.attacker)
    return client


def _leaks(text: str, player: Player) -> bool:
    return player.email in text or player.phone in text


def test_another_clubs_player_change_page_shows_no_contact_details(probe: Probe) -> None:
    page = _admin(probe).get(reverse("admin:league_player_change", args=[probe.victim.pk]))
    assert page.status_code == 200  # names are public, to enter visitors
    assert not _leaks(page.text, probe.victim)
    assert 'name="email"' not in page.text


def test_player_export_gives_no_other_clubs_contact_details(probe: Probe) -> None:
    fields = {f"playerresource_{f}": "on" for f in ("id", "name", "email", "phone")}
    export = _admin(probe).post(
        reverse("admin:league_player_export"), {"format": "0", "resource": "0", **fields}
    )
    text = export.content.decode()
    assert export.status_code == 200 and probe.own.email in text  # the own club's are there
    assert not _leaks(text, probe.victim) and "Dewi Lestari" not in text


def test_player_autocomplete_gives_no_contact_details(probe: Probe) -> None:
    found = _admin(probe).get(
        reverse("admin:autocomplete"),
        {"app_label": "league", "model_name": "entry", "field_name": "player", "term": "Dewi"},
    )
    assert found.status_code == 200
    assert [r["text"] for r in found.json()["results"]] == ["Dewi Lestari"]
    assert not _leaks(found.content.decode(), probe.victim)


def test_editing_another_clubs_player_in_the_admin_stores_nothing(probe: Probe) -> None:
    victim = probe.victim
    response = _admin(probe).post(
        reverse("admin:league_player_change", args=[victim.pk]),
        {
            "name": "Dewi Diganti",
            "slug": victim.slug,
            "email": "taken@example.org",
            "home_club": probe.own.home_club_id,
            "is_active": "on",
        },
    )
    assert response.status_code == 403
    victim.refresh_from_db()
    assert (victim.name, victim.email, victim.home_club.name) == (
        "Dewi Lestari",
        "dewi@example.org",
        "Spinner Malang",
    )


def test_entering_a_visitor_in_own_draft_grants_no_read_or_edit(probe: Probe) -> None:
    # Given the attacker enters the other club's player in their own draft
    api = _api(probe)
    entered = api.post(
        "/api/entries/", {"tournament": probe.draft.pk, "player": probe.victim.pk}, format="json"
    )
    assert entered.status_code == 201
    # When they read and change the player through the API
    read = api.get(f"/api/players/{probe.victim.pk}/")
    patch = api.patch(
        f"/api/players/{probe.victim.pk}/", {"email": "taken@example.org"}, format="json"
    )
    # Then the name shows, the contact details do not, and nothing is changed
    assert read.status_code == 200 and read.json()["name"] == "Dewi Lestari"
    assert not _leaks(read.content.decode(), probe.victim)
    assert patch.status_code in (403, 404)
    probe.victim.refresh_from_db()
    assert probe.victim.email == "dewi@example.org"


def test_a_visitor_is_refused_where_the_tournament_accepts_no_visitors(probe: Probe) -> None:
    probe.draft.accepts_visitors = False
    probe.draft.save(update_fields=["accepts_visitors"])
    refused = _api(probe).post(
        "/api/entries/", {"tournament": probe.draft.pk, "player": probe.victim.pk}, format="json"
    )
    assert refused.status_code in (400, 403)
    assert refused.json()["ok"] is False and refused.json()["error"]["message"]
    assert not Entry.objects.filter(tournament=probe.draft).exists()
    # while the club's own player is entered
    own = _api(probe).post(
        "/api/entries/", {"tournament": probe.draft.pk, "player": probe.own.pk}, format="json"
    )
    assert own.status_code == 201


def test_csv_row_matching_another_clubs_player_is_a_clash_and_changes_nothing(
    probe: Probe,
) -> None:
    # Given a CSV row that names no player but matches the other club's by name
    csv = "name,nickname,club,phone\nDewi Lestari,,PB Merdeka,0899999\n"
    club_as_written = probe.victim.club
    client = _admin(probe)
    # When the attacker imports it
    preview = client.post(
        reverse("admin:league_player_import"),
        {
            "resource": "0",
            "format": "0",
            "import_file": SimpleUploadedFile("players.csv", csv.encode(), "text/csv"),
        },
    )
    # Then the preview shows a clash naming the other club, offers nothing to confirm,
    # and the other club's player is untouched
    assert preview.status_code == 200
    assert "Spinner Malang" in preview.text and preview.context.get("confirm_form") is None
    probe.victim.refresh_from_db()
    assert (probe.victim.club, probe.victim.phone) == (club_as_written, "0811111")
    assert probe.victim.home_club.name == "Spinner Malang"
    assert Player.objects.filter(name="Dewi Lestari").count() == 1


def test_csv_row_naming_another_clubs_player_by_slug_changes_nothing(probe: Probe) -> None:
    csv = f"slug,name,phone\n{probe.victim.slug},Dewi Lestari,0899999\n"
    preview = _admin(probe).post(
        reverse("admin:league_player_import"),
        {
            "resource": "0",
            "format": "0",
            "import_file": SimpleUploadedFile("players.csv", csv.encode(), "text/csv"),
        },
    )
    assert preview.status_code == 200 and preview.context.get("confirm_form") is None
    probe.victim.refresh_from_db()
    assert probe.victim.phone == "0811111"
