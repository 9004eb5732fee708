"""Sending Celery tasks safely from web requests.

Tasks are enqueued only after the surrounding transaction commits (a worker must
never see a row that is later rolled back), and a dead or silent broker never
fails or hangs the request that triggered it: the publish fails within the short
broker timeouts set in ``config/settings/base.py`` and the failure is logged and
reported to the caller's ``on_failure`` (which typically leaves a dirty mark for
the periodic sweep to catch up on). After a failure the broker is left alone for a
few seconds (a ``league.circuit.Circuit`` per broker URL): the tasks asked for
meanwhile are reported as not queued at once, instead of each request waiting out
the broker's timeouts again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.db import transaction

from league.circuit import Circuit

logger = logging.getLogger(__name__)


BROKER_COOLDOWN = 5.0
"""Seconds the broker is left alone after a failed publish."""

_circuits: dict[str, Circuit] = {}
_circuits_lock = threading.Lock()


def broker_circuit() -> Circuit:
    """The circuit of the broker the Celery app publishes to now."""
    url = str(current_app.conf.broker_url)
    with _circuits_lock:
        if url not in _circuits:
            _circuits[url] = Circuit("the task broker", cooldown=BROKER_COOLDOWN)
        return _circuits[url]


def task_send(task: Any, *args: Any, **kwargs: Any) -> bool:
    """Publish ``task`` now; True when the broker took it (or it ran eagerly)."""
    circuit = None if current_app.conf.task_always_eager else broker_circuit()
    if circuit is not None and not circuit.allows():
        logger.info("not enqueueing %s%r: the broker failed moments ago", task.name, args)
        return False
    try:
        task.apply_async(args=args, kwargs=kwargs)
    except Exception as error:  # kombu/redis raise many types; any means "not queued"
        if circuit is not None:
            circuit.failed(error)
        logger.warning("could not enqueue %s%r: broker unavailable", task.name, args, exc_info=True)
        return False
    if circuit is not None:
        circuit.succeeded()
    return True


def task_enqueue_on_commit(
    task: Any,
    *args: Any,
    on_failure: Callable[[], None] | None = None,
    **kwargs: Any,
) -> None:
    """Publish ``task`` once the current transaction commits (at once outside one)."""

    def send() -> None:
        if not task_send(task, *args, **kwargs) and on_failure is not None:
            on_failure()

    transaction.on_commit(send, robust=True)
