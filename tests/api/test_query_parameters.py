"""Query parameters keep to the schema: what it calls invalid is refused with 400 in the
envelope (junk page numbers and sizes, booleans other than true/false, empty values,
ids out of range), what it calls valid is served, and the limits are in the schema."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league.models import Tournament
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/players/?page_size=false", "page_size"),
        ("/api/players/?page_size=0", "page_size"),
        ("/api/players/?page_size=-3", "page_size"),
        ("/api/players/?page_size=", "page_size"),
        ("/api/players/?page=0", "page"),
        ("/api/players/?page=last", "page"),
        ("/api/players/?is_active=.exe", "is_active"),
        ("/api/players/?is_active=1", "is_active"),
        ("/api/players/?is_active=", "is_active"),
        ("/api/entries/?is_withdrawn=-1", "is_withdrawn"),
        ("/api/divisions/?season=", "season"),
        ("/api/tournaments/?format=", "format"),
        ("/api/rounds/?number=0", "number"),
        ("/api/rounds/?number=1001", "number"),
    ],
)
def test_junk_in_a_query_parameter_is_400_naming_it(url: str, field: str) -> None:
    # When a list is asked for with a value the schema does not allow
    response = APIClient().get(url)
    # Then it is refused in the envelope, naming the parameter
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["ok"] is False
    assert field in body["error"]["fields"]


def test_a_boolean_filter_takes_the_words_true_and_false() -> None:
    # Given an active and a retired player
    PlayerFactory(name="Ani", is_active=True)
    PlayerFactory(name="Budi", is_active=False)

    def names(query: str) -> list[str]:
        response = APIClient().get(f"/api/players/?{query}")
        assert response.status_code == 200, response.content[:300]
        return [row["name"] for row in response.json()["results"]]

    # Then each word selects its players, and leaving it out selects both
    assert names("is_active=true") == ["Ani"]
    assert names("is_active=false") == ["Budi"]
    assert sorted(names("page_size=10")) == ["Ani", "Budi"]


def test_tournaments_filter_by_their_format_despite_drf_reading_format_as_a_renderer() -> None:
    # Given a Swiss tournament and a round robin
    TournamentFactory(name="Swiss", format=Tournament.Format.SWISS)
    TournamentFactory(name="Liga", format=Tournament.Format.ROUND_ROBIN)
    # When the list is filtered by format
    response = APIClient().get("/api/tournaments/?format=round_robin")
    # Then it is the round robin only, as JSON
    assert response.status_code == 200, response.content[:300]
    assert [row["name"] for row in response.json()["results"]] == ["Liga"]


def _parameters(client: Any, path: str) -> dict[str, dict[str, Any]]:
    operation = client.get("/api/schema/?format=json").json()["paths"][path]["get"]
    return {p["name"]: p["schema"] for p in operation["parameters"]}


def test_the_schema_declares_the_limits_the_filters_enforce(client: Any) -> None:
    # Given the parameters of two lists in the served schema
    rounds = _parameters(client, "/api/rounds/")
    players = _parameters(client, "/api/players/")
    # Then ids start at 1, a round number stops at 1000, texts have their length
    assert rounds["tournament"]["minimum"] == 1
    assert (rounds["number"]["minimum"], rounds["number"]["maximum"]) == (1, 1000)
    assert players["name"]["maxLength"] == 120
    # And pages start at 1; a page size has no maximum, because a larger one is capped
    assert players["page"]["minimum"] == 1
    assert players["page_size"]["minimum"] == 1
    assert "maximum" not in players["page_size"]
