"""API tokens: stored hashed, shown once, revocable; from the page, the admin and the API."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from rest_framework.test import APIClient

from league.models import ApiToken
from league.services.tokens import api_token_create, api_token_revoke
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_only_as_its_hash() -> None:
    # Given a user
    user = UserFactory()
    # When a token is issued
    issued = api_token_create(user=user, name="bot")
    # Then the database holds its SHA-256 and a short prefix, never the key
    row = ApiToken.objects.get(pk=issued.token.pk)
    assert row.key_hash == hashlib.sha256(issued.key.encode()).hexdigest()
    assert issued.key not in {row.key_hash, row.key_prefix, row.name}
    assert issued.key.startswith(row.key_prefix)
    assert len(row.key_prefix) < len(issued.key) // 3


@pytest.mark.parametrize("keyword", ["Token", "Bearer"])
def test_a_token_authenticates_and_records_its_use(keyword: str) -> None:
    # Given a superuser's token
    user = UserFactory(is_superuser=True, is_staff=True)
    issued = api_token_create(user=user, name="sheet")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{keyword} {issued.key}")
    # When a program creates a rule set with it (no session, no CSRF token)
    response = client.post("/api/rulesets/", {"name": "Aturan bot"}, format="json")
    # Then it acts as the user and the token's last use is recorded
    assert response.status_code == 201, response.content
    issued.token.refresh_from_db()
    assert issued.token.last_used_at is not None


@pytest.mark.parametrize("header", ["Token kel_wrong", "Token", "Token a b", "Bearer \xe9"])
def test_bad_tokens_are_refused_with_401(header: str) -> None:
    # Given a client sending a bad Authorization header
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    # When it reads a public list
    response = client.get("/api/rulesets/")
    # Then it is told to authenticate, in the error envelope
    assert response.status_code == 401
    assert response.json()["ok"] is False
    assert response["WWW-Authenticate"] == "Token"


@override_settings(API_TOKEN_FAILURE_LIMIT=5, PROXY_COUNT=1)
def test_token_guessing_is_throttled_per_client_address() -> None:
    # Given a superuser's real key, and a guesser at 203.0.113.7 behind the proxy
    cache.clear()
    issued = api_token_create(user=UserFactory(is_superuser=True, is_staff=True), name="bot")
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    guesser = APIClient(HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy)
    # When it sends seven wrong keys, then the right one
    guesses = [
        guesser.get("/api/rulesets/", HTTP_AUTHORIZATION=f"Token kel_guess{i}").status_code
        for i in range(7)
    ]
    right = guesser.get("/api/rulesets/", HTTP_AUTHORIZATION=f"Token {issued.key}")
    # Then five are answered 401, the rest 429 in the envelope with a Retry-After, the
    # right key too (the answer tells the guesser nothing)
    assert guesses == [401] * 5 + [429] * 2
    assert right.status_code == 429
    assert right.json()["ok"] is False
    assert right.json()["error"]["code"] == "throttled"
    assert int(right["Retry-After"]) > 0
    # And a program at another address behind the same proxy still gets in
    program = APIClient(HTTP_X_FORWARDED_FOR="198.51.100.9", **proxy)
    other = program.get("/api/rulesets/", HTTP_AUTHORIZATION=f"Token {issued.key}")
    assert other.status_code == 200
    cache.clear()


@override_settings(API_TOKEN_FAILURE_LIMIT=3)
def test_right_keys_are_not_counted_as_guesses() -> None:
    # Given a program with a real key
    cache.clear()
    issued = api_token_create(user=UserFactory(is_superuser=True, is_staff=True), name="bot")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issued.key}")
    # When it makes many requests
    statuses = {client.get("/api/rulesets/").status_code for _ in range(10)}
    # Then none is throttled
    assert statuses == {200}
    cache.clear()


def test_a_revoked_token_no_longer_authenticates() -> None:
    # Given a revoked token
    user = UserFactory(is_superuser=True)
    issued = api_token_create(user=user, name="old")
    api_token_revoke(token=issued.token)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issued.key}")
    # When it is used
    response = client.post("/api/rulesets/", {"name": "x"}, format="json")
    # Then it is refused
    assert response.status_code == 401


def test_an_inactive_users_token_is_refused() -> None:
    user = UserFactory(is_superuser=True)
    issued = api_token_create(user=user, name="bot")
    user.is_active = False
    user.save()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issued.key}")
    assert client.get("/api/rulesets/").status_code == 401


def test_the_page_shows_a_new_key_once_and_lists_tokens_without_keys() -> None:
    # Given a signed-in user on their tokens page
    user = UserFactory()
    client = Client()
    client.force_login(user)
    # When they create a token
    created = client.post("/en/account/api-tokens/", {"name": "WhatsApp bot"})
    key = re.search(rb'<code id="new-token">(kel_[^<]+)</code>', created.content)
    # Then the key is on that page (not cached) and the next visit no longer shows it
    assert created.status_code == 200
    assert key is not None
    assert "no-store" in created["Cache-Control"]
    again = client.get("/en/account/api-tokens/")
    assert key.group(1) not in again.content
    assert b"WhatsApp bot" in again.content
    token = ApiToken.objects.get(user=user)
    assert token.key_hash == hashlib.sha256(key.group(1)).hexdigest()


def test_the_page_revokes_only_the_users_own_tokens() -> None:
    # Given two users with a token each
    me, other = UserFactory(), UserFactory()
    mine = api_token_create(user=me, name="mine").token
    theirs = api_token_create(user=other, name="theirs").token
    client = Client()
    client.force_login(me)
    # When I revoke mine and try to revoke theirs
    ok = client.post(f"/en/account/api-tokens/{mine.pk}/revoke/")
    refused = client.post(f"/en/account/api-tokens/{theirs.pk}/revoke/")
    # Then mine is revoked and theirs is untouched (and not even found)
    assert ok.status_code == 302
    assert refused.status_code == 404
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.revoked_at is not None
    assert theirs.revoked_at is None


def test_the_page_needs_a_login() -> None:
    response = Client().get("/en/account/api-tokens/")
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_the_admin_shows_a_new_key_once_and_stores_its_hash() -> None:
    # Given a superuser in the admin
    admin = UserFactory(is_superuser=True, is_staff=True)
    client = Client()
    client.force_login(admin)
    # When they add a token for themselves
    response = client.post(
        "/en/admin/league/apitoken/add/", {"user": admin.pk, "name": "scoreboard"}, follow=True
    )
    # Then the confirmation message carries the key, and only its hash is stored
    assert response.status_code == 200
    match = re.search(rb"(kel_[A-Za-z0-9_\-]{20,})", response.content)
    assert match is not None
    token = ApiToken.objects.get(name="scoreboard")
    assert token.key_hash == hashlib.sha256(match.group(1)).hexdigest()
    # And the revoke action revokes it
    client.post(
        "/en/admin/league/apitoken/",
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    token.refresh_from_db()
    assert token.revoked_at is not None
