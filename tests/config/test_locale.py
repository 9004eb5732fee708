"""Pages take their language from the URL (``/…`` Indonesian, ``/en/…`` English); the API,
which has no language prefix, from ``Accept-Language``."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_api_errors_follow_accept_language(client: Client) -> None:
    english = client.get("/api/matches/999999/", HTTP_ACCEPT_LANGUAGE="en")
    indonesian = client.get("/api/matches/999999/", HTTP_ACCEPT_LANGUAGE="id")
    assert english.status_code == indonesian.status_code == 404
    assert english.json()["error"]["message"] != indonesian.json()["error"]["message"]
    assert english["Content-Language"] == "en"
    assert indonesian["Content-Language"] == "id"


def test_api_without_accept_language_speaks_the_default_indonesian(client: Client) -> None:
    response = client.get("/api/matches/999999/")
    assert response["Content-Language"] == "id"


def test_pages_follow_the_url_not_the_header(client: Client) -> None:
    unprefixed = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    prefixed = client.get("/en/", HTTP_ACCEPT_LANGUAGE="id")
    assert unprefixed["Content-Language"] == "id"
    assert 'lang="id"' in unprefixed.text
    assert prefixed["Content-Language"] == "en"
    assert 'lang="en"' in prefixed.text
