"""What only the worker gets (``config/celery_app.py``): it retries the broker forever
and consumes through the repaired Redis transport; the web processes keep Celery's
bounded retries and publish through kombu's own."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from config.celery_app import app, worker_broker_configure


@pytest.mark.parametrize("url", ["redis://redis:6379/0", "rediss://:secret@redis:6380/1"])
def test_a_worker_on_redis_retries_forever_through_the_repaired_transport(url: str) -> None:
    conf = SimpleNamespace(broker_url=url, broker_connection_max_retries=100, broker_transport=None)
    worker_broker_configure(conf=conf)
    assert conf.broker_connection_max_retries is None
    assert conf.broker_transport == "config.broker:Transport"


def test_a_worker_on_another_broker_keeps_its_transport() -> None:
    conf = SimpleNamespace(
        broker_url="memory://", broker_connection_max_retries=100, broker_transport=None
    )
    worker_broker_configure(conf=conf)
    assert conf.broker_connection_max_retries is None
    assert conf.broker_transport is None


def test_the_web_processes_keep_bounded_retries_and_kombus_transport() -> None:
    assert app.conf.broker_connection_max_retries == 100
    assert app.conf.broker_transport is None
