"""While the database is away the site's pages answer 503 with Retry-After, in the URL's
language, from a page that needs no database; other errors stay 500. The API's 503
comes from the same decision (``league.api.errors.is_database_away``).

No test here is marked for database access: pytest-django refuses it, and every access
the test lets through fails as a database that is gone does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from html.parser import HTMLParser

import pytest
from django.db import InterfaceError, OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client

from league.api.errors import RETRY_AFTER_SECONDS

BRAND = "Kelipatan"


class DatabaseAttempts:
    """Every connection the code asks for fails with ``error``; counts the attempts."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.count = 0

    def refuse(self) -> None:
        self.count += 1
        raise self.error


@pytest.fixture
def database_fails(monkeypatch: pytest.MonkeyPatch) -> Callable[[Exception], DatabaseAttempts]:
    def install(error: Exception) -> DatabaseAttempts:
        attempts = DatabaseAttempts(error)

        def ensure_connection(wrapper: BaseDatabaseWrapper) -> None:
            attempts.refuse()

        monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", ensure_connection)
        return attempts

    return install


@pytest.fixture
def visitor() -> Iterator[Client]:
    # The server's answer, not the exception the test client would re-raise.
    yield Client(raise_request_exception=False)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.pieces: list[str] = []

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.pieces.append(" ".join(data.split()))


def visible_text(html: str) -> list[str]:
    """The page's text as a reader sees it (and its title), piece by piece."""
    parser = _Text()
    parser.feed(html)
    return parser.pieces


@pytest.mark.parametrize(
    "error",
    [OperationalError("connection refused"), InterfaceError("connection already closed")],
)
def test_a_page_answers_503_in_indonesian_when_the_database_is_away(
    visitor: Client,
    database_fails: Callable[[Exception], DatabaseAttempts],
    error: Exception,
) -> None:
    # Given a database that refuses every connection
    attempts = database_fails(error)
    # When a visitor opens the home page
    response = visitor.get("/")
    # Then they are told, in Indonesian, to try again shortly
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response["Content-Language"] == "id"
    assert response["Content-Type"].startswith("text/html")
    assert "no-store" in response["Cache-Control"]
    assert '<html lang="id">' in response.text
    assert "Layanan ini sementara tidak tersedia." in response.text
    assert 'href="/"' in response.text  # the home page and "try again" stay in Indonesian
    # and the page was built without the database: only the home page itself asked for it
    assert attempts.count == 1


def test_a_page_under_en_answers_503_in_english_when_the_database_is_away(
    visitor: Client, database_fails: Callable[[Exception], DatabaseAttempts]
) -> None:
    database_fails(OperationalError("connection refused"))
    response = visitor.get("/en/tournaments/", HTTP_ACCEPT_LANGUAGE="id")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response["Content-Language"] == "en"
    assert '<html lang="en">' in response.text
    assert "Please try again in a moment." in response.text
    assert 'href="/en/tournaments/"' in response.text  # "try again" reopens the same page


def test_the_indonesian_503_page_has_no_english_on_it(
    visitor: Client, database_fails: Callable[[Exception], DatabaseAttempts]
) -> None:
    # Given the same 503 page in both languages
    database_fails(OperationalError("connection refused"))
    english = visible_text(visitor.get("/en/").text)
    indonesian = visible_text(visitor.get("/").text)
    # Then no English sentence shows on the Indonesian one: only the site's name is shared
    assert len(english) >= 4
    shared = [piece for piece in english if piece in indonesian]
    assert shared == [BRAND]
    title = next(piece for piece in indonesian if piece.endswith(f"· {BRAND}"))
    assert title == f"Sementara tidak tersedia · {BRAND}"


def test_a_page_that_fails_for_another_reason_still_answers_500(
    visitor: Client, database_fails: Callable[[Exception], DatabaseAttempts]
) -> None:
    # Given a failure that is a bug, not the database being away
    database_fails(ValueError("a bug"))
    # When the page is asked for, then it is a server error: sending it again won't help
    response = visitor.get("/")
    assert response.status_code == 500
    assert not response.has_header("Retry-After")


def test_the_api_answers_503_for_a_closed_connection_too(
    visitor: Client, database_fails: Callable[[Exception], DatabaseAttempts]
) -> None:
    # Given a connection the driver reports as already closed
    database_fails(InterfaceError("connection already closed"))
    # When a program reads the API, then it is told to retry, in the envelope
    response = visitor.get("/api/tournaments/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
