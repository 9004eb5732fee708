"""Keeping the rating rows in step with table results: one match, a catch-up, or everything.

Every write goes through one replay: *replay from a point* deletes the rating events of
every match at or after that point in match order ``(finished_at, table id)``, takes each
subject's rating as it stood just before the point, and rates the matches from the
point on again in order with ``ratings.maths``. The full recompute is a replay
from the beginning; applying one match is a replay from that match (normally the latest,
so one match is rated). A corrected result (recorded again for the same table), a
result that arrives late, or a cleared result replays from the earliest of its old and
new places, so the incremental path always gives exactly what the full recompute gives
(the maths is deterministic and floats round-trip through the database unchanged).

Rated subjects: every player, with two players as two sides of one, three players as
three sides of one ranked by placing (tied placings share the place), four players as
two sides of two (seats 0+2 against 1+3); and fixed partnerships as units when both
sides of a four-player table are fixed-partnership entries. A table whose seats do not
match its result (a side with no seated player) is skipped and logged.

Results recorded without hands are rated by what they say about play: an agreed final
score is a result the players reached at the table, so it is rated like a played match;
a forfeit or a double forfeit says nothing of skill (nobody played), so it is never
rated (``RATED_KINDS``).

Writers are serialised (a PostgreSQL advisory lock; SQLite serialises writers itself),
so two matches finishing at once cannot interleave their replays.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Exists, F, Max, OuterRef, Q, QuerySet

from allfives import side_of, side_seats
from league.models import ResultKind, Seat, TableResult, TableResultSide
from ratings.maths import Match, Skill, Update, conservative_rating, rate_match
from ratings.models import PartnershipRating, PlayerRating, RatingEvent

logger = logging.getLogger(__name__)

type MatchKey = tuple[datetime, int]  # (finished_at, table id): the order matches are rated in

#: The kinds of table result that are rated (league.models.ResultKind).
RATED_KINDS: tuple[str, ...] = (ResultKind.PLAYED, ResultKind.AGREED)

_LOCK_KEY = 0x4B454C5241  # "KELRA": the advisory lock serialising rating writers
_BATCH = 2000


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """What a replay did: from where, how many matches it rated and events it wrote."""

    from_key: MatchKey | None
    matches_count: int
    events_count: int
    skipped_table_ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RatedTable:
    """A finished table as the ratings see it: who played for which side, and placings."""

    table_id: int
    at: datetime
    result_updated_at: datetime
    season_id: int | None
    sides: tuple[int, ...]  # side numbers (lowest seat), ascending
    placings: tuple[int, ...]
    players: tuple[tuple[int, ...], ...]  # per side, by seat
    partnerships: tuple[int, ...] | None  # per side, when both sides are fixed partnerships


# --- public services -------------------------------------------------------------------


@transaction.atomic
def rating_apply_match(*, table_id: int) -> ReplayReport:
    """Bring ratings up to date with one table's result (new, corrected or cleared)."""
    _lock()
    old = (
        RatingEvent.objects.filter(table_id=table_id)
        .values_list("at", "result_updated_at")
        .order_by("at")
        .first()
    )
    new = (
        TableResult.objects.filter(table_id=table_id)
        .values_list("finished_at", "updated_at")
        .first()
    )
    if old is not None and new is not None and old == new:
        return ReplayReport(from_key=None, matches_count=0, events_count=0)  # already rated
    keys = [(row[0], table_id) for row in (old, new) if row is not None]
    if not keys:
        return ReplayReport(from_key=None, matches_count=0, events_count=0)
    return _replay_from(min(keys))


@transaction.atomic
def ratings_recompute_all() -> ReplayReport:
    """Recompute every rating from scratch, in match order (finished_at, table id)."""
    _lock()
    return _replay_from(None)


