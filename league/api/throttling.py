"""Throttling of token guessing: failed token authentications counted per client address.

The rate throttles (``DEFAULT_THROTTLE_CLASSES``) count requests, good and bad alike,
and at a rate meant for busy programs; a guesser sending wrong keys would get
hundreds of tries a minute from them. Here only *failed* token authentications
count, per client address (``league.addresses``), in a fixed window: past
``API_TOKEN_FAILURE_LIMIT`` failures every token request from that address is
answered 429 until the window ends, a right key included (else the answer would tell
a guesser which key is right). Like the other throttles it fails open: when the
cache is away, nothing is counted and nobody is refused.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions

from league.address_counters import AddressCounter

FAILURES = AddressCounter(
    key="api-token-failures:{address}",
    limit_setting="API_TOKEN_FAILURE_LIMIT",
    default_limit=20,
    window_setting="API_TOKEN_FAILURE_WINDOW",
    default_window=600,
)


class TokenGuessing(exceptions.Throttled):
    default_detail = _("Too many failed token authentications from your address.")
    default_code = "throttled"


def token_guessing_check(request: HttpRequest) -> None:
    """Refuse (429) a token request from an address past the failure limit."""
    if FAILURES.is_exceeded(request):
        raise TokenGuessing(wait=FAILURES.window)


def token_guessing_record(request: HttpRequest) -> None:
    """Count one failed token authentication against the request's address."""
    FAILURES.record(request)
