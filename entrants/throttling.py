"""How many sign-ups one network address may send: ``SIGNUP_RATE_LIMIT`` applications
per ``SIGNUP_RATE_WINDOW`` seconds, counted per client address (``league.addresses``,
as the login lockout and the API's throttles count it) in the cache. Like the other
throttles it fails open: with the cache away nothing is counted and nobody refused."""

from __future__ import annotations

from django.http import HttpRequest

from league.address_counters import AddressCounter

SIGNUPS = AddressCounter(
    key="signup-attempts:{address}",
    limit_setting="SIGNUP_RATE_LIMIT",
    default_limit=5,
    window_setting="SIGNUP_RATE_WINDOW",
    default_window=3600,
)


def signup_rate_exceeded(request: HttpRequest) -> bool:
    """Whether the request's address has sent its sign-ups for this window."""
    return SIGNUPS.is_exceeded(request)


def signup_rate_record(request: HttpRequest) -> None:
    """Count one sign-up (or refused bot) against the request's address."""
    SIGNUPS.record(request)
