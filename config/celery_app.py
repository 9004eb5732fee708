"""The one Celery app. Configuration comes from Django settings (``CELERY_*``), shared by
the web processes that publish tasks and the worker that runs them; what only the
worker should have is set when it starts (``worker_broker_configure``), so that a web
request still fails fast on a dead broker."""

import os
from typing import Any
from urllib.parse import urlsplit

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("kelipatan")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.celeryd_init.connect
def worker_broker_configure(*, conf: Any, **kwargs: Any) -> None:
    """Keep a worker running however long the broker is away (sent only by ``celery
    worker``, before it first connects)."""
    # Celery's default gives up reconnecting after 100 tries, some 45 minutes at its
    # 30 s spacing, and then the worker exits: standings would stay stale until someone
    # restarted it. A worker has nothing better to do than wait for the broker.
    conf.broker_connection_max_retries = None
    if urlsplit(str(conf.broker_url)).scheme in {"redis", "rediss"}:
        # A broker lost while the worker holds unacknowledged tasks must not end it.
        conf.broker_transport = "config.broker:Transport"
