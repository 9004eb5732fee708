"""Reading sign-ups, applications and a player's own tournament ("Turnamen saya").

``signup_state`` says whether a tournament takes applications now and why not, and
``signups_open_public`` lists the public tournaments that do (for the home page);
``player_link_application`` finds the application a private link stands for;
``my_tournament`` gathers what the player's page shows: the next table and seat (seats
counted from 1), partner and opponents by name, results so far, and the standings around
the player.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from functools import partial

from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from allfives import side_of
from entrants.models import (
    Application,
    ApplicationStatus,
    Notification,
    PlayerLink,
    RoundPresence,
    SignUp,
)
from league.models import Entry, Round, Seat, Table, Tournament
from league.selectors_public import tournaments_public
from standings.models import StandingsRow

#: How many standings rows above and below the player their page shows.
STANDINGS_AROUND = 2


class SignUpState(StrEnum):
    OPEN = "open"
    NOT_OFFERED = "not_offered"
    NOT_YET = "not_yet"
    CLOSED = "closed"
    FULL = "full"  # places taken, no waiting list
    WAITING_LIST = "waiting_list"  # places taken: applications go on the waiting list


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def signup_of(*, tournament: Tournament) -> SignUp | None:
    return SignUp.objects.filter(tournament=tournament).first()


def places_taken(*, tournament: Tournament) -> int:
    """Entries that hold a place: every entry not withdrawn."""
    return Entry.objects.filter(tournament=tournament, is_withdrawn=False).count()


def _state_of(
    signup: SignUp | None, tournament: Tournament, now: datetime, taken: Callable[[], int]
) -> SignUpState:
    """The one rule of ``signup_state``; ``taken`` counts the places held (asked only when
    there is a cap)."""
    if signup is None or not signup.is_open or tournament.status == Tournament.Status.DRAFT:
        return SignUpState.NOT_OFFERED
    if tournament.status == Tournament.Status.FINISHED:
        return SignUpState.CLOSED
    if signup.opens_at is not None and now < signup.opens_at:
        return SignUpState.NOT_YET
    if signup.closes_at is not None and now >= signup.closes_at:
        return SignUpState.CLOSED
    if signup.cap is not None and taken() >= signup.cap:
        return SignUpState.WAITING_LIST if signup.has_waiting_list else SignUpState.FULL
    return SignUpState.OPEN


def signup_state(*, tournament: Tournament, now: datetime | None = None) -> SignUpState:
    """Whether ``tournament`` takes applications at ``now``, and if not, why."""
    return _state_of(
        signup_of(tournament=tournament),
        tournament,
        now or timezone.now(),
        lambda: places_taken(tournament=tournament),
    )


def signups_open_public(*, now: datetime | None = None) -> list[Tournament]:
    """The public tournaments whose sign-up is open at ``now`` with a place free (not
    closed, not yet open, full, nor only taking the waiting list), soonest first; one
    query."""
    now = now or timezone.now()
    signups = (
        SignUp.objects.filter(is_open=True, tournament__in=tournaments_public())
        .select_related("tournament__club")
        .annotate(
            taken=Count("tournament__entries", filter=Q(tournament__entries__is_withdrawn=False))
        )
        .order_by(F("tournament__starts_on").asc(nulls_last=True), "tournament__name")
    )
    found: list[Tournament] = []
    for signup in signups:
        taken: int = signup.taken
        if _state_of(signup, signup.tournament, now, partial(int, taken)) == SignUpState.OPEN:
            found.append(signup.tournament)
    return found


def applications_undecided(*, tournament: Tournament) -> list[Application]:
    """The tournament's applications waiting for the organiser (pending first, then the
    waiting list), oldest first."""
    order = {ApplicationStatus.PENDING: 0, ApplicationStatus.WAITING: 1}
    found = Application.objects.filter(tournament=tournament, status__in=list(order)).order_by(
        "created_at", "pk"
    )
    return sorted(found, key=lambda a: order[ApplicationStatus(a.status)])


def notifications_failed(*, tournament: Tournament) -> QuerySet[Notification]:
    """The tournament's round mail that failed after its retries, newest first."""
    return (
        Notification.objects.filter(round__tournament=tournament, status=Notification.Status.FAILED)
        .select_related("application", "round")
        .order_by("-created_at", "-pk")
    )


def player_link_application(*, key: str) -> Application | None:
    """The application an active private link stands for (none: unknown or revoked)."""
    link = (
        PlayerLink.objects.filter(key_hash=key_hash(key), revoked_at__isnull=True)
        .select_related("application__tournament", "application__entry")
        .first()
    )
    return None if link is None else link.application


def round_is_checked_in_only(round: Round) -> bool:
    """The organiser's presence rule for ``round`` (``league.hooks`` provider)."""
    return RoundPresence.objects.filter(round=round, is_checked_in_only=True).exists()


@dataclass(frozen=True, slots=True)
class MissingEntry:
    name: str
    application: Application | None


def round_missing(*, round: Round) -> list[MissingEntry]:
    """The tournament's entries not checked in (nor withdrawn), by name."""
    entries = (
        Entry.objects.filter(tournament_id=round.tournament_id, is_withdrawn=False)
        .filter(is_checked_in=False)
        .select_related("player", "partnership", "application")
        .order_by("pk")
    )
    return [
        MissingEntry(name=e.display_name, application=getattr(e, "application", None))
        for e in entries
    ]


