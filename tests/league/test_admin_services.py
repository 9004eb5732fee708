"""The admin's forms, inlines and actions write through the league services: the rules
those hold (a table's target, a round's status, an entry's members, a result's listeners)
hold in the admin too, and their refusals show as form errors."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape

from league.models import Entry, EntryMember, Round, Seat, Table, TableResult, Tournament
from league.services.registration import entry_create, partnership_create
from league.services.results import SideOutcome, table_result_record
from league.services.rounds import round_create, round_publish, seats_for_entries, table_create
from standings.models import Standings
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.league.test_admin import _organiser

pytestmark = pytest.mark.django_db


def _form_data(response: Any) -> dict[str, Any]:
    """The POST a browser would send back for an admin change page, unchanged."""
    data: dict[str, Any] = {}

    def add(form: Any) -> None:
        for name, field in form.fields.items():
            if field.disabled:
                continue
            value = form[name].value()
            key = form.add_prefix(name)
            if value is None or value is False:
                continue
            if value is True:
                data[key] = "on"
            elif isinstance(value, dt.datetime):
                data[f"{key}_0"], data[f"{key}_1"] = value.date(), value.time()
            elif isinstance(value, list | tuple):
                data[key] = [str(v) for v in value]
            else:
                data[key] = value

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        for name in formset.management_form.fields:
            data[formset.management_form.add_prefix(name)] = formset.management_form[name].value()
        for form in formset.initial_forms:
            add(form)
    return data


def _add_row(data: dict[str, Any], prefix: str, **values: Any) -> None:
    n = int(data[f"{prefix}-TOTAL_FORMS"])
    data[f"{prefix}-TOTAL_FORMS"] = n + 1
    for name, value in values.items():
        data[f"{prefix}-{n}-{name}"] = value


def _superuser(client: Client) -> Any:
    user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def _url(name: str, *args: Any) -> str:
    with translation.override("en"):  # the English admin, whose messages the tests read
        return reverse(name, args=args)


# --- Rounds and their tables ---------------------------------------------------------------


def test_a_table_added_in_the_rounds_inline_gets_the_target_for_its_player_count(
    client: Client,
) -> None:
    # Given an organiser's draft round
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    round_ = round_create(tournament=tournament)
    rules = tournament.effective_rule_set
    url = _url("admin:league_round_change", round_.pk)
    # When they add a three-player table in the round's inline
    data = _form_data(client.get(url))
    _add_row(data, "tables", number=1, player_count=3)
    response = client.post(url, data)
    # Then it is saved with the rule set's target for three players
    assert response.status_code == 302, response.context and response.context["errors"]
    table = Table.objects.get(round=round_)
    assert (table.player_count, table.target) == (3, rules.target_for(3))
    # And when its player count is changed to two, the target follows
    data = _form_data(client.get(url))
    data["tables-0-player_count"] = 2
    assert client.post(url, data).status_code == 302
    table.refresh_from_db()
    assert (table.player_count, table.target) == (2, rules.target_for(2))


def test_the_round_form_cannot_set_a_round_finished_with_unfinished_tables(
    client: Client,
) -> None:
    # Given a published round whose table is still playing
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    round_ = round_create(tournament=tournament)
    entries = [EntryFactory(tournament=tournament) for _ in range(2)]
    table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))
    round_publish(round=round_)
    url = _url("admin:league_round_change", round_.pk)
    page = client.get(url)
    # Then the form offers no status to choose: the actions move it
    assert "status" not in page.context["adminform"].form.fields
    # And posting one anyway leaves the round published
    data = _form_data(page)
    data["status"] = Round.Status.FINISHED
    client.post(url, data)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED


def test_a_table_added_to_a_published_round_is_refused_as_a_form_error(client: Client) -> None:
    # Given a published round
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    round_ = round_create(tournament=tournament)
    entries = [EntryFactory(tournament=tournament) for _ in range(2)]
    table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))
    round_publish(round=round_)
    url = _url("admin:league_round_change", round_.pk)
    # When a table is added in its inline
    data = _form_data(client.get(url))
    _add_row(data, "tables", number=2, player_count=2)
    response = client.post(url, data)
    # Then the page shows the service's refusal and nothing is added
    assert response.status_code == 200
    assert "Tables are added to draft rounds only." in response.text
    assert round_.tables.count() == 1


def test_a_round_added_in_the_admin_is_created_by_the_service(client: Client) -> None:
    _superuser(client)
    tournament = TournamentFactory(rounds_count=1, seed=42)
    url = _url("admin:league_round_add")
    data = _form_data(client.get(url))
    data.update({"tournament": tournament.pk, "number": 1})
    assert client.post(url, data).status_code == 302
    assert Round.objects.get(tournament=tournament).pairing_seed == 42
    # A round beyond the tournament's count is refused on the form
    data["number"] = 2
    response = client.post(url, data)
    assert response.status_code == 200
    assert "The tournament has 1 rounds." in response.text
    assert tournament.rounds.count() == 1


# --- Seats ---------------------------------------------------------------------------------


def test_a_seat_added_in_the_admin_must_seat_a_player_of_its_entry(client: Client) -> None:
    # Given a draft round's two-player table with one seat
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    round_ = round_create(tournament=tournament)
    a, b = EntryFactory(tournament=tournament), EntryFactory(tournament=tournament)
    table = table_create(round=round_, number=1, seats=seats_for_entries([a, b], player_count=2))
    Seat.objects.filter(table=table, number=1).delete()
    url = _url("admin:league_table_change", table.pk)
    # When the second seat (2, as people count) is given to b's entry but a stranger's name
    data = _form_data(client.get(url))
    stranger = PlayerFactory()
    _add_row(data, "seats", number=2, entry=b.pk, player=stranger.pk)
    response = client.post(url, data)
    # Then it is refused on the form, naming the player and the entry
    assert response.status_code == 200
    assert escape(f"{stranger.name} does not play for {b.display_name}.") in response.text
    assert table.seats.count() == 1
    # And with b's own player it is saved
    data["seats-1-player"] = b.player_id
    assert client.post(url, data).status_code == 302
    assert table.seats.get(number=1).player_id == b.player_id


# --- Entries -------------------------------------------------------------------------------


def _tournament_form(client: Client, tournament: Tournament) -> tuple[str, dict[str, Any]]:
    url = _url("admin:league_tournament_change", tournament.pk)
    return url, _form_data(client.get(url))


def test_an_entry_added_in_the_tournaments_inline_gets_its_members(client: Client) -> None:
    # Given a fixed-partnership tournament
    me = _organiser(client)
    tournament = TournamentFactory(format=Tournament.Format.FIXED_PARTNERSHIP, table_size="4")
    tournament.organisers.add(me)
    ani, budi = PlayerFactory(), PlayerFactory()
    pair = partnership_create(player_a=ani, player_b=budi)
    # When the partnership is entered in the tournament page's inline
    url, data = _tournament_form(client, tournament)
    _add_row(data, "entries", partnership=pair.pk, seed=1)
    response = client.post(url, data)
    # Then the entry puts both partners at the tables
    assert response.status_code == 302, response.context and response.context["errors"]
    entry = Entry.objects.get(tournament=tournament)
    assert set(entry.members.values_list("player_id", flat=True)) == {ani.pk, budi.pk}


def test_a_player_cannot_be_in_two_entries_of_a_tournament_through_the_inline(
    client: Client,
) -> None:
    # Given Ani entered with Budi
    me = _organiser(client)
    tournament = TournamentFactory(format=Tournament.Format.FIXED_PARTNERSHIP, table_size="4")
    tournament.organisers.add(me)
    ani, budi, citra = PlayerFactory(), PlayerFactory(), PlayerFactory()
    entry_create(tournament=tournament, partnership=partnership_create(player_a=ani, player_b=budi))
    second = partnership_create(player_a=ani, player_b=citra)
    # When Ani is entered again with Citra in the inline
    url, data = _tournament_form(client, tournament)
    _add_row(data, "entries", partnership=second.pk)
    response = client.post(url, data)
    # Then the row is refused with the registration rule's message
    assert response.status_code == 200
    assert f"{ani} is already registered in this tournament." in response.text
    assert Entry.objects.filter(tournament=tournament).count() == 1
    assert EntryMember.objects.filter(tournament=tournament, player=ani).count() == 1


def test_two_new_rows_sharing_a_player_are_refused_as_a_form_error(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory(format=Tournament.Format.FIXED_PARTNERSHIP, table_size="4")
    tournament.organisers.add(me)
    ani, budi, citra = PlayerFactory(), PlayerFactory(), PlayerFactory()
    one = partnership_create(player_a=ani, player_b=budi)
    two = partnership_create(player_a=ani, player_b=citra)
    url, data = _tournament_form(client, tournament)
    _add_row(data, "entries", partnership=one.pk)
    _add_row(data, "entries", partnership=two.pk)
    response = client.post(url, data)
    assert response.status_code == 200
    assert "is already registered in this tournament." in response.text
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_the_refusal_shows_in_indonesian_in_the_indonesian_admin(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    player = PlayerFactory()
    entry_create(tournament=tournament, player=player)
    url = reverse("admin:league_tournament_change", args=[tournament.pk])
    data = _form_data(client.get(url))
    _add_row(data, "entries", player=player.pk)
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="id")
    assert response.status_code == 200
    with translation.override("id"):
        message = translation.gettext("%(who)s is already registered in this tournament.")
    assert message != "%(who)s is already registered in this tournament."
    assert message % {"who": player} in response.text


def test_an_entry_added_on_its_own_page_gets_its_member(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    player = PlayerFactory()
    url = _url("admin:league_entry_add")
    data = _form_data(client.get(url))
    data.update({"tournament": tournament.pk, "player": player.pk, "is_checked_in": "on"})
    assert client.post(url, data).status_code == 302
    entry = Entry.objects.get(tournament=tournament)
    assert list(entry.members.values_list("player_id", flat=True)) == [player.pk]


# --- Results -------------------------------------------------------------------------------


def _finished_table(tournament: Tournament) -> Table:
    round_ = round_create(tournament=tournament)
    entries = [EntryFactory(tournament=tournament) for _ in range(2)]
    table = table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))
    round_publish(round=round_)
    table_result_record(
        table_id=table.pk,
        sides=[
            SideOutcome(side=0, points_x2=2, placing=1, hands_won=3, is_winner=True),
            SideOutcome(side=1, points_x2=0, placing=2, hands_won=1, is_winner=False),
        ],
        hands_count=4,
        finished_at=timezone.now(),
    )
    return table


def _requested(tournament: Tournament) -> int:
    return Standings.objects.get(tournament=tournament).requested_version


def test_editing_a_result_in_the_admin_marks_the_standings_stale(client: Client) -> None:
    # Given a finished table and its tournament's standings
    _superuser(client)
    tournament = TournamentFactory()
    table = _finished_table(tournament)
    before = _requested(tournament)
    url = _url("admin:league_tableresult_change", table.result.pk)
    # When a superuser swaps the winner by hand
    data = _form_data(client.get(url))
    data["hands_count"] = 5
    data["sides-0-points_x2"], data["sides-1-points_x2"] = 0, 2
    data["sides-0-placing"], data["sides-1-placing"] = 2, 1
    data.pop("sides-0-is_winner", None)
    data["sides-1-is_winner"] = "on"
    response = client.post(url, data)
    # Then the result is stored and the standings are due a refresh
    assert response.status_code == 302, response.context and response.context["errors"]
    result = TableResult.objects.get(table=table)
    assert result.hands_count == 5
    assert result.sides.get(side=1).is_winner
    assert _requested(tournament) > before


def test_a_result_with_the_wrong_number_of_sides_is_a_form_error(client: Client) -> None:
    _superuser(client)
    tournament = TournamentFactory()
    table = _finished_table(tournament)
    url = _url("admin:league_tableresult_change", table.result.pk)
    data = _form_data(client.get(url))
    data["sides-1-DELETE"] = "on"
    response = client.post(url, data)
    assert response.status_code == 200
    assert "A table of 2 players has 2 sides." in response.text
    assert table.result.sides.count() == 2


def test_deleting_a_result_in_the_admin_reopens_the_table_and_marks_the_standings(
    client: Client,
) -> None:
    _superuser(client)
    tournament = TournamentFactory()
    table = _finished_table(tournament)
    before = _requested(tournament)
    url = _url("admin:league_tableresult_delete", table.result.pk)
    assert client.post(url, {"post": "yes"}).status_code == 302
    table.refresh_from_db()
    assert not TableResult.objects.filter(table=table).exists()
    assert table.status == Table.Status.PLAYING
    assert _requested(tournament) > before


# --- Deleting rounds and tables ------------------------------------------------------------


@pytest.mark.parametrize("how", ["delete page", "list action"])
def test_the_admin_deletes_no_published_round_and_no_table_of_one(client: Client, how: str) -> None:
    # Given a published round with a finished table
    _superuser(client)
    table = _finished_table(TournamentFactory())
    round_ = table.round
    # When the organiser deletes the round, then its table, from the admin
    for model, row in (("round", round_), ("table", table)):
        if how == "delete page":
            response = client.post(
                _url(f"admin:league_{model}_delete", row.pk), {"post": "yes"}, follow=True
            )
        else:
            response = client.post(
                _url(f"admin:league_{model}_changelist"),
                {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"},
                follow=True,
            )
        # Then the service refuses, in its own words, and nothing is deleted
        shown = " ".join(str(m) for m in response.context["messages"])
        assert (
            "Only a draft round can be deleted." in shown
            if model == "round"
            else "Tables of a published round cannot be deleted." in shown
        )
    assert Round.objects.filter(pk=round_.pk).exists()
    assert Table.objects.filter(pk=table.pk).exists()
    assert TableResult.objects.filter(table=table).exists()


def test_the_admin_deletes_a_draft_round_with_its_tables(client: Client) -> None:
    # Given a draft round with a table
    _superuser(client)
    tournament = TournamentFactory()
    round_ = round_create(tournament=tournament)
    entries = [EntryFactory(tournament=tournament) for _ in range(2)]
    table = table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))
    # When the organiser deletes it from the admin
    client.post(_url("admin:league_round_delete", round_.pk), {"post": "yes"})
    # Then it is gone, and its table with it
    assert not Round.objects.filter(pk=round_.pk).exists()
    assert not Table.objects.filter(pk=table.pk).exists()
