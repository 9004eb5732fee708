"""The Redis transport the Celery worker consumes with: kombu's own, with one repair for
a broker that dies while the worker holds tasks it has not acknowledged yet.

When the broker goes away, Celery's consumer first ``collect()``s its connection and
then ``close()``s it. Collecting tears the transport down (its ``client`` becomes
``None``) but leaves the default channel open: closing it starts by reading the reply
to the ``BRPOP`` it has in flight (or by removing a broadcast binding), which fails on
the dead Redis. Closing the connection then closes the channel again, and the
channel's restore of the unacknowledged tasks asks the torn-down transport for Redis's
address. That ``AttributeError`` is no connection error to Celery, so the worker
stopped ("Unrecoverable error") whenever it held a task at that moment — a reserved
task, or one due later (a countdown). Here a channel whose transport is gone says so
with a connection error, which every close path expects, and the consumer reconnects.
The tasks it held stay in Redis's unacknowledged set, when Redis kept them, and are
handed out again once the visibility timeout passes.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis
from redis import exceptions


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> Any:
        if self.connection.client is None:
            raise exceptions.ConnectionError("the connection to the broker was closed")
        return super()._connparams(asynchronous=asynchronous)  # type: ignore[no-untyped-call]


class Transport(kombu_redis.Transport):
    Channel = Channel
