"""Hardening: login lockout, API throttling, CSRF on session writes, Content-Security-
Policy nonces on the admin and the API docs, and limits on CSV imports."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from league.models import Player
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

SCRIPT = re.compile(rb"<script\b([^>]*)>", re.IGNORECASE)


# --- Login lockout (django-axes) --------------------------------------------------------


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3)
def test_login_is_locked_after_repeated_failures() -> None:
    # Given a staff user and a client that has guessed wrong three times
    UserFactory(username="ketua", password="the-right-password-42", is_staff=True)
    client = Client()
    for _ in range(3):
        client.post("/en/admin/login/", {"username": "ketua", "password": "wrong"})
    # When it then gives the right password
    response = client.post(
        "/en/admin/login/", {"username": "ketua", "password": "the-right-password-42"}
    )
    # Then it is locked out and not signed in
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3)
def test_login_works_below_the_failure_limit() -> None:
    UserFactory(username="ketua", password="the-right-password-42", is_staff=True)
    client = Client()
    client.post("/en/admin/login/", {"username": "ketua", "password": "wrong"})
    response = client.post(
        "/en/admin/login/", {"username": "ketua", "password": "the-right-password-42"}
    )
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


PROXY = {"REMOTE_ADDR": "10.0.0.2"}  # every request arrives from the TLS proxy


def _login(client: Client, username: str, password: str, forwarded: str) -> Any:
    return client.post(
        "/en/admin/login/",
        {"username": username, "password": password},
        HTTP_X_FORWARDED_FOR=forwarded,
        **PROXY,
    )


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3, PROXY_COUNT=1)
def test_behind_the_proxy_one_client_locked_out_leaves_another_signing_in() -> None:
    # Given two organisers behind the one proxy, and a client at 203.0.113.7 that
    # guessed the first one's password wrong three times
    UserFactory(username="ketua", password="the-right-password-42", is_staff=True)
    UserFactory(username="bendahara", password="another-password-42", is_staff=True)
    for _ in range(3):
        _login(Client(), "ketua", "wrong", "203.0.113.7")
    # When the same client, then another client at 198.51.100.9, give right passwords
    locked = _login(Client(), "ketua", "the-right-password-42", "203.0.113.7")
    other = Client()
    signed_in = _login(other, "bendahara", "another-password-42", "198.51.100.9")
    # Then the guessing client is locked out and the other signs in
    assert locked.status_code == 429
    assert signed_in.status_code == 302
    assert "_auth_user_id" in other.session


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3, PROXY_COUNT=1)
def test_a_username_locked_from_one_address_signs_in_from_another() -> None:
    # Given an attacker at 203.0.113.7 who locked "ketua" with three wrong passwords
    UserFactory(username="ketua", password="the-right-password-42", is_staff=True)
    for _ in range(3):
        _login(Client(), "ketua", "wrong", "203.0.113.7")
    assert _login(Client(), "ketua", "the-right-password-42", "203.0.113.7").status_code == 429
    # When the real ketua signs in from her own address
    client = Client()
    response = _login(client, "ketua", "the-right-password-42", "198.51.100.9")
    # Then she is signed in
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3, PROXY_COUNT=1)
def test_a_forged_forwarded_address_does_not_escape_the_lockout() -> None:
    # Given a client at 203.0.113.7 that locked "ketua" out for itself
    UserFactory(username="ketua", password="the-right-password-42", is_staff=True)
    for _ in range(3):
        _login(Client(), "ketua", "wrong", "203.0.113.7")
    # When it sends a made-up address before the one the proxy appends
    response = _login(Client(), "ketua", "the-right-password-42", "198.51.100.9, 203.0.113.7")
    # Then the proxy's entry counts and it is still locked out
    assert response.status_code == 429


# --- Throttling -------------------------------------------------------------------------


def test_base_settings_throttle_anonymous_and_signed_in_callers() -> None:
    # The test settings switch throttling off; production uses the base settings.
    from config.settings import base

    classes = base.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]
    rates = base.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert {c.rsplit(".", 1)[-1] for c in classes} == {"AnonRateThrottle", "UserRateThrottle"}
    assert set(rates) >= {"anon", "user"}


def test_api_answers_429_in_the_envelope_past_the_rate(monkeypatch: Any) -> None:
    # Given throttling on with a low rate for anonymous callers
    cache.clear()
    from rest_framework.throttling import AnonRateThrottle

    monkeypatch.setattr(APIView, "throttle_classes", [AnonRateThrottle, UserRateThrottle])
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": "3/minute", "user": "5/minute"}
    )
    client = APIClient()
    # When an anonymous client reads four times
    statuses = [client.get("/api/rulesets/").status_code for _ in range(4)]
    # Then the fourth is throttled, with the envelope and a Retry-After
    assert statuses == [200, 200, 200, 429]
    response = client.get("/api/rulesets/")
    assert response.json()["ok"] is False
    assert response.json()["error"]["code"] == "throttled"
    assert int(response["Retry-After"]) > 0
    cache.clear()


# --- CSRF -------------------------------------------------------------------------------


def _session_client(user: Any) -> APIClient:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def test_session_writes_without_a_csrf_token_are_refused() -> None:
    # Given a superuser signed in with the session
    client = _session_client(UserFactory(is_superuser=True, is_staff=True))
    # When they post, change and delete without a CSRF token
    post = client.post("/api/players/", {"name": "Budi"}, format="json")
    player = PlayerFactory()
    patch = client.patch(f"/api/players/{player.pk}/", {"name": "X"}, format="json")
    delete = client.delete(f"/api/players/{player.pk}/")
    # Then every write is refused in the envelope and nothing changed
    for response in (post, patch, delete):
        assert response.status_code == 403
        assert response.json()["ok"] is False
        assert "CSRF" in response.json()["error"]["message"]
    assert not Player.objects.filter(name="Budi").exists()
    player.refresh_from_db()
    assert player.name != "X"


def test_session_writes_with_the_csrf_token_pass() -> None:
    # Given a signed-in superuser who loaded a page (and so has the CSRF cookie)
    user = UserFactory(is_superuser=True, is_staff=True)
    client = _session_client(user)
    client.get("/en/account/api-tokens/")
    token = client.cookies["csrftoken"].value
    # When they post with the token in the header
    response = client.post("/api/players/", {"name": "Budi"}, format="json", HTTP_X_CSRFTOKEN=token)
    # Then the write goes through
    assert response.status_code == 201, response.content


def test_token_page_refuses_a_post_without_csrf() -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    response = client.post("/en/account/api-tokens/", {"name": "bot"})
    assert response.status_code == 403


# --- Content-Security-Policy --------------------------------------------------------------


def _script_src(response: Any) -> str:
    header = response.get("Content-Security-Policy", "")
    match = re.search(r"script-src ([^;]*)", header)
    assert match, f"no script-src in CSP: {header!r}"
    return match.group(1)


def _nonce(response: Any) -> str | None:
    """The page's nonce (Django puts it in the policy only when the page used it)."""
    match = re.search(r"'nonce-([^']+)'", _script_src(response))
    return match.group(1) if match else None


