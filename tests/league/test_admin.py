"""The organisers' admin: scoping to one's own tournaments, actions, CSV import, history."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import Entry, Player, Round, Tournament
from league.roles import ORGANISERS_GROUP
from league.services.rounds import round_create, seats_for_entries, table_create
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _organiser(client: Client, username: str = "org") -> Any:
    user = UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client.force_login(user)
    return user


def test_organiser_sees_only_own_tournaments_in_the_list(client: Client) -> None:
    me = _organiser(client)
    mine = TournamentFactory(name="Turnamen Saya")
    mine.organisers.add(me)
    TournamentFactory(name="Turnamen Orang Lain")
    response = client.get(reverse("admin:league_tournament_changelist"))
    assert response.status_code == 200
    assert "Turnamen Saya" in response.text
    assert "Turnamen Orang Lain" not in response.text


def test_organiser_is_refused_another_organisers_tournament(client: Client) -> None:
    _organiser(client)
    other = TournamentFactory()
    other.organisers.add(UserFactory(username="someone-else", is_staff=True))
    change = client.get(reverse("admin:league_tournament_change", args=[other.pk]))
    # The admin answers a row outside one's queryset as missing (redirect to index).
    assert change.status_code in (302, 404)
    post = client.post(
        reverse("admin:league_tournament_change", args=[other.pk]), {"name": "Hijacked"}
    )
    assert post.status_code in (302, 403, 404)
    other.refresh_from_db()
    assert other.name != "Hijacked"


def test_organiser_cannot_see_entries_of_another_tournament(client: Client) -> None:
    me = _organiser(client)
    mine = TournamentFactory()
    mine.organisers.add(me)
    own_entry = EntryFactory(tournament=mine)
    foreign_entry = EntryFactory()
    response = client.get(reverse("admin:league_entry_changelist"))
    assert own_entry.player.name in response.text
    assert foreign_entry.player.name not in response.text


def test_superuser_sees_every_tournament(client: Client) -> None:
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    a, b = TournamentFactory(), TournamentFactory()
    response = client.get(reverse("admin:league_tournament_changelist"))
    assert a.name in response.text and b.name in response.text


def test_action_register_players_in_bulk(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    tournament.organisers.add(me)
    players = [PlayerFactory(), PlayerFactory(), PlayerFactory()]
    url = reverse("admin:league_player_changelist")
    ids = [str(p.pk) for p in players]
    confirm = client.post(url, {"action": "register_in_tournament", "_selected_action": ids})
    assert confirm.status_code == 200
    assert tournament.name in confirm.text
    done = client.post(
        url,
        {
            "action": "register_in_tournament",
            "_selected_action": ids,
            "apply": "1",
            "tournament": tournament.pk,
        },
    )
    assert done.status_code == 302
    assert set(Entry.objects.filter(tournament=tournament).values_list("player", flat=True)) == {
        p.pk for p in players
    }


def test_action_withdraw_entry(client: Client) -> None:
    me = _organiser(client)
    entry = EntryFactory()
    entry.tournament.organisers.add(me)
    client.post(
        reverse("admin:league_entry_changelist"),
        {"action": "withdraw", "_selected_action": [entry.pk]},
    )
    entry.refresh_from_db()
    assert entry.is_withdrawn is True
    assert entry.withdrawn_round == 1


def test_actions_publish_and_close_a_round(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    round_ = round_create(tournament=tournament)
    entries = [EntryFactory(tournament=tournament) for _ in range(2)]
    table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))
    with translation.override("en"):  # the English admin, whose messages the test reads
        url = reverse("admin:league_round_changelist")
    client.post(url, {"action": "publish", "_selected_action": [round_.pk]})
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    # Closing is refused while the table has no result; the round stays published.
    response = client.post(url, {"action": "close", "_selected_action": [round_.pk]}, follow=True)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    assert "1 table has not finished its match: table 1: " in response.text


def test_action_duplicate_tournament_settings(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory(name="Piala Kota")
    tournament.organisers.add(me)
    with translation.override("en"):
        url = reverse("admin:league_tournament_changelist")
    client.post(url, {"action": "duplicate_settings", "_selected_action": [tournament.pk]})
    copy = Tournament.objects.exclude(pk=tournament.pk).get()
    assert copy.name == "Piala Kota (copy)"
    assert list(copy.organisers.all()) == [me]


def test_csv_import_of_players_previews_then_writes(client: Client) -> None:
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    csv = "name,nickname,club\nDewi Lestari,Dewi,Klub A\nEko Prasetyo,,Klub B\n"
    response = client.post(
        reverse("admin:league_player_import"),
        {
            "resource": "0",
            "format": "0",
            "import_file": SimpleUploadedFile("players.csv", csv.encode(), "text/csv"),
        },
    )
    assert response.status_code == 200
    assert "Dewi Lestari" in response.text  # the preview
    assert not Player.objects.filter(name="Dewi Lestari").exists()  # nothing written yet
    form = response.context["confirm_form"]
    confirm = client.post(reverse("admin:league_player_process_import"), form.initial)
    assert confirm.status_code == 302
    assert set(Player.objects.values_list("name", flat=True)) >= {"Dewi Lestari", "Eko Prasetyo"}


def test_csv_import_with_an_invalid_row_writes_nothing(client: Client) -> None:
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    csv = "name,nickname,club,email\nFajar,,Klub A,fajar@example.org\nGita,,Klub B,not-an-email\n"
    response = client.post(
        reverse("admin:league_player_import"),
        {
            "resource": "0",
            "format": "0",
            "import_file": SimpleUploadedFile("players.csv", csv.encode(), "text/csv"),
        },
    )
    assert response.status_code == 200
    assert "Enter a valid email address" in response.text or "email" in response.text.lower()
    assert response.context.get("confirm_form") is None
    assert not Player.objects.filter(name__in=["Fajar", "Gita"]).exists()


def test_changes_to_tournaments_are_kept_in_history(client: Client) -> None:
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    tournament = TournamentFactory(name="Sebelum")
    tournament.name = "Sesudah"
    tournament.save()
    history = list(tournament.history.order_by("history_date").values_list("name", flat=True))
    assert history == ["Sebelum", "Sesudah"]
    page = client.get(reverse("admin:league_tournament_history", args=[tournament.pk]))
    assert page.status_code == 200


def test_admin_speaks_indonesian_and_english(client: Client) -> None:
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    indonesian = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="id")
    english = client.get("/en/admin/")
    assert indonesian.status_code == english.status_code == 200
    assert 'lang="id"' in indonesian.text
    assert 'lang="en"' in english.text


def test_round_byes_picker_offers_only_own_tournaments_entries(client: Client) -> None:
    # Given an organiser's draft round and an entry of someone else's tournament
    me = _organiser(client)
    mine = TournamentFactory()
    mine.organisers.add(me)
    own_entry = EntryFactory(tournament=mine)
    foreign_entry = EntryFactory()
    round_ = round_create(tournament=mine)
    # When the organiser opens the round
    page = client.get(reverse("admin:league_round_change", args=[round_.pk]))
    # Then the byes picker lists only their own tournament's entries
    byes = page.context["adminform"].form.fields["byes"].queryset
    assert own_entry in byes
    assert foreign_entry not in byes
