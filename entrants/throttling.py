"""How many sign-ups one network address may send: ``SIGNUP_RATE_LIMIT`` applications
per ``SIGNUP_RATE_WINDOW`` seconds, counted per client address (``league.addresses``,
as the login lockout and the API's throttles count it) in the cache. Like the other
throttles it fails open: with the cache away nothing is counted and nobody refused."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from league.addresses import client_address

log = logging.getLogger(__name__)
KEY = "signup-attempts:{address}"


def _limit() -> int:
    return int(getattr(settings, "SIGNUP_RATE_LIMIT", 5))


def _window() -> int:
    return int(getattr(settings, "SIGNUP_RATE_WINDOW", 3600))


def signup_rate_exceeded(request: HttpRequest) -> bool:
    """Whether the request's address has sent its sign-ups for this window."""
    try:
        count = cache.get(KEY.format(address=client_address(request)), 0)
    except Exception:  # the cache is away: fail open
        log.warning("sign-up throttle: cache unavailable", exc_info=True)
        return False
    return int(count) >= _limit()


def signup_rate_record(request: HttpRequest) -> None:
    """Count one sign-up (or refused bot) against the request's address."""
    key = KEY.format(address=client_address(request))
    try:
        if not cache.add(key, 1, timeout=_window()):
            cache.incr(key)
    except ValueError:  # expired between add and incr: start a new window
        cache.add(key, 1, timeout=_window())
    except Exception:  # the cache is away: fail open
        log.warning("sign-up throttle: cache unavailable", exc_info=True)