@dataclass(frozen=True, slots=True)
class TableMate:
    name: str
    seat: int  # counted from 1


@dataclass(frozen=True, slots=True)
class NextTable:
    round_number: int
    table: Table
    seat: int  # counted from 1
    partners: tuple[TableMate, ...]
    opponents: tuple[TableMate, ...]
    is_finished: bool


@dataclass(frozen=True, slots=True)
class ResultLine:
    round_number: int
    table_number: int
    outcome: str  # "win", "tie", "loss", "bye", or a placing "1", "2", "3"
    points: Decimal | None
    opponents: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    name: str
    match_points: Decimal
    played: int
    is_me: bool


@dataclass(frozen=True, slots=True)
class MyTournament:
    application: Application
    entry: Entry | None
    next_table: NextTable | None
    results: tuple[ResultLine, ...]
    standings: tuple[StandingLine, ...]


def _mates(table: Table, seat: Seat) -> tuple[tuple[TableMate, ...], tuple[TableMate, ...]]:
    mine = side_of(seat.number, table.player_count)
    partners: list[TableMate] = []
    opponents: list[TableMate] = []
    for other in table.seats.all():
        if other.pk == seat.pk:
            continue
        mate = TableMate(name=str(other.player), seat=other.number + 1)
        (partners if side_of(other.number, table.player_count) == mine else opponents).append(mate)
    return tuple(partners), tuple(opponents)


def _seats_of(entry: Entry, player_ids: list[int]) -> QuerySet[Seat]:
    return (
        Seat.objects.filter(entry=entry, player_id__in=player_ids)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("table__round", "table__result", "player")
        .prefetch_related("table__seats__player", "table__result__sides")
        .order_by("table__round__number", "number")
    )


def _next_table(entry: Entry, seats: list[Seat]) -> NextTable | None:
    """The seat of the latest published round (the one being played or about to be)."""
    current = [s for s in seats if s.table.round.status == Round.Status.PUBLISHED]
    if not current:
        return None
    seat = current[-1]
    table = seat.table
    partners, opponents = _mates(table, seat)
    return NextTable(
        round_number=table.round.number,
        table=table,
        seat=seat.number + 1,
        partners=partners,
        opponents=opponents,
        is_finished=table.status == Table.Status.FINISHED or hasattr(table, "result"),
    )


def _results(entry: Entry, seats: list[Seat]) -> list[ResultLine]:
    lines: list[ResultLine] = []
    seen: set[int] = set()
    for seat in seats:
        table = seat.table
        if table.pk in seen or not hasattr(table, "result"):
            continue
        seen.add(table.pk)
        side = side_of(seat.number, table.player_count)
        own = next((s for s in table.result.sides.all() if s.side == side), None)
        if own is None:
            continue
        if table.player_count == 3:
            outcome = str(own.placing)
        elif table.result.is_tie:
            outcome = "tie"
        else:
            outcome = "win" if own.is_winner else "loss"
        _partners, opponents = _mates(table, seat)
        lines.append(
            ResultLine(
                round_number=table.round.number,
                table_number=table.number,
                outcome=outcome,
                points=own.points,
                opponents=tuple(o.name for o in opponents),
            )
        )
    for round_number in entry.bye_rounds.exclude(status=Round.Status.DRAFT).values_list(
        "number", flat=True
    ):
        lines.append(
            ResultLine(
                round_number=round_number,
                table_number=0,
                outcome="bye",
                points=None,
                opponents=(),
            )
        )
    return sorted(lines, key=lambda line: line.round_number)


def _standings_around(entry: Entry) -> list[StandingLine]:
    rows = list(
        StandingsRow.objects.filter(standings__tournament_id=entry.tournament_id)
        .filter(Q(entry__isnull=False))
        .order_by("position")
        .values("entry_id", "rank", "name", "match_points", "tables_played")
    )
    index = next((i for i, row in enumerate(rows) if row["entry_id"] == entry.pk), None)
    if index is None:
        return []
    around = rows[max(0, index - STANDINGS_AROUND) : index + STANDINGS_AROUND + 1]
    return [
        StandingLine(
            rank=row["rank"],
            name=row["name"],
            match_points=row["match_points"].normalize(),
            played=row["tables_played"],
            is_me=row["entry_id"] == entry.pk,
        )
        for row in around
    ]


def my_tournament(*, application: Application) -> MyTournament:
    """What the player's own page shows (nothing but the application before approval)."""
    entry = application.entry
    if entry is None:
        return MyTournament(application, None, None, (), ())
    player_ids = list(entry.members.values_list("player_id", flat=True))
    seats = list(_seats_of(entry, player_ids))
    # A pair's application stands for its first player's seat (the partner sits opposite).
    first = entry.partnership.player_a_id if entry.partnership is not None else entry.player_id
    own_seats = [s for s in seats if s.player_id == first] or seats
    return MyTournament(
        application=application,
        entry=entry,
        next_table=_next_table(entry, own_seats),
        results=tuple(_results(entry, own_seats)),
        standings=tuple(_standings_around(entry)),
    )
