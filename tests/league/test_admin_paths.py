"""Every path into the admin (forms, inlines, history versions, CSV imports, actions) and
the API keeps the services' rules: a round's status moves only by publish and close, an
entry always has its members and a player is in one entry of a tournament, a result
edited by anyone marks the standings stale, and a pairing failure says its real cause.
The JSON-list fields are edited as lists and numbers; seats are counted from 1."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from league.models import (
    Entry,
    EntryMember,
    Membership,
    Partnership,
    Round,
    Seat,
    TableResult,
    Tournament,
)
from league.services.clubs import membership_add
from league.services.registration import entry_create, partnership_create
from league.services.rounds import round_create, round_publish, seats_for_entries, table_create
from matches.services.lifecycle import match_for_table
from pairing.services.progress import round_pair_progress
from pairing.services.requests import round_pair_request
from tests.factories import (
    ClubFactory,
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
)
from tests.league.test_admin import _organiser
from tests.league.test_admin_services import (
    _add_row,
    _finished_table,
    _form_data,
    _requested,
    _superuser,
    _url,
)

pytestmark = pytest.mark.django_db


def _published_round(tournament: Tournament) -> Round:
    round_ = round_create(tournament=tournament)
    entries = [EntryFactory(tournament=tournament) for _ in range(2)]
    table_create(round=round_, number=1, seats=seats_for_entries(entries, player_count=2))
    return round_publish(round=round_)


# --- A round's status -----------------------------------------------------------------------


def test_an_old_version_of_a_round_cannot_be_posted_back_from_its_history(
    client: Client,
) -> None:
    # Given a round that was a draft and is now published
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    round_ = _published_round(tournament)
    draft = round_.history.filter(status=Round.Status.DRAFT).earliest("history_date")
    url = _url("admin:league_round_simple_history", round_.pk, draft.history_id)
    # When the organiser opens that version, then posts it back
    page = client.get(url)
    response = client.post(url, {"tournament": tournament.pk, "number": 1})
    # Then the version is shown without a revert button, the post is refused, and the
    # round stays published
    assert page.status_code == 200
    assert 'name="_save"' not in page.text
    assert response.status_code == 403
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED


def test_an_old_result_cannot_be_posted_back_from_its_history(client: Client) -> None:
    _superuser(client)
    table = _finished_table(TournamentFactory())
    version = table.result.history.earliest("history_date")
    url = _url("admin:league_tableresult_simple_history", table.result.pk, version.history_id)
    assert client.post(url, {"hands_count": 99}).status_code == 403
    table.result.refresh_from_db()
    assert table.result.hands_count == 4


def test_the_api_does_not_change_a_rounds_status_as_a_field(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    round_ = _published_round(tournament)
    response = client.patch(
        f"/api/rounds/{round_.pk}/",
        {"status": "finished"},
        content_type="application/json",
    )
    round_.refresh_from_db()
    assert response.status_code in (200, 400)
    assert round_.status == Round.Status.PUBLISHED


def test_the_round_form_shows_no_quality_report_as_json_and_byes_of_its_own_tournament(
    client: Client,
) -> None:
    # Given an organiser of two tournaments, one round of the first with a quality report
    me = _organiser(client)
    mine, other = TournamentFactory(), TournamentFactory()
    for t in (mine, other):
        t.organisers.add(me)
    here = EntryFactory(tournament=mine)
    elsewhere = EntryFactory(tournament=other)
    round_ = round_create(tournament=mine)
    round_.quality = {"table_count": 1, "rematches": 0}
    round_.save()
    # When the round's page is opened
    page = client.get(_url("admin:league_round_change", round_.pk))
    form = page.context["adminform"].form
    # Then the report is no field of the form, and byes offer this tournament's entries only
    assert "quality" not in form.fields
    assert '{"table_count"' not in page.text and "{&quot;table_count" not in page.text
    assert list(form.fields["byes"].queryset) == [here]
    assert elsewhere.display_name not in str(form["byes"])
    # And the stage is shown, not chosen: a knockout round comes from the bracket's services
    assert "stage" not in form.fields
    data = _form_data(page)
    data["stage"] = Round.Stage.KNOCKOUT
    client.post(_url("admin:league_round_change", round_.pk), data)
    round_.refresh_from_db()
    assert round_.stage == Round.Stage.PAIRED


# --- Entries and their members ----------------------------------------------------------------


def test_the_same_player_twice_is_refused_at_the_inlines_player_field(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    player = PlayerFactory()
    entry_create(tournament=tournament, player=player)
    url = _url("admin:league_tournament_change", tournament.pk)
    data = _form_data(client.get(url))
    _add_row(data, "entries", player=player.pk)
    response = client.post(url, data)
    formset = response.context["inline_admin_formsets"][0].formset
    assert "is already registered in this tournament." in str(formset.forms[1]["player"].errors)
    assert EntryMember.objects.filter(tournament=tournament, player=player).count() == 1


def _csv_import(client: Client, model: str, csv: str) -> Any:
    return client.post(
        _url(f"admin:league_{model}_import"),
        {
            "resource": "0",
            "format": "0",
            "import_file": SimpleUploadedFile(f"{model}.csv", csv.encode(), "text/csv"),
        },
    )


def _csv_confirm(client: Client, model: str, response: Any) -> Any:
    return client.post(
        _url(f"admin:league_{model}_process_import"), response.context["confirm_form"].initial
    )


def test_entries_imported_by_csv_get_their_members(client: Client) -> None:
    _superuser(client)
    tournament = TournamentFactory(slug="piala")
    ani, budi = PlayerFactory(slug="ani"), PlayerFactory(slug="budi")
    preview = _csv_import(client, "entry", "tournament,player,seed\npiala,ani,1\npiala,budi,2\n")
    assert preview.status_code == 200 and preview.context["confirm_form"] is not None
    assert not Entry.objects.filter(tournament=tournament).exists()
    # And the preview's withdrawn column reads 0, not Python's English "False"
    rows = re.findall(r"<tr class=\"new\">(.*?)</tr>", preview.content.decode(), re.S)
    assert len(rows) == 2
    for row in rows:
        cells = [re.sub(r"<[^>]+>|\s", "", c) for c in re.findall(r"<td.*?</td>", row, re.S)]
        assert cells[-1] == "0", cells
    assert _csv_confirm(client, "entry", preview).status_code == 302
    members = EntryMember.objects.filter(tournament=tournament)
    assert set(members.values_list("player_id", flat=True)) == {ani.pk, budi.pk}


def test_a_player_already_entered_is_a_csv_rows_error_and_nothing_is_imported(
    client: Client,
) -> None:
    # Given Ani with Budi in a partnership tournament
    _superuser(client)
    tournament = TournamentFactory(
        slug="pasangan", format=Tournament.Format.FIXED_PARTNERSHIP, table_size="4"
    )
    ani, budi, citra = PlayerFactory(), PlayerFactory(), PlayerFactory()
    dewi, eko = PlayerFactory(), PlayerFactory()
    entry_create(tournament=tournament, partnership=partnership_create(player_a=ani, player_b=budi))
    fresh = partnership_create(player_a=dewi, player_b=eko)
    again = partnership_create(player_a=ani, player_b=citra)
    # When a file enters a new pair and Ani again with Citra
    csv = f"tournament,partnership\npasangan,{fresh.slug}\npasangan,{again.slug}\n"
    response = _csv_import(client, "entry", csv)
    # Then that row is refused naming Ani, and the good row is not imported either
    assert response.status_code == 200
    assert response.context.get("confirm_form") is None
    assert escape(f"{ani} is already registered in this tournament.") in response.text
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_a_partnerships_players_cannot_change_once_it_is_entered(client: Client) -> None:
    # Given Ani and Budi entered as a partnership
    _superuser(client)
    tournament = TournamentFactory(format=Tournament.Format.FIXED_PARTNERSHIP, table_size="4")
    ani, budi, citra = PlayerFactory(), PlayerFactory(), PlayerFactory()
    pair = partnership_create(player_a=ani, player_b=budi)
    entry_create(tournament=tournament, partnership=pair)
    url = _url("admin:league_partnership_change", pair.pk)
    # When Budi is swapped for Citra on the partnership's page
    data = _form_data(client.get(url))
    data["player_b"] = citra.pk
    response = client.post(url, data)
    # Then the players' field says why, and the entry still fields Ani and Budi
    assert response.status_code == 200
    assert "so its players cannot change" in str(
        response.context["adminform"].form["player_b"].errors
    )
    pair.refresh_from_db()
    assert pair.player_b == budi
    # And the API refuses the same change
    api = client.patch(
        f"/api/partnerships/{pair.pk}/", {"player_b": citra.pk}, content_type="application/json"
    )
    assert api.status_code == 400
    pair.refresh_from_db()
    assert pair.player_b == budi


def test_a_pairing_with_a_player_in_two_entries_says_so_not_that_the_queue_is_down(
    django_capture_on_commit_callbacks: Any,
) -> None:
    # Given two partnerships sharing Ani, entered without the registration service (as
    # an old inline did: no members), and two more pairs
    tournament = TournamentFactory(format=Tournament.Format.FIXED_PARTNERSHIP, table_size="4")
    ani = PlayerFactory(name="Ani")
    first = partnership_create(player_a=ani, player_b=PlayerFactory(name="Budi"))
    second = partnership_create(player_a=ani, player_b=PlayerFactory(name="Citra"))
    for pair in (first, second):
        Entry.objects.create(tournament=tournament, partnership=pair)
    for _ in range(2):
        entry_create(
            tournament=tournament,
            partnership=partnership_create(player_a=PlayerFactory(), player_b=PlayerFactory()),
        )
    round_ = round_create(tournament=tournament)
    # When the round is paired (tasks run at once here), in Indonesian
    with translation.override("id"), django_capture_on_commit_callbacks(execute=True):
        round_pair_request(round=round_)
    with translation.override("id"):
        queue = translation.gettext(
            "The task queue could not be reached; please try again shortly."
        )
    progress = round_pair_progress(round_id=round_.pk)
    # Then the pairing failed naming Ani and both entries, nothing is seated, and the
    # organiser is not told the queue is unreachable
    assert progress["state"] == "failed"
    assert "Ani" in progress["message"]
    assert "Ani & Budi" in progress["message"] and "Ani & Citra" in progress["message"]
    assert progress["message"] != queue
    assert not Seat.objects.filter(table__round=round_).exists()


# --- Results and the standings ---------------------------------------------------------------


def test_an_organiser_sees_a_result_in_the_admin_but_cannot_post_a_change(
    client: Client,
) -> None:
    # Given an organiser (not a superuser) of a tournament with a finished table
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    table = _finished_table(tournament)
    url = _url("admin:league_tableresult_change", table.result.pk)
    # When they post a change to the result's page
    page = client.get(url)
    response = client.post(url, {"hands_count": 9, "finished_at_0": "2026-01-01"})
    # Then the page is view-only and nothing changed behind the standings' back
    assert page.status_code == 200 and 'name="_save"' not in page.text
    assert response.status_code == 403
    table.result.refresh_from_db()
    assert table.result.hands_count == 4


def test_an_organiser_voiding_a_finished_match_in_the_admin_marks_the_standings_stale(
    client: Client,
) -> None:
    # Given an organiser's finished table with its match
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    table = _finished_table(tournament)
    match = match_for_table(table=table)
    before = _requested(tournament)
    # When they void the match with the admin's action
    client.post(
        _url("admin:matches_match_changelist"),
        {"action": "void_matches", "_selected_action": [match.pk]},
    )
    # Then the result is gone and the standings are due a refresh
    table.refresh_from_db()
    assert not TableResult.objects.filter(table=table).exists()
    assert _requested(tournament) > before


# --- The tournament form's lists -----------------------------------------------------------


def test_the_tiebreak_order_and_placing_points_round_trip_through_the_form(
    client: Client,
) -> None:
    me = _organiser(client)
    tournament = TournamentFactory(tiebreaks=["match_points", "lot"], placing_points_3=[])
    tournament.organisers.add(me)
    url = _url("admin:league_tournament_change", tournament.pk)
    page = client.get(url)
    # The stored order shows as list items, the placing points as three number inputs
    assert 'data-key="match_points"' in page.text and 'data-key="lot"' in page.text
    assert page.text.count('name="placing_points_3_') == 3
    assert ">[]<" not in page.text
    data = _form_data(page)
    data["tiebreaks"] = ["match_points", "buchholz", "lot"]
    data.update({"placing_points_3_0": "4", "placing_points_3_1": "1.5", "placing_points_3_2": "0"})
    response = client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    tournament.refresh_from_db()
    assert tournament.tiebreaks == ["match_points", "buchholz", "lot"]
    assert tournament.placing_points_3 == [4.0, 1.5, 0.0]
    # And the form shows them back as it stored them
    again = client.get(url).context["adminform"].form
    assert again["tiebreaks"].value() == ["match_points", "buchholz", "lot"]


def test_a_new_tiebreak_order_or_points_re_rank_the_standings(client: Client) -> None:
    # Given a tournament with a finished table and its standings computed
    me = _organiser(client)
    tournament = TournamentFactory(tiebreaks=["match_points", "lot"])
    tournament.organisers.add(me)
    _finished_table(tournament)
    before = _requested(tournament)
    url = _url("admin:league_tournament_change", tournament.pk)
    # When only the venue changes, the standings are left alone
    data = _form_data(client.get(url))
    data["venue"] = "Balai Kota"
    assert client.post(url, data).status_code == 302
    assert _requested(tournament) == before
    # But a new tiebreak order asks for them again
    data = _form_data(client.get(url))
    data["tiebreaks"] = ["match_points", "wins", "lot"]
    assert client.post(url, data).status_code == 302
    assert _requested(tournament) > before
    # And so do new match points through the API
    again = _requested(tournament)
    api = client.patch(
        f"/api/tournaments/{tournament.pk}/", {"points_win": "3"}, content_type="application/json"
    )
    assert api.status_code == 200, api.content
    assert _requested(tournament) > again


def test_a_tiebreak_order_the_validator_refuses_is_a_field_error(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory(tiebreaks=[])
    tournament.organisers.add(me)
    url = _url("admin:league_tournament_change", tournament.pk)
    data = _form_data(client.get(url))
    data["tiebreaks"] = ["lot", "match_points"]
    data.update({"placing_points_3_0": "3", "placing_points_3_1": "", "placing_points_3_2": ""})
    response = client.post(url, data)
    form = response.context["adminform"].form
    assert "must come last" in str(form["tiebreaks"].errors)
    assert "Give all three numbers" in str(form["placing_points_3"].errors)
    tournament.refresh_from_db()
    assert tournament.tiebreaks == []


def test_an_emptied_tiebreak_order_means_the_formats_default(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory(tiebreaks=["match_points", "lot"], placing_points_3=[3, 1, 0])
    tournament.organisers.add(me)
    url = _url("admin:league_tournament_change", tournament.pk)
    data = _form_data(client.get(url))
    data.pop("tiebreaks")
    for i in range(3):
        data[f"placing_points_3_{i}"] = ""
    assert client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.tiebreaks, tournament.placing_points_3) == ([], [])


# --- Seats from 1 ------------------------------------------------------------------------------


def test_the_seat_inline_counts_seats_from_one(client: Client) -> None:
    me = _organiser(client)
    tournament = TournamentFactory()
    tournament.organisers.add(me)
    round_ = round_create(tournament=tournament)
    a, b = EntryFactory(tournament=tournament), EntryFactory(tournament=tournament)
    table = table_create(round=round_, number=1, seats=seats_for_entries([a, b], player_count=2))
    url = _url("admin:league_table_change", table.pk)
    page = client.get(url)
    forms = page.context["inline_admin_formsets"][0].formset.initial_forms
    assert [f["number"].value() for f in forms] == [1, 2]
    # Seat 3 at a table of two is refused in people's numbers
    Seat.objects.filter(table=table, number=1).delete()
    data = _form_data(client.get(url))
    _add_row(data, "seats", number=3, entry=b.pk, player=b.player_id)
    response = client.post(url, data)
    assert "A table of 2 players has seats 1 to 2." in response.text
    # Seat 2 is the stored seat 1
    data["seats-1-number"] = 2
    assert client.post(url, data).status_code == 302
    assert table.seats.get(player=b.player).number == 1


# --- Partnerships in bulk ---------------------------------------------------------------------


def _club_organiser(client: Client) -> tuple[Any, Any]:
    me = _organiser(client)
    club = ClubFactory()
    membership_add(club=club, user=me, role=Membership.Role.ORGANISER)
    return me, club


def test_a_csv_of_pairs_previews_then_makes_the_partnerships(client: Client) -> None:
    _me, club = _club_organiser(client)
    ani = PlayerFactory(name="Ani", slug="ani", home_club=club)
    budi = PlayerFactory(name="Budi", home_club=club)
    citra = PlayerFactory(name="Citra", home_club=club)
    dewi = PlayerFactory(name="Dewi", slug="dewi-s", home_club=club)
    csv = "player_a,player_b,name\nani,Budi,Pasangan Satu\nCitra,dewi-s,\n"
    preview = _csv_import(client, "partnership", csv)
    assert preview.status_code == 200 and preview.context["confirm_form"] is not None
    assert not Partnership.objects.exists()
    assert _csv_confirm(client, "partnership", preview).status_code == 302
    made = {(p.player_a, p.player_b): p.name for p in Partnership.objects.all()}
    assert made == {(ani, budi): "Pasangan Satu", (citra, dewi): "Citra & Dewi"}


def test_a_csv_of_pairs_with_bad_rows_names_each_and_imports_nothing(client: Client) -> None:
    _me, club = _club_organiser(client)
    ani = PlayerFactory(name="Ani", home_club=club)
    budi = PlayerFactory(name="Budi", home_club=club)
    PlayerFactory(name="Citra", home_club=club)
    partnership_create(player_a=ani, player_b=budi)
    csv = "player_a,player_b\nCitra,Zaki\nBudi,Ani\nCitra,Citra\n"
    response = _csv_import(client, "partnership", csv)
    assert response.status_code == 200
    assert response.context.get("confirm_form") is None
    assert "None of your clubs&#x27; players is named Zaki." in response.text
    assert "are already partners" in response.text
    assert "A partnership needs two different players." in response.text
    assert Partnership.objects.count() == 1


def test_make_partnerships_pairs_the_selected_players_and_refuses_an_odd_count(
    client: Client,
) -> None:
    _me, club = _club_organiser(client)
    players = [PlayerFactory(name=n, home_club=club) for n in ("Ani", "Budi", "Citra", "Dewi")]
    url = _url("admin:league_player_changelist")
    odd = client.post(
        url,
        {"action": "make_partnerships", "_selected_action": [p.pk for p in players[:3]]},
        follow=True,
    )
    assert "Choose an even number of players" in odd.text
    assert not Partnership.objects.exists()
    ids = [p.pk for p in players]
    shown = client.post(url, {"action": "make_partnerships", "_selected_action": ids})
    assert shown.status_code == 200 and "Ani" in shown.text and "Budi" in shown.text
    assert not Partnership.objects.exists()
    client.post(url, {"action": "make_partnerships", "_selected_action": ids, "apply": "1"})
    pairs = {(p.player_a.name, p.player_b.name) for p in Partnership.objects.all()}
    assert pairs == {("Ani", "Budi"), ("Citra", "Dewi")}
