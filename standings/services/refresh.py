"""Writes for standings: marking them dirty, recomputing and storing the rows, and the
sweep that catches up on refreshes the broker never delivered.

The refresh protocol, per ``Standings`` row (one per tournament, season, division):

- ``standings_refresh_request`` runs inside the transaction that changed a result. It
  bumps ``requested_version`` (the durable dirty mark, committed with the result) and,
  unless a refresh is already queued, sets ``is_queued`` and enqueues one after commit
  with a short countdown. A burst of requests therefore queues one refresh; requests
  arriving while it runs queue at most one more.
- A refresh clears ``is_queued`` first, reads the version, then the records, and
  computes; it writes the rows in one transaction under a row lock, and only if its
  version is newer than ``computed_version``. Two runs at once are safe: the older
  never overwrites the newer, and running twice for one version writes once.
- If the broker is down the dirty mark stays (and ``is_queued`` is released); the
  beat sweep recomputes every scope left dirty.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from datetime import timedelta
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from league.models import Tournament
from standings.maths import format_value, to_decimal
from standings.models import Standings, StandingsRow
from standings.selectors import StandingsComputation, standings_compute

logger = logging.getLogger(__name__)

#: The sweep leaves alone scopes marked dirty more recently than this (their task is due).
SWEEP_GRACE = timedelta(seconds=30)


def standings_get_or_create(
    *,
    tournament_id: int | None = None,
    season_id: int | None = None,
    division_id: int | None = None,
) -> Standings:
    """The ``Standings`` row of one scope, created empty the first time."""
    lookup: dict[str, Any] = {
        "tournament_id": tournament_id,
        "season_id": season_id,
        "division_id": division_id,
    }
    found = Standings.objects.filter(**lookup).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Standings.objects.create(**lookup)
    except IntegrityError:  # created by a concurrent request between our read and insert
        return Standings.objects.get(**lookup)


def standings_refresh(*, tournament_id: int) -> bool:
    """Recompute a tournament's standings from the database; True if rows were written."""
    return _refresh(standings_get_or_create(tournament_id=tournament_id))


def season_standings_refresh(*, season_id: int) -> bool:
    """Recompute a season's table from all its tournaments; True if rows were written."""
    return _refresh(standings_get_or_create(season_id=season_id))


def division_standings_refresh(*, division_id: int) -> bool:
    """Recompute a division's table from its tournaments; True if rows were written."""
    return _refresh(standings_get_or_create(division_id=division_id))


def _refresh(standings: Standings) -> bool:
    # From here on, a new request must queue a new run: this one may read too early.
    Standings.objects.filter(pk=standings.pk, is_queued=True).update(is_queued=False)
    return standings_write(computation=standings_compute(standings_id=standings.pk))