@transaction.atomic
def ratings_catch_up() -> ReplayReport | None:
    """Rate whatever was missed (a lost task): unrated, corrected or cleared results."""
    _lock()
    keys: list[MatchKey] = []
    rated = RatingEvent.objects.filter(table_id=OuterRef("table_id"))
    unrated = (  # a table with an empty seat cannot be rated: not worth a replay each sweep
        TableResult.objects.annotate(seated=Count("table__seats"))
        .filter(~Exists(rated), seated=F("table__player_count"), kind__in=RATED_KINDS)
        .order_by("finished_at", "table_id")
        .values_list("finished_at", "table_id")
        .first()
    )
    if unrated is not None:
        keys.append(unrated)
    orphan = (
        RatingEvent.objects.filter(
            ~Exists(TableResult.objects.filter(table_id=OuterRef("table_id"), kind__in=RATED_KINDS))
        )
        .order_by("at", "table_id")
        .values_list("at", "table_id")
        .first()
    )
    if orphan is not None:
        keys.append(orphan)
    stale = (
        RatingEvent.objects.annotate(
            current_version=F("table__result__updated_at"),
            current_at=F("table__result__finished_at"),
        )
        .filter(current_version__isnull=False)
        .exclude(current_version=F("result_updated_at"))
        .values_list("at", "current_at", "table_id")
    )
    keys.extend(min((at, table_id), (now, table_id)) for at, now, table_id in stale)
    if not keys:
        return None
    return _replay_from(min(keys))


# --- the replay ------------------------------------------------------------------------


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_KEY])


def _from_q(point: MatchKey | None, *, at: str, table: str) -> Q:
    """Rows at or after ``point`` in match order (everything when ``point`` is None)."""
    if point is None:
        return Q()
    when, table_id = point
    return Q(**{f"{at}__gt": when}) | Q(**{at: when, f"{table}__gte": table_id})


def tables_to_rate(
    point: MatchKey | None = None, *, skipped: list[int] | None = None
) -> list[RatedTable]:
    """Finished tables at or after ``point``, in match order, as the ratings see them.

    Tables whose seats do not match their result are left out (their ids are appended
    to ``skipped`` when given).
    """
    results = (
        TableResult.objects.filter(
            _from_q(point, at="finished_at", table="table_id"), kind__in=RATED_KINDS
        )
        .order_by("finished_at", "table_id")
        .values_list(
            "table_id",
            "finished_at",
            "updated_at",
            "table__player_count",
            "table__round__tournament__season_id",
        )
    )
    placings: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, side, placing in TableResultSide.objects.filter(
        _from_q(point, at="result__finished_at", table="result__table_id")
    ).values_list("result__table_id", "side", "placing"):
        placings[table_id][side] = placing
    seats: dict[int, list[tuple[int, int, int, int | None]]] = defaultdict(list)
    for table_id, number, player_id, entry_id, partnership_id in (
        Seat.objects.filter(
            _from_q(point, at="table__result__finished_at", table="table_id"),
            table__result__isnull=False,
        )
        .order_by("table_id", "number")
        .values_list("table_id", "number", "player_id", "entry_id", "entry__partnership_id")
    ):
        seats[table_id].append((number, player_id, entry_id, partnership_id))
    tables: list[RatedTable] = []
    for table_id, at, updated_at, player_count, season_id in results:
        table = _rated_table(
            table_id=table_id,
            at=at,
            result_updated_at=updated_at,
            season_id=season_id,
            player_count=player_count,
            placings=placings.get(table_id, {}),
            seats=seats.get(table_id, []),
        )
        if table is not None:
            tables.append(table)
        elif skipped is not None:
            skipped.append(table_id)
    return tables


