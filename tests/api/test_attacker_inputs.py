"""An attacker's inputs are refused cleanly, always in the error envelope, never with a
server error: oversize and malformed bodies, wrong types, negative or huge numbers,
unknown fields, SQL in names, huge ids in paths and filters."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from league.api.pagination import Pagination
from league.models import Player, Tournament
from tests.factories import SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def root() -> APIClient:
    client = APIClient()
    client.force_authenticate(UserFactory(is_superuser=True, is_staff=True))
    return client


def _envelope(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    body = response.json()
    assert body["ok"] is False
    assert body["error"]["code"]
    assert body["error"]["message"]
    return dict(body["error"])


@override_settings(API_MAX_BODY_BYTES=2000)
def test_an_oversize_body_is_refused_with_413(root: APIClient) -> None:
    body = '{"name": "' + "x" * 5000 + '"}'
    response = root.post("/api/players/", body, content_type="application/json")
    assert _envelope(response, 413)["code"] == "too_large"
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("[" * 100_000 + "]" * 100_000, "nesting"),
        ('{"name": ', "truncated"),
        ('{"name": NaN}', "NaN"),
        ('{"name": "a"}garbage', "trailing"),
        ("\xff\xfe", "not UTF-8"),
    ],
)
def test_malformed_json_is_a_400(root: APIClient, raw: str, why: str) -> None:
    response = root.post("/api/players/", raw.encode("latin-1"), content_type="application/json")
    assert _envelope(response, 400)["code"] == "parse_error", why


@pytest.mark.parametrize("body", [[], ["name"], "Budi", 42, None])
def test_a_body_that_is_not_an_object_is_a_400(root: APIClient, body: Any) -> None:
    response = root.post("/api/players/", body, format="json")
    _envelope(response, 400)


def test_form_bodies_are_not_accepted(root: APIClient) -> None:
    response = root.post("/api/players/", {"name": "Budi"}, format="multipart")
    assert _envelope(response, 415)["code"] == "unsupported_media_type"


def test_unknown_fields_are_refused(root: APIClient) -> None:
    response = root.post(
        "/api/players/", {"name": "Budi", "is_superuser": True, "emial": "x"}, format="json"
    )
    error = _envelope(response, 400)
    assert error["field_codes"] == {"emial": ["unknown_field"], "is_superuser": ["unknown_field"]}
    assert not Player.objects.exists()


def _tournament_body(**overrides: Any) -> dict[str, Any]:
    return {"name": "Piala", "season": SeasonFactory().pk, **overrides}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("rounds_count", -1),
        ("rounds_count", 0),
        ("rounds_count", 10**30),
        ("rounds_count", "abc"),
        ("rounds_count", 2.5),
        ("rounds_count", [1]),
        ("seed", -5),
        ("seed", 2**63),
        ("points_win", "-1e308"),
        ("points_win", "1e309"),
        ("points_win", "NaN"),
        ("status", "hacked"),
        ("format", {"$gt": ""}),
        ("name", ["x"]),
        ("name", "x" * 10_000),
        ("season", 10**25),
        ("season", -1),
        ("placing_points_3", [1, 2, 3, 4]),
        ("placing_points_3", [-1, 0, 0]),
        ("tiebreaks", ["match_points", "'; DROP TABLE league_tournament; --"]),
        ("tiebreaks", "lot"),
        ("starts_on", "2026-02-30"),
        ("starts_on", "0000-01-01"),
    ],
)
def test_wrong_types_and_out_of_range_numbers_are_400(
    root: APIClient, field: str, value: Any
) -> None:
    response = root.post("/api/tournaments/", _tournament_body(**{field: value}), format="json")
    error = _envelope(response, 400)
    assert field in error["fields"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/players/99999999999999999999999999/", 404),
        ("/api/players/-1/", 404),
        ("/api/players/abc/", 404),
        ("/api/tournaments/9223372036854775808/", 404),
        ("/api/tables/?tournament=99999999999999999999999", 400),
        ("/api/tables/?round=-4", 400),
        ("/api/tables/?player_count=9", 400),
        ("/api/players/?page=999999", 404),
        ("/api/players/?page=abc", 400),
    ],
)
def test_huge_or_bad_ids_are_clean_errors(url: str, status: int) -> None:
    response = APIClient().get(url)
    _envelope(response, status)


def test_page_size_is_capped() -> None:
    # Given more players than the largest page holds
    cap = Pagination.max_page_size
    Player.objects.bulk_create(Player(name=f"P{i:03}", slug=f"p{i:03}") for i in range(cap + 5))
    # When a client asks for a page far larger than the cap
    response = APIClient().get("/api/players/?page_size=100000")
    # Then it gets exactly the cap, and the next page has the rest
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == cap + 5
    assert len(body["results"]) == cap
    assert body["next"] is not None


def test_ordering_by_a_private_field_is_ignored() -> None:
    # Sorting by email would leak it one comparison at a time.
    for i, email in enumerate(["z@example.org", "a@example.org"]):
        Player.objects.create(name=f"P{i}", slug=f"p{i}", email=email)
    names = [
        row["name"] for row in APIClient().get("/api/players/?ordering=email").json()["results"]
    ]
    assert names == ["P0", "P1"]


SQL = "Robert'); DROP TABLE league_player; --"


def test_sql_in_names_is_stored_as_text_and_never_run(root: APIClient) -> None:
    # When a player is created with SQL in the name, and searched for with SQL
    created = root.post("/api/players/", {"name": SQL, "club": "' OR '1'='1"}, format="json")
    assert created.status_code == 201, created.content
    search = APIClient().get("/api/players/", {"name": "' OR '1'='1"})
    club = APIClient().get("/api/players/", {"club": "' OR 1=1 --"})
    # Then the name is kept literally, the table still exists, and the searches match nothing
    assert Player.objects.get().name == SQL
    assert "league_player" in connection.introspection.table_names()
    assert search.json()["count"] == 0
    assert club.json()["count"] == 0
