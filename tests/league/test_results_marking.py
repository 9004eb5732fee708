"""Results without hands are marked as such wherever results show: the round and player
pages (in Indonesian), the results CSV, the API and its schema, and the admin's form."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from league.models import ResultKind, Round, TableResult, Tournament
from league.services.results import (
    table_agreed_record,
    table_double_forfeit_record,
    table_forfeit_record,
)
from matches.models import Match
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    RuleSetFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return UserFactory(username="panitia", is_staff=True)


@pytest.fixture
def day(organiser: Any) -> dict[str, Any]:
    """Round 1 of a two-player tournament: a walkover, a double walkover, an agreed score."""
    tournament = TournamentFactory(
        status=Tournament.Status.RUNNING, slug="wo-cup", rule_set=RuleSetFactory()
    )
    tournament.organisers.add(organiser)
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    names = ["Ani", "Budi", "Citra", "Dedi", "Eka", "Fajar"]
    entries = [
        EntryFactory(tournament=tournament, player=PlayerFactory(name=n, slug=n.lower()))
        for n in names
    ]
    tables = []
    for number in range(3):
        table = TableFactory(round=round_, number=number + 1, player_count=2, target=250)
        for seat in range(2):
            entry = entries[2 * number + seat]
            SeatFactory(table=table, number=seat, entry=entry, player=entry.player)
        tables.append(table)
    table_forfeit_record(table_id=tables[0].pk, present_side=0, user=organiser)
    table_double_forfeit_record(table_id=tables[1].pk, user=organiser)
    table_agreed_record(table_id=tables[2].pk, totals={0: 180, 1: 230}, user=organiser)
    return {"tournament": tournament, "round": round_, "tables": tables}


def _get_id(client: Client, url: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="id")
    assert response.status_code == 200
    return response.content.decode()


def test_the_round_page_marks_each_result_without_hands_in_indonesian(
    client: Client, day: dict[str, Any]
) -> None:
    page = _get_id(client, reverse("league:round", args=["wo-cup", 1]))
    assert "menang WO" in page and "kalah WO" in page
    assert "WO ganda" in page and "Skor disepakati" in page
    for english in ("walkover", "Walkover", "Agreed score"):
        assert english not in page


def test_the_player_page_says_won_and_lost_by_walkover(client: Client, day: dict[str, Any]) -> None:
    assert "menang WO" in _get_id(client, reverse("league:player", args=["ani"]))
    assert "kalah WO" in _get_id(client, reverse("league:player", args=["budi"]))
    assert "WO ganda" in _get_id(client, reverse("league:player", args=["citra"]))


def test_the_results_csv_names_the_kind_of_each_result(client: Client, day: dict[str, Any]) -> None:
    page = _get_id(client, reverse("league:tournament", args=["wo-cup"]))
    assert reverse("league:tournament_results_csv", args=["wo-cup"]) in page
    response = client.get(
        reverse("league:tournament_results_csv", args=["wo-cup"]), HTTP_ACCEPT_LANGUAGE="id"
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["Putaran", "Meja", "Pihak", "Poin", "Hasil", "Jenis hasil"]
    by_name = {row[2]: row for row in rows[1:]}
    assert by_name["Ani"][3:] == ["250", "Menang", "WO"]
    assert by_name["Budi"][3:] == ["0", "Kalah", "WO"]
    assert by_name["Citra"][4:] == ["Kalah", "WO ganda"] == by_name["Dedi"][4:]
    assert by_name["Fajar"][3:] == ["230", "Menang", "Skor disepakati"]


def test_the_api_gives_the_kind_of_result_and_the_schema_documents_it(
    day: dict[str, Any], organiser: Any
) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    table = day["tables"][0]
    response = client.get(f"/api/tables/{table.pk}/")
    assert response.status_code == 200, response.content
    assert response.json()["result"]["kind"] == "forfeit"
    schema = SchemaGenerator().get_schema(request=None, public=True)
    kind = schema["components"]["schemas"]["TableResult"]["properties"]["kind"]
    enum_name = kind.get("allOf", [kind])[0].get("$ref", "").rsplit("/", 1)[-1]
    values = schema["components"]["schemas"][enum_name]["enum"] if enum_name else kind["enum"]
    assert set(values) == set(ResultKind.values)


def test_the_admin_form_records_a_walkover_for_the_side_present(
    client: Client, organiser: Any
) -> None:
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, rule_set=RuleSetFactory())
    tournament.organisers.add(organiser)
    table = TableFactory(round=RoundFactory(tournament=tournament), player_count=2, target=200)
    for seat, name in enumerate(("Gita", "Hadi")):
        entry = EntryFactory(tournament=tournament, player=PlayerFactory(name=name))
        SeatFactory(table=table, number=seat, entry=entry, player=entry.player)
    client.force_login(organiser)
    url = reverse("admin:league_table_result_without_hands", args=[table.pk])
    with translation.override("id"):
        form_page = client.get(url, HTTP_ACCEPT_LANGUAGE="id").content.decode()
    assert "Gita" in form_page and "Hadi" in form_page and "WO ganda" in form_page
    missing = client.post(url, {"kind": "forfeit"}, HTTP_ACCEPT_LANGUAGE="id")
    assert missing.status_code == 200 and "Pilih pihak yang hadir." in missing.content.decode()
    assert not TableResult.objects.filter(table=table).exists()
    done = client.post(url, {"kind": "forfeit", "present": "1"}, HTTP_ACCEPT_LANGUAGE="id")
    assert done.status_code == 302
    result = TableResult.objects.get(table=table)
    assert result.kind == ResultKind.FORFEIT
    assert {s.side: s.is_winner for s in result.sides.all()} == {0: False, 1: True}


def test_the_scoring_page_of_a_walkover_table_says_there_is_nothing_to_score(
    client: Client, day: dict[str, Any], organiser: Any
) -> None:
    client.force_login(organiser)
    table = day["tables"][0]
    page = _get_id(client, reverse("matches:table_scorekeeper", args=[table.pk]))
    assert "WO: hasil meja ini dicatat penyelenggara tanpa ronde." in page
    assert not Match.objects.filter(table=table).exists()  # no empty match is made for it