def _rated_table(
    *,
    table_id: int,
    at: datetime,
    result_updated_at: datetime,
    season_id: int | None,
    player_count: int,
    placings: dict[int, int],
    seats: Sequence[tuple[int, int, int, int | None]],
) -> RatedTable | None:
    per_side: dict[int, list[tuple[int, int, int | None]]] = defaultdict(list)
    for number, player_id, entry_id, partnership_id in seats:
        per_side[side_of(number, player_count)].append((player_id, entry_id, partnership_id))
    size = len(side_seats(0, player_count))  # every side has as many seats (R2)
    if (
        len(placings) < 2
        or set(per_side) != set(placings)
        or any(len(members) != size for members in per_side.values())
    ):
        logger.warning("table %s: seats do not match its result; not rated", table_id)
        return None
    sides = tuple(sorted(placings))
    partnerships: tuple[int, ...] | None = None
    if player_count == 4:
        units = []
        for side in sides:
            entries = {entry_id for _p, entry_id, _u in per_side[side]}
            unit = per_side[side][0][2]
            units.append(unit if len(entries) == 1 else None)
        if all(u is not None for u in units) and len(set(units)) == len(units):
            partnerships = tuple(u for u in units if u is not None)
    return RatedTable(
        table_id=table_id,
        at=at,
        result_updated_at=result_updated_at,
        season_id=season_id,
        sides=sides,
        placings=tuple(placings[s] for s in sides),
        players=tuple(tuple(p for p, _e, _u in per_side[s]) for s in sides),
        partnerships=partnerships,
    )


@dataclass(slots=True)
class _Pool:
    """One pool of subjects (players, or partnerships as units) during a replay."""

    skills: dict[int, Skill]
    counts: Counter[int]
    last_at: dict[int, datetime | None]
    touched: set[int]


def _pool_before(
    *,
    point: MatchKey | None,
    doomed: QuerySet[RatingEvent],
    field: str,
    current: QuerySet[Any],
    key: str,
    subjects: Iterable[int],
) -> _Pool:
    """Each subject's rating as it stood just before ``point``.

    The earliest deleted event of a subject holds its state before the point (its
    ``before`` values); a subject with no event at or after the point stands where its
    current row says. The count before is the current count less the deleted events.
    """
    pool = _Pool(skills={}, counts=Counter(), last_at={}, touched=set())
    if point is None:
        return pool
    first_before: dict[int, Skill] = {}
    deleted: Counter[int] = Counter()
    for subject, mu, sigma in (
        doomed.filter(**{f"{field}__isnull": False})
        .order_by("at", "table_id")
        .values_list(field, "mu_before", "sigma_before")
    ):
        first_before.setdefault(subject, Skill(mu=mu, sigma=sigma))
        deleted[subject] += 1
    pool.touched = set(first_before) | set(subjects)
    for subject, mu, sigma, matches_count, last_at in current.filter(
        **{f"{key}__in": pool.touched}
    ).values_list(key, "mu", "sigma", "matches_count", "last_played_at"):
        pool.skills[subject] = first_before.get(subject, Skill(mu=mu, sigma=sigma))
        pool.counts[subject] = matches_count - deleted[subject]
        pool.last_at[subject] = last_at
    for subject in first_before:  # a current row is missing: trust the events
        pool.skills.setdefault(subject, first_before[subject])
    if first_before:
        earlier = (
            RatingEvent.objects.filter(**{f"{field}__in": list(first_before)})
            .exclude(_from_q(point, at="at", table="table_id"))
            .values(field)
            .annotate(last=Max("at"))
            .values_list(field, "last")
        )
        last = dict(earlier)
        for subject in first_before:
            pool.last_at[subject] = last.get(subject)
            if pool.counts[subject] <= 0:
                pool.skills.pop(subject, None)
                pool.counts.pop(subject, None)
    return pool