def _assert_scripts_allowed(response: Any) -> int:
    """Every <script> is external (same origin) or carries the response's nonce."""
    nonce = _nonce(response)
    count = 0
    for attrs in SCRIPT.findall(response.content):
        count += 1
        src = re.search(rb'src="([^"]*)"', attrs)
        if src is not None:
            assert not src.group(1).startswith((b"http:", b"https:", b"//")), attrs
            continue
        assert nonce is not None, f"inline script and no nonce in the policy: {attrs!r}"
        assert f'nonce="{nonce}"'.encode() in attrs, f"inline script without nonce: {attrs!r}"
    return count


@pytest.mark.parametrize(
    "url",
    [
        "/en/admin/",
        "/en/admin/league/player/",
        "/en/admin/league/player/add/",
        "/en/admin/league/player/import/",
        "/en/admin/league/tournament/add/",
        "/en/admin/league/apitoken/add/",
        "/api/docs/",
        "/api/redoc/",
    ],
)
def test_pages_run_no_script_the_policy_would_block(url: str) -> None:
    # Given a superuser
    client = Client()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    # When they open an admin page or the API docs
    response = client.get(url)
    # Then the page loads under a policy with no inline-script escape hatch, and every
    # script is external (our origin) or carries the page's nonce
    assert response.status_code == 200
    script_src = _script_src(response)
    assert script_src.startswith("'self'")
    assert "unsafe-inline" not in script_src and "unsafe-eval" not in script_src
    assert _assert_scripts_allowed(response) >= 1


def test_swagger_start_up_script_is_a_separate_file() -> None:
    # Given the Swagger UI page
    page = Client().get("/api/docs/")
    script_url = re.search(rb'<script src="([^"]*script[^"]*)"', page.content)
    # When its start-up script is fetched
    assert script_url is not None
    script = Client().get(script_url.group(1).decode().replace("&amp;", "&"))
    # Then it is served as JavaScript from our origin, pointing at our schema
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert b"/api/schema/" in script.content
    assert b"<script" not in page.content.split(b"<body>")[0]


# --- CSV imports --------------------------------------------------------------------------


def _import(client: Client, upload: SimpleUploadedFile) -> Any:
    return client.post(
        "/en/admin/league/player/import/",
        {"resource": "0", "format": "0", "import_file": upload},
    )


@pytest.fixture
def admin_client_() -> Client:
    client = Client()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    return client


def test_import_offers_csv_only(admin_client_: Client) -> None:
    page = admin_client_.get("/en/admin/league/player/import/")
    formats = re.findall(rb'<option value="\d+"[^>]*>([^<]+)</option>', page.content)
    assert [f.strip().lower() for f in formats] in ([b"csv"], [])
    assert b"xlsx" not in page.content.lower()


@override_settings(IMPORT_MAX_BYTES=1000)
def test_import_refuses_a_file_over_the_size_limit(admin_client_: Client) -> None:
    big = b"name,nickname\n" + b"Budi,B\n" * 500
    response = _import(admin_client_, SimpleUploadedFile("p.csv", big, "text/csv"))
    assert response.status_code == 200
    assert b"too large" in response.content
    assert not Player.objects.filter(name="Budi").exists()


@pytest.mark.parametrize(
    ("name", "content", "content_type"),
    [
        ("players.xlsx", b"PK\x03\x04binary", "application/vnd.ms-excel"),
        ("players.csv", b"PK\x03\x04\x00\x00binary", "text/csv"),
        ("players.csv", "name\nBudi\n".encode("utf-16"), "text/csv"),
        ("players.csv", b"name\nBudi\n", "application/x-msdownload"),
    ],
)
def test_import_refuses_files_that_are_not_csv_text(
    admin_client_: Client, name: str, content: bytes, content_type: str
) -> None:
    response = _import(admin_client_, SimpleUploadedFile(name, content, content_type))
    assert response.status_code == 200
    assert b"errorlist" in response.content
    assert not Player.objects.filter(name="Budi").exists()


def test_import_accepts_a_small_csv(admin_client_: Client) -> None:
    csv = b"name,nickname,club,slug\nBudi Santoso,Bud,Klub A,\n"
    response = _import(admin_client_, SimpleUploadedFile("p.csv", csv, "text/csv"))
    assert response.status_code == 200
    assert b"errorlist" not in response.content
    assert b"Budi Santoso" in response.content  # the import preview
