"""The client's address behind the configured proxies: the entry the outermost trusted
proxy appended, never one the client wrote itself."""

from __future__ import annotations

import pytest
from django.http import HttpRequest
from django.test import RequestFactory, override_settings

from league.addresses import client_address

PROXY = "10.0.0.2"


def _request(forwarded: str | None, remote: str = PROXY) -> HttpRequest:
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


@override_settings(PROXY_COUNT=0)
def test_without_a_proxy_the_header_is_ignored() -> None:
    # Given no proxy configured, when a client sends its own forwarded header
    address = client_address(_request("203.0.113.7", remote="198.51.100.9"))
    # Then its connection's address counts
    assert address == "198.51.100.9"


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "192.0.2.1, 203.0.113.7", "203.0.113.7"),  # a forged entry before the proxy's
        (1, "not-an-address, 203.0.113.7", "203.0.113.7"),
        (2, "203.0.113.7, 10.0.0.3", "203.0.113.7"),
        (2, "192.0.2.1, 203.0.113.7, 10.0.0.3", "203.0.113.7"),
    ],
)
def test_behind_proxies_the_outermost_proxys_entry_counts(
    count: int, forwarded: str, expected: str
) -> None:
    with override_settings(PROXY_COUNT=count):
        assert client_address(_request(forwarded)) == expected


@pytest.mark.parametrize("forwarded", [None, "", "garbage"])
@override_settings(PROXY_COUNT=1)
def test_a_request_that_bypassed_the_proxy_counts_by_its_connection(
    forwarded: str | None,
) -> None:
    assert client_address(_request(forwarded, remote="198.51.100.9")) == "198.51.100.9"