def _replay_from(point: MatchKey | None) -> ReplayReport:
    skipped: list[int] = []
    tables = tables_to_rate(point, skipped=skipped)
    doomed = RatingEvent.objects.filter(_from_q(point, at="at", table="table_id"))
    players = _pool_before(
        point=point,
        doomed=doomed,
        field="player_id",
        current=PlayerRating.objects.all(),
        key="player_id",
        subjects=(p for t in tables for side in t.players for p in side),
    )
    units = _pool_before(
        point=point,
        doomed=doomed,
        field="partnership_id",
        current=PartnershipRating.objects.all(),
        key="partnership_id",
        subjects=(u for t in tables for u in (t.partnerships or ())),
    )
    doomed.delete()

    events: list[tuple[Any, ...]] = []
    for table in tables:
        match = Match(sides=table.players, placings=table.placings)
        events.extend(_events(table, rate_match(match, players.skills), players, unit=False))
        if table.partnerships is not None:
            unit_match = Match(
                sides=tuple((u,) for u in table.partnerships), placings=table.placings, seats=4
            )
            events.extend(_events(table, rate_match(unit_match, units.skills), units, unit=True))
    _insert_events(events)
    _store(players, PlayerRating, key="player_id", everything=point is None)
    _store(units, PartnershipRating, key="partnership_id", everything=point is None)
    return ReplayReport(
        from_key=point,
        matches_count=len(tables),
        events_count=len(events),
        skipped_table_ids=tuple(skipped),
    )


_EVENT_FIELDS = (
    "table",
    "player",
    "partnership",
    "season",
    "at",
    "result_updated_at",
    "side",
    "placing",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "display_after",
    "expected",
)


def _events(
    table: RatedTable, updates: list[Update], pool: _Pool, *, unit: bool
) -> list[tuple[Any, ...]]:
    """One match's rating events as rows of ``_EVENT_FIELDS``; moves the pool on."""
    at = connection.ops.adapt_datetimefield_value(table.at)
    version = connection.ops.adapt_datetimefield_value(table.result_updated_at)
    rows = []
    for update in updates:
        pool.skills[update.subject] = update.after
        pool.counts[update.subject] += 1
        pool.last_at[update.subject] = table.at
        pool.touched.add(update.subject)
        rows.append(
            (
                table.table_id,
                None if unit else update.subject,
                update.subject if unit else None,
                table.season_id,
                at,
                version,
                table.sides[update.side_index],
                table.placings[update.side_index],
                update.before.mu,
                update.before.sigma,
                update.after.mu,
                update.after.sigma,
                conservative_rating(update.after),
                update.expected,
            )
        )
    return rows


def _insert_events(rows: list[tuple[Any, ...]]) -> None:
    """Insert rating events in bulk: ``COPY`` on PostgreSQL, many rows per statement elsewhere.

    Plain SQL on purpose: a full recompute writes tens of thousands of events, and
    building a model instance per row (``bulk_create``) cost three quarters of the
    recompute's time; on PostgreSQL ``COPY`` is three times faster again than multi-row
    ``INSERT``. The rows hold only plain values already adapted for the database.
    """
    if not rows:
        return
    quote = connection.ops.quote_name
    fields = [RatingEvent._meta.get_field(name) for name in _EVENT_FIELDS]
    columns = ", ".join(quote(str(getattr(f, "column", ""))) for f in fields)
    table = quote(RatingEvent._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        row_marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
        batch = max(1, min(500, connection.ops.bulk_batch_size(fields, rows)))
        head = f"INSERT INTO {table} ({columns}) VALUES "  # noqa: S608  # nosec B608 - quoted names
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            cursor.execute(
                head + ", ".join([row_marks] * len(chunk)),
                [value for row in chunk for value in row],
            )


def _store(
    pool: _Pool,
    model: Any,  # PlayerRating or PartnershipRating: the same fields under another key
    *,
    key: str,
    everything: bool,
) -> None:
    """Replace the current rows of the touched subjects (of everyone after a recompute)."""
    rows = (
        model.objects.all() if everything else model.objects.filter(**{f"{key}__in": pool.touched})
    )
    rows.delete()
    model.objects.bulk_create(
        (
            model(
                **{key: subject},
                mu=skill.mu,
                sigma=skill.sigma,
                display=conservative_rating(skill),
                matches_count=pool.counts[subject],
                last_played_at=pool.last_at.get(subject),
            )
            for subject, skill in pool.skills.items()
            if (everything or subject in pool.touched) and pool.counts[subject] > 0
        ),
        batch_size=_BATCH,
    )
