"""The database away (refusing connections, or accepting them and never answering): the
site's pages answer 503 with Retry-After, in the URL's language, within a bounded time.

Django's own answer was a bare "Server Error (500)" in English. The server here is a
real gunicorn on production settings whose DATABASE_URL points at a port where nothing
listens, or at a TCP listener that accepts and stays silent; the pages are asked for
over HTTP as a phone's browser would.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest

from tests.faults.conftest import Processes, free_port, percentiles, service_env

pytestmark = pytest.mark.faults

CONNECT_TIMEOUT_SECONDS = 2  # libpq's least: a silent database costs this per page
REFUSED_WITHIN_SECONDS = 1.0
SILENT_WITHIN_SECONDS = CONNECT_TIMEOUT_SECONDS + 1.0


@dataclass(frozen=True)
class Page:
    status: int
    headers: Message
    text: str
    seconds: float


def fetch(url: str, *, accept_language: str) -> Page:
    """A page as a browser asks for it, with the headers of the answer."""
    started = time.monotonic()
    asked = urllib.request.Request(url, headers={"Accept-Language": accept_language})  # noqa: S310
    try:
        with urllib.request.urlopen(asked, timeout=60) as response:  # noqa: S310 (local server)
            status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    return Page(status, headers, body.decode(), time.monotonic() - started)


@pytest.fixture(params=["refused", "silent"])
def away_database_url(request: pytest.FixtureRequest) -> tuple[str, str, float]:
    """A DATABASE_URL whose server is away, how it is away, and the bound on a page."""
    if request.param == "refused":
        port, within = free_port(), REFUSED_WITHIN_SECONDS  # nothing listens there
    else:
        port, within = request.getfixturevalue("silent_listener"), SILENT_WITHIN_SECONDS
    return f"postgres://kelipatan@127.0.0.1:{port}/kelipatan", request.param, within


def test_pages_answer_503_in_their_language_while_the_database_is_away(
    collected_static: Path, processes: Processes, away_database_url: tuple[str, str, float]
) -> None:
    database_url, how, within = away_database_url
    # Given a server on production settings whose database is away
    base = processes.server(
        service_env(
            database_url=database_url,
            redis_url="",
            DATABASE_CONNECT_TIMEOUT=str(CONNECT_TIMEOUT_SECONDS),
        )
    )
    # When a visitor opens public pages in Indonesian (the default) and in English,
    # a browser set to English asking for an Indonesian address among them
    asked = [
        ("/", "id", "id"),
        ("/en/", "en", "en"),
        ("/tournaments/", "en", "id"),
        ("/en/tournaments/", "id", "en"),
    ]
    pages = [
        (fetch(base + path, accept_language=header), language) for path, header, language in asked
    ]
    print(f"\npages, database {how}:", percentiles([page.seconds for page, _ in pages]))
    # Then each is a 503 page in the URL's language, telling the browser when to retry,
    for page, language in pages:
        assert page.status == 503, page.text[:300]
        assert int(page.headers["Retry-After"]) > 0
        assert page.headers["Content-Language"] == language
        assert page.headers["Content-Type"].startswith("text/html")
        assert f'<html lang="{language}">' in page.text
        # and each came within the bound, the worker never held until its timeout
        assert page.seconds < within, f"{page.seconds:.2f}s"
    indonesian = [page.text for page, language in pages if language == "id"]
    english = [page.text for page, language in pages if language == "en"]
    assert all("Silakan coba lagi sebentar lagi." in text for text in indonesian)
    assert not any("try again" in text.lower() for text in indonesian)
    assert all("Please try again in a moment." in text for text in english)
    # and the process itself is still alive and serving
    assert fetch(base + "/healthz", accept_language="id").status == 200
