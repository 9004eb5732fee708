"""A small circuit breaker: after a failure, stop calling a dependency for a few seconds.

A Redis that is silent (paused, overloaded, behind a dropped network) costs a whole
socket timeout per call; one that is dead costs a refused connection. Either way a web
request that needs it only as a cache or a queue should not pay that price over and
over. ``Circuit`` remembers the last failure: while it is *open* callers skip the
dependency at once (and use their fallback); after ``cooldown`` seconds one caller is
let through to try again (*half-open*) and its outcome closes or reopens the circuit.
One circuit per process and dependency; it is thread-safe and logs each change once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

logger = logging.getLogger(__name__)


class Circuit:
    """Whether a dependency may be called now, from the outcomes of earlier calls."""

    def __init__(
        self, name: str, *, cooldown: float = 5.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.name = name
        self.cooldown = cooldown
        self._clock = clock
        self._lock = threading.Lock()
        self._open_until: float | None = None  # None: closed
        self._trial = False  # a half-open trial call is under way

    @property
    def is_open(self) -> bool:
        """True while calls are being skipped (a failure within the cooldown)."""
        with self._lock:
            return self._open_until is not None and self._clock() < self._open_until

    @property
    def is_closed(self) -> bool:
        """True when the last call succeeded (or none failed yet)."""
        with self._lock:
            return self._open_until is None

    def allows(self) -> bool:
        """May the caller try the dependency now? (one trial at a time once it reopens)"""
        with self._lock:
            if self._open_until is None:
                return True
            if self._clock() < self._open_until or self._trial:
                return False
            self._trial = True
            return True

    def succeeded(self) -> None:
        """The dependency answered: close the circuit."""
        with self._lock:
            was_open = self._open_until is not None
            self._open_until, self._trial = None, False
        if was_open:
            logger.warning("%s is back: using it again", self.name)

    def failed(self, error: BaseException | None = None) -> None:
        """The dependency failed: skip it for ``cooldown`` seconds."""
        with self._lock:
            was_closed = self._open_until is None
            self._open_until, self._trial = self._clock() + self.cooldown, False
        if was_closed:
            logger.warning(
                "%s is unavailable (%s): skipping it for %.0fs at a time",
                self.name,
                error.__class__.__name__ if error is not None else "error",
                self.cooldown,
            )

    def reset(self) -> None:
        """Forget every failure (tests, and a process that changes its configuration)."""
        with self._lock:
            self._open_until, self._trial = None, False
