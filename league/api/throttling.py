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

import logging

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions

from league.addresses import client_address

log = logging.getLogger(__name__)
KEY = "api-token-failures:{address}"


def _limit() -> int:
    return int(getattr(settings, "API_TOKEN_FAILURE_LIMIT", 20))


def _window() -> int:
    return int(getattr(settings, "API_TOKEN_FAILURE_WINDOW", 600))


class TokenGuessing(exceptions.Throttled):
    default_detail = _("Too many failed token authentications from your address.")
    default_code = "throttled"


def token_guessing_check(request: HttpRequest) -> None:
    """Refuse (429) a token request from an address past the failure limit."""
    try:
        failures = cache.get(KEY.format(address=client_address(request)), 0)
    except Exception:  # the cache is away: fail open, as the rate throttles do
        log.warning("token guessing throttle: cache unavailable", exc_info=True)
        return
    if int(failures) >= _limit():
        raise TokenGuessing(wait=_window())


def token_guessing_record(request: HttpRequest) -> None:
    """Count one failed token authentication against the request's address."""
    key = KEY.format(address=client_address(request))
    try:
        if not cache.add(key, 1, timeout=_window()):
            cache.incr(key)
    except ValueError:  # expired between add and incr: start a new window
        cache.add(key, 1, timeout=_window())
    except Exception:  # the cache is away: fail open
        log.warning("token guessing throttle: cache unavailable", exc_info=True)
