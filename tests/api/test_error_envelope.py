"""Every error under /api/ answers in the JSON envelope, including the ones Django gives
before or after DRF: unknown paths, methods, bodies of any size (over Django's own
limit too), server errors and a database that is away."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from league.api.views import RuleSetViewSet
from league.services.tokens import api_token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    assert body["ok"] is False
    assert isinstance(body["error"]["code"], str) and body["error"]["message"]
    return dict(body["error"])


@pytest.fixture
def root() -> APIClient:
    key = api_token_create(user=UserFactory(is_superuser=True, is_staff=True), name="t").key
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.mark.parametrize("path", ["/api/nope/", "/api/rulesets/999999/", "/api/x/y/z"])
def test_unknown_api_paths_are_404_in_the_envelope(path: str) -> None:
    assert _error(Client().get(path), 404)["code"] == "not_found"


def test_a_method_an_endpoint_does_not_have_is_405_in_the_envelope(root: APIClient) -> None:
    assert _error(root.patch("/api/rulesets/", {}), 405)["code"] == "method_not_allowed"


def test_the_schema_view_answers_its_errors_in_json_too() -> None:
    assert _error(Client().delete("/api/schema/"), 405)["code"] == "method_not_allowed"


@pytest.mark.parametrize(
    "size",
    [
        settings.API_MAX_BODY_BYTES + 1,
        settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1,
        3 * settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
    ],
)
def test_a_body_of_any_size_over_the_limit_is_413_in_the_envelope(
    root: APIClient, size: int
) -> None:
    # Given a JSON body over the API's limit, or over Django's own, larger one
    body = '{"name": "' + "x" * size + '"}'
    # When it is posted
    response = root.post("/api/rulesets/", body, content_type="application/json")
    # Then the API answers 413 in the envelope, never Django's HTML 400
    assert _error(response, 413)["code"] == "too_large"


def test_a_server_error_is_500_in_the_envelope(monkeypatch: Any) -> None:
    # Given a view that breaks
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(RuleSetViewSet, "list", broken)
    # When it is called
    response = Client(raise_request_exception=False).get("/api/rulesets/")
    # Then the caller gets the envelope, and nothing of the bug
    error = _error(response, 500)
    assert error["code"] == "server_error"
    assert b"a bug" not in response.content


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every new cursor fails as when the database server is gone."""

    def refuse(self: BaseDatabaseWrapper) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)
    yield


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/api/rulesets/"), ("get", "/api/tournaments/1/"), ("post", "/api/players/")],
)
def test_with_the_database_down_the_api_answers_503_in_the_envelope(
    root: APIClient, method: str, path: str, database_down: None
) -> None:
    # Given the database gone, when a program with a token calls the API
    response = getattr(root, method)(path, {"name": "Ani"}, format="json")
    # Then it is told to retry, in the envelope (the token check itself needs the database)
    assert _error(response, 503)["code"] == "unavailable"
    assert int(response["Retry-After"]) > 0


def test_with_the_database_down_an_anonymous_read_is_503_in_the_envelope(
    database_down: None,
) -> None:
    response = Client(raise_request_exception=False).get("/api/rulesets/")
    assert _error(response, 503)["code"] == "unavailable"


def test_outside_the_api_django_keeps_its_pages(monkeypatch: Any) -> None:
    # Given a page path that does not exist, then the site's 404 page, not JSON
    response = Client().get("/en/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_a_database_error_django_handles_itself_is_503_in_the_envelope() -> None:
    # Given a request under /api/ whose handling failed on the database outside DRF
    # (in a middleware, say): Django calls handler500 while handling the exception
    from league.api.views import api_server_error

    request = RequestFactory().get("/api/rulesets/")
    try:
        raise OperationalError("server closed the connection")
    except OperationalError:
        response = api_server_error(request)
    # Then the answer is the envelope's 503, as from inside the API
    assert _error(response, 503)["code"] == "unavailable"


def test_an_error_of_no_one_field_keys_its_codes_like_its_messages() -> None:
    # Given a service refusal that concerns no one field (as "round is not a draft")
    from django.core.exceptions import ValidationError

    from league.api.errors import api_exception_handler

    refusal = ValidationError("The round is not a draft.", code="not_draft")
    # When the API's handler shapes it
    response = api_exception_handler(refusal, {})
    # Then fields and field_codes are both objects keyed alike, as the schema says
    assert response is not None and response.status_code == 400
    error = response.data["error"]
    assert error["code"] == "not_draft"
    assert error["fields"] == {"non_field_errors": ["The round is not a draft."]}
    assert error["field_codes"] == {"non_field_errors": ["not_draft"]}
