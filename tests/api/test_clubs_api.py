"""Clubs and memberships in the API: documented in the OpenAPI schema, and listed through
``league.policy`` — everyone reads the clubs, a member reads their own clubs' memberships
and nobody else's, and a club's organisers manage its members."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from league.models import Membership
from league.services.clubs import membership_add
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_schema_documents_clubs_memberships_and_rule_set_copies() -> None:
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    assert set(paths["/api/clubs/"]) >= {"get", "post"}
    assert set(paths["/api/clubs/{id}/"]) >= {"get", "put", "patch", "delete"}
    assert set(paths["/api/memberships/"]) >= {"get", "post"}
    assert set(paths["/api/memberships/{id}/"]) >= {"get", "patch", "delete"}
    assert "post" in paths["/api/rulesets/{id}/copy/"]
    roles = schema["components"]["schemas"]["RoleEnum"]["enum"]
    assert set(roles) == {"organiser", "scorekeeper", "member"}


@pytest.fixture
def clubs() -> dict[str, Any]:
    a, b = ClubFactory(name="Klub A"), ClubFactory(name="Klub B")
    users = {name: UserFactory(username=name, is_staff=True) for name in ("ka", "kb", "sa")}
    membership_add(club=a, user=users["ka"], role=Membership.Role.ORGANISER)
    membership_add(club=b, user=users["kb"], role=Membership.Role.ORGANISER)
    membership_add(club=a, user=users["sa"], role=Membership.Role.SCOREKEEPER)
    return {"a": a, "b": b, **users}


def _names(client: APIClient, url: str) -> set[str]:
    response = client.get(url)
    assert response.status_code == 200
    return {str(row.get("name") or row.get("user")) for row in response.json()["results"]}


def _as(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_everyone_reads_the_clubs(clubs: dict[str, Any]) -> None:
    assert _names(_as(), "/api/clubs/") == {"Klub A", "Klub B"}


def test_memberships_are_listed_only_to_the_clubs_members(clubs: dict[str, Any]) -> None:
    ka, kb, sa = clubs["ka"], clubs["kb"], clubs["sa"]
    listed = {
        who: {(m["club"], m["role"]) for m in _as(u).get("/api/memberships/").json()["results"]}
        for who, u in (("ka", ka), ("kb", kb), ("sa", sa))
    }
    a, b = clubs["a"].pk, clubs["b"].pk
    assert listed["ka"] == listed["sa"] == {(a, "organiser"), (a, "scorekeeper")}
    assert listed["kb"] == {(b, "organiser")}
    assert _as().get("/api/memberships/").json()["results"] == []


def test_a_clubs_organiser_adds_a_member_but_not_to_another_club(clubs: dict[str, Any]) -> None:
    newcomer = UserFactory(username="baru")
    api = _as(clubs["ka"])
    added = api.post(
        "/api/memberships/",
        {"club": clubs["a"].pk, "user": "baru", "role": "member"},
        format="json",
    )
    refused = api.post(
        "/api/memberships/",
        {"club": clubs["b"].pk, "user": "baru", "role": "organiser"},
        format="json",
    )
    assert added.status_code == 201, added.json()
    assert refused.status_code == 403
    assert set(Membership.objects.filter(user=newcomer).values_list("club__name", "role")) == {
        ("Klub A", "member")
    }
