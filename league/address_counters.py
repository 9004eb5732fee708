"""Counts per client address in a fixed window, kept in the cache: how many sign-ups or
failed token authentications one network address has sent (``league.addresses`` says
which address a request comes from). A counter fails open: with the cache away nothing
is counted and nobody is refused, as Django REST framework's rate throttles do."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from league.addresses import client_address

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class AddressCounter:
    """A count per address under ``key`` (with ``{address}`` in it), at most the
    setting ``limit_setting`` within ``window_setting`` seconds."""

    key: str
    limit_setting: str
    default_limit: int
    window_setting: str
    default_window: int

    @property
    def limit(self) -> int:
        return int(getattr(settings, self.limit_setting, self.default_limit))

    @property
    def window(self) -> int:
        return int(getattr(settings, self.window_setting, self.default_window))

    def is_exceeded(self, request: HttpRequest) -> bool:
        """Whether the request's address has used up its count for this window."""
        try:
            count = cache.get(self.key.format(address=client_address(request)), 0)
        except Exception:  # the cache is away: fail open
            log.warning("%s: cache unavailable", self.key, exc_info=True)
            return False
        return int(count) >= self.limit

    def record(self, request: HttpRequest) -> None:
        """Count one more against the request's address."""
        key = self.key.format(address=client_address(request))
        try:
            if not cache.add(key, 1, timeout=self.window):
                cache.incr(key)
        except ValueError:  # expired between add and incr: start a new window
            cache.add(key, 1, timeout=self.window)
        except Exception:  # the cache is away: fail open
            log.warning("%s: cache unavailable", self.key, exc_info=True)
