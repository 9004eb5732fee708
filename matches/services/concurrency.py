"""Optimistic concurrency for match writes: one version, one winner.

Every write names the version it was based on. On PostgreSQL the match row is
locked (``SELECT … FOR UPDATE``) so concurrent writers queue up, and each then sees
the version the previous one left; everywhere (SQLite too) the move to the next
version is a conditional ``UPDATE … WHERE version = expected``, so of two writers
based on the same version exactly one succeeds and the other gets
``StaleVersionError`` (HTTP 409 with the current state).
"""

from __future__ import annotations

from django.db import connection, transaction

from matches.models import Match


class StaleVersionError(Exception):
    """The write was based on an older version of the match than the stored one."""

    def __init__(self, *, match_id: int, expected: int, current: int) -> None:
        self.match_id = match_id
        self.expected = expected
        self.current = current
        super().__init__(f"match {match_id} is at version {current}, not {expected}")


def _current_version(match_id: int) -> int:
    current = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    if current is None:
        raise Match.DoesNotExist(f"match {match_id} does not exist")
    return current


def match_lock(*, match_id: int, version: int) -> Match:
    """Claim the next version of a match for this transaction and return the match
    (its ``version`` already the new one; the caller saves it)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("match_lock must run inside transaction.atomic()")
    if connection.features.has_select_for_update:
        # PostgreSQL: the row lock queues concurrent writers; each then sees the
        # version the previous one committed.
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise Match.DoesNotExist(f"match {match_id} does not exist")
        if match.version != version:
            raise StaleVersionError(match_id=match_id, expected=version, current=match.version)
        match.version = version + 1
        return match
    # SQLite (no row locks): the conditional UPDATE is the first write of the
    # transaction, so it takes the database's write lock and exactly one of two
    # writers based on the same version moves it on.
    claimed = Match.objects.filter(pk=match_id, version=version).update(version=version + 1)
    if claimed != 1:
        raise StaleVersionError(
            match_id=match_id, expected=version, current=_current_version(match_id)
        )
    return Match.objects.get(pk=match_id)