def standings_write(*, computation: StandingsComputation) -> bool:
    """Store a computation's rows unless a computation as new or newer is stored already."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Derived data: a crash that loses this commit also loses computed_version,
            # so the scope stays dirty and the sweep recomputes it. No need to wait for
            # the disk (the result itself was committed durably).
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        standings = Standings.objects.select_for_update().get(pk=computation.standings_id)
        if standings.computed_at is not None and standings.computed_version >= computation.version:
            logger.info(
                "standings %s: version %s already stored (have %s), not overwritten",
                standings.pk,
                computation.version,
                standings.computed_version,
            )
            return False
        StandingsRow.objects.filter(standings=standings).delete()
        _insert_rows(list(_row_values(standings.pk, computation)))
        standings.entrant_kind = computation.input.entrant_kind
        standings.tiebreaks = [str(t) for t in computation.result.tiebreaks]
        standings.computed_version = computation.version
        standings.computed_at = timezone.now()
        standings.compute_ms = computation.elapsed_ms
        standings.is_provisional = computation.result.is_provisional
        standings.computed_count += 1
        standings.save(
            update_fields=[
                "entrant_kind",
                "tiebreaks",
                "computed_version",
                "computed_at",
                "compute_ms",
                "computed_count",
                "is_provisional",
            ]
        )
    return True


def _row_values(standings_id: int, computation: StandingsComputation) -> Iterable[dict[str, Any]]:
    """Each ranked row as column values, best first."""
    data, result = computation.input, computation.result
    key = {
        Standings.EntrantKind.ENTRY: "entry_id",
        Standings.EntrantKind.PLAYER: "player_id",
        Standings.EntrantKind.PARTNERSHIP: "partnership_id",
    }[Standings.EntrantKind(data.entrant_kind)]
    below = {s.upper_entrant_id: s for s in result.separations}
    for position, row in enumerate(result.rows, start=1):
        separation = below.get(row.entrant_id)
        yield {
            "standings_id": standings_id,
            "position": position,
            "rank": row.rank,
            "entry_id": None,
            "player_id": None,
            "partnership_id": None,
            key: row.entrant_id,
            "name": data.names.get(row.entrant_id, str(row.entrant_id))[:160],
            "match_points": to_decimal(row.match_points),
            "tables_played": row.tables_played,
            "wins": row.wins,
            "ties": row.ties,
            "losses": row.losses,
            "byes_count": row.byes_count,
            # Decimal strings, as the DecimalFields had them: JSON numbers read back as floats.
            "tiebreak_values": {
                key: None if value is None else format_value(Fraction(value))
                for key, value in row.values.by_key.items()
            },
            "is_withdrawn": row.is_withdrawn,
            "withdrawn_round": row.withdrawn_round or None,
            "playing_tables": sorted(
                data.table_numbers.get(t, t) for t in row.in_progress_table_ids
            ),
            "separation": {}
            if separation is None
            else {
                "reason": separation.reason,
                "tiebreak": None if separation.tiebreak is None else str(separation.tiebreak),
                "upper": format_value(separation.upper_value),
                "lower": format_value(separation.lower_value),
            },
        }


def _insert_rows(rows: list[dict[str, Any]]) -> None:
    """Insert the rows: PostgreSQL's COPY (a 500-row table in milliseconds rather than
    the tens that building 500 model instances costs), else ``bulk_create``."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        StandingsRow.objects.bulk_create((StandingsRow(**row) for row in rows), batch_size=500)
        return
    names = list(rows[0])
    json_columns = {"playing_tables", "separation", "tiebreak_values"}
    column_of = {f.attname: str(f.column) for f in StandingsRow._meta.concrete_fields}
    columns = ", ".join(connection.ops.quote_name(column_of[n]) for n in names)
    table = connection.ops.quote_name(StandingsRow._meta.db_table)
    statement = f"COPY {table} ({columns}) FROM STDIN"  # names from the model, not input
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row([json.dumps(row[n]) if n in json_columns else row[n] for n in names])


def standings_sweep(*, grace: timedelta = SWEEP_GRACE) -> int:
    """Recompute every scope still dirty after ``grace``; the number of scopes written.

    Run by Celery beat. Tournaments with results but no standings yet (results that
    reached the database by another path) are marked first, with their season and
    division, so that they catch up too.
    """
    missing = Tournament.objects.filter(
        standings__isnull=True, rounds__tables__result__isnull=False
    ).values_list("pk", "season_id", "division_id")
    for tournament_id, season_id, division_id in set(missing):
        for scope in (
            {"tournament_id": tournament_id},
            {"season_id": season_id},
            {"division_id": division_id},
        ):
            if None not in scope.values():
                # No requested_at: the mark is old news, to be handled in this sweep.
                Standings.objects.filter(pk=standings_get_or_create(**scope).pk).update(
                    requested_version=F("requested_version") + 1
                )
    cutoff = timezone.now() - grace
    dirty = Standings.objects.filter(
        Q(requested_version__gt=F("computed_version")) | Q(computed_at__isnull=True),
        # Left dirty for a while, or still dirty long after the last computation: a
        # refresh that was queued and lost while requests kept coming.
        Q(requested_at__isnull=True) | Q(requested_at__lte=cutoff) | Q(computed_at__lte=cutoff),
    ).values_list("pk", flat=True)
    written = 0
    for standings_id in list(dirty):
        try:
            written += _refresh(Standings.objects.get(pk=standings_id))
        except Exception:  # one broken scope must not keep the others from catching up
            logger.exception("standings sweep: refreshing %s failed", standings_id)
    return written
