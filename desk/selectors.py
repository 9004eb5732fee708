"""What the organiser's desk and the projector view read: a tournament's current round
as a board (every table with its players, seats counted from 1, its status, running
totals and links), whether the round may be paired (again), in the pairing service's own
words, the entries with their check-in, and the projector's pairings and standings.

A table's *status* on the board, most pressing first: ``finished`` (its result is in),
``disputed`` (the other side disputed a hand: the organiser settles it), ``confirming``
(hands wait for the opponents' confirmation), ``playing`` (hands are being entered; the
board says how many and how long ago the last one was), ``scheduled`` (not started).
Each read runs a fixed number of queries, whatever the number of tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import get_format
from django.utils.translation import gettext_lazy as _

from allfives import side_of, sides_of
from knockout.selectors import round_stages, stage_shared
from league.live import tables_live
from league.models import Entry, ResultKind, Round, Table, Tournament
from league.services.clock import round_clock_remaining, round_time_limit
from matches.models import Match
from matches.selectors import TableOffline, round_is_scorable, tables_offline
from standings.display import format_number
from standings.models import Standings
from standings.selectors import standings_rows

#: The board's statuses, in the order the board counts them, with their words.
STATUS_LABELS: dict[str, Any] = {
    "scheduled": _("Not started"),
    "playing": _("Playing"),
    "confirming": _("Waiting for confirmation"),
    "disputed": _("Disputed"),
    "finished": _("Finished"),
}


@dataclass(frozen=True, slots=True)
class BoardSeat:
    number: int  # from 1, as people count
    name: str


@dataclass(frozen=True, slots=True)
class BoardSide:
    seats: tuple[BoardSeat, ...]
    total: str | None  # running total, localised ("17,5"), once a hand is in
    is_winner: bool
    side: int = 0  # named by its lowest seat, from 0, as the services take it

    @property
    def names(self) -> str:
        return " & ".join(seat.name for seat in self.seats)


@dataclass(frozen=True, slots=True)
class BoardTable:
    id: int
    number: int
    target: int
    status: str
    hands_count: int
    minutes_since_hand: int | None
    sides: tuple[BoardSide, ...]
    scoresheet_url: str | None
    card_url: str | None
    links_url: str
    #: The organiser's card with the sides' scoring links as QR codes (printing it issues
    #: the links), while the round is published; ``card_url`` is the public card without.
    card_with_links_url: str | None = None
    #: How the result came about when it was recorded without hands ("forfeit",
    #: "double_forfeit", "agreed"); empty for a played result or none yet.
    result_kind: str = ""
    has_hands: bool = False
    #: The round clock: time was called at this table's match after this many hands.
    time_called_after: int | None = None
    #: The table's phone reported hands it could not send yet ("offline since 14.02").
    offline: TableOffline | None = None
    #: A knockout table's stage ("Final", "Third place"), as the bracket page names it;
    #: empty at a table that is no knockout table.
    stage: str = ""

    @property
    def status_label(self) -> str:
        return str(STATUS_LABELS[self.status])

    @property
    def result_kind_label(self) -> str:
        return str(ResultKind(self.result_kind).label) if self.result_kind else ""

    @property
    def is_finished(self) -> bool:
        return self.status == "finished"


@dataclass(frozen=True, slots=True)
class Board:
    """A round's tables as the desk shows them, with how many are in each status."""

    round: Round | None
    tables: tuple[BoardTable, ...]
    byes: tuple[str, ...]

    def count(self, status: str) -> int:
        return sum(1 for t in self.tables if t.status == status)

    @property
    def counts(self) -> list[tuple[str, str, int]]:
        return [(key, str(label), self.count(key)) for key, label in STATUS_LABELS.items()]

    @property
    def unfinished(self) -> tuple[BoardTable, ...]:
        return tuple(t for t in self.tables if t.status != "finished")

    @property
    def is_live(self) -> bool:
        """Published with a table still to finish: the board refreshes itself."""
        return (
            self.round is not None
            and self.round.status == Round.Status.PUBLISHED
            and bool(self.unfinished)
        )


def round_current(*, tournament: Tournament) -> Round | None:
    """The tournament's latest round (the one being drafted, played or just closed)."""
    return tournament.rounds.order_by("-number").first()


def _points(points_x2: int) -> str:
    return format_number(Decimal(points_x2) / 2, str(get_format("DECIMAL_SEPARATOR")))


def _status(table: Table, match: Match | None, disputed: bool, unconfirmed: int) -> str:
    if table.status == Table.Status.FINISHED:
        return "finished"
    if disputed:
        return "disputed"
    if match is not None and match.requires_confirmation and unconfirmed:
        return "confirming"
    if table.status == Table.Status.PLAYING or (match is not None and match.hands_count):
        return "playing"
    return "scheduled"


def round_board(*, round: Round | None) -> Board:
    """The round's tables with their players, status, running totals and links."""
    if round is None:
        return Board(None, (), ())
    tables = list(
        Table.objects.filter(round=round)
        .select_related("result")
        .prefetch_related("seats__player", "result__sides")
        .order_by("number")
    )
    matches = {
        m.table_id: m
        for m in Match.objects.filter(table__round=round).annotate(
            last_hand_at=Max("hands__updated_at"),
            disputed_count=Count("hands", filter=Q(hands__disputed_at__isnull=False)),
            unconfirmed_count=Count("hands", filter=Q(hands__confirmed_at__isnull=True)),
        )
    }
    offline = tables_offline(table_ids=[t.pk for t in tables])
    now = timezone.now()
    slug, number = round.tournament.slug, round.number
    is_public = round.status != Round.Status.DRAFT
    is_scorable = round_is_scorable(round=round)
    links = reverse("admin:matches_tablelink_changelist")
    stages = round_stages(round_id=round.pk) if round.is_knockout else {}
    board = []
    for table in tables:
        match = matches.get(table.pk)
        result = getattr(table, "result", None)
        winners = {s.side for s in result.sides.all() if s.is_winner} if result else set()
        kind = result.kind if result is not None and result.kind != ResultKind.PLAYED else ""
        agreed = (
            {s.side: _points(s.points_x2) for s in result.sides.all()}
            if result is not None and kind == ResultKind.AGREED
            else {}
        )
        status = _status(
            table,
            match,
            bool(match and match.disputed_count),
            match.unconfirmed_count if match else 0,
        )
        last = getattr(match, "last_hand_at", None) if match else None
        seats = sorted(table.seats.all(), key=lambda s: s.number)
        sides = tuple(
            BoardSide(
                seats=tuple(
                    BoardSeat(s.number + 1, str(s.player))
                    for s in seats
                    if side_of(s.number, table.player_count) == side
                ),
                total=agreed.get(side)
                or (_points(match.total_x2(side)) if match and match.hands_count else None),
                is_winner=side in winners,
                side=side,
            )
            for side in sides_of(table.player_count)
        )
        board.append(
            BoardTable(
                id=table.pk,
                number=table.number,
                target=table.target,
                status=status,
                hands_count=match.hands_count if match else 0,
                minutes_since_hand=int((now - last).total_seconds() // 60)
                if last and status != "finished"
                else None,
                sides=sides,
                scoresheet_url=reverse("matches:public_scoresheet", args=[match.pk])
                if match is not None and is_public
                else None,
                card_url=reverse("matches:table_card", args=[slug, number, table.number])
                if is_public and round.tournament.status != Tournament.Status.DRAFT
                else None,
                links_url=f"{links}?table__id__exact={table.pk}",
                card_with_links_url=reverse(
                    "matches:table_card_with_links", args=[slug, number, table.number]
                )
                if is_scorable
                else None,
                result_kind=kind,
                has_hands=bool(match and match.hands_count),
                time_called_after=match.time_called_after if match else None,
                offline=offline.get(table.pk) if status != "finished" else None,
                stage=stages.get(table.pk, ""),
            )
        )
    byes = tuple(e.display_name for e in round.byes.select_related("player", "partnership"))
    return Board(round, tuple(board), byes)


def board_table(*, board: Board, number: int) -> BoardTable | None:
    """The board's table of that number, or None."""
    return next((t for t in board.tables if t.number == number), None)


# --- The round clock ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundClock:
    """A round's clock as the desk and the projector show it (docs/rules.md R24)."""

    limit_minutes: int
    is_started: bool
    is_called: bool
    seconds_left: int | None  # None until the clock starts

    @property
    def is_running(self) -> bool:
        return self.is_started and not self.is_called and bool(self.seconds_left)

    @property
    def left(self) -> str:
        """The time left as minutes:seconds ("29:05"), as the page first shows it."""
        seconds = self.seconds_left or 0
        return f"{seconds // 60}:{seconds % 60:02d}"


def round_clock(*, round: Round | None) -> RoundClock | None:
    """The round's clock, or None when the tournament plays to the target only."""
    if round is None:
        return None
    limit = round_time_limit(round=round)
    if limit is None:
        return None
    remaining = round_clock_remaining(round=round)
    return RoundClock(
        limit_minutes=limit,
        is_started=round.clock_started_at is not None,
        is_called=round.time_called_at is not None,
        seconds_left=None if remaining is None else int(remaining.total_seconds()),
    )


@dataclass(frozen=True, slots=True)
class EntryLine:
    id: int
    name: str
    is_checked_in: bool
    is_withdrawn: bool
    withdrawn_round: int | None


def tournament_entries(*, tournament: Tournament) -> list[EntryLine]:
    """The tournament's entries, by name, with their check-in and withdrawal."""
    entries = Entry.objects.filter(tournament=tournament).select_related("player", "partnership")
    lines = [
        EntryLine(e.pk, e.display_name, e.is_checked_in, e.is_withdrawn, e.withdrawn_round)
        for e in entries
    ]
    return sorted(lines, key=lambda line: (line.is_withdrawn, line.name.casefold()))


# --- The projector view -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProjectorTable:
    number: int
    sides: tuple[str, ...]
    status: str
    result_kind_label: str = ""
    #: While the table plays: each side's running total and chance of winning from here
    #: in percent (by simulation, ``matches.chances``), side by side with ``sides``.
    totals: tuple[str, ...] = ()
    chances: tuple[float, ...] = ()
    #: A knockout table's stage ("Final", "Third place"), shown when the round's tables
    #: are at more than one; empty otherwise.
    stage: str = ""

    @property
    def side_lines(self) -> tuple[tuple[str, str | None, float | None], ...]:
        """Each side's names with its running total and chance (None when not shown)."""
        count = len(self.sides)
        totals: tuple[str | None, ...] = self.totals or (None,) * count
        chances: tuple[float | None, ...] = self.chances or (None,) * count
        return tuple(zip(self.sides, totals, chances, strict=True))


@dataclass(frozen=True, slots=True)
class ProjectorRow:
    rank: int
    name: str
    match_points: str
    played: int


@dataclass(frozen=True, slots=True)
class ProjectorView:
    tournament: Tournament
    round: Round | None
    tables: tuple[ProjectorTable, ...]
    byes: tuple[str, ...]
    standings: tuple[ProjectorRow, ...]
    clock: RoundClock | None = None
    #: The stage every knockout table of the round is at ("Semi-finals"); empty when the
    #: round is no knockout round or its tables are at several stages (each table says).
    stage: str = ""


def tournament_projected(*, slug: str) -> Tournament | None:
    """A public (not draft) tournament by its slug, or None."""
    return (
        Tournament.objects.exclude(status=Tournament.Status.DRAFT)
        .filter(slug=slug)
        .select_related("standings")
        .first()
    )


def projector_view(*, tournament: Tournament) -> ProjectorView:
    """The tournament's latest public round (its tables and who sits at them) and its
    standings, for a big screen."""
    round = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    board = round_board(round=round)
    playing = [t.id for t in board.tables if t.status in ("playing", "confirming", "disputed")]
    live = tables_live(table_ids=playing)
    stages = {t.id: t.stage for t in board.tables if t.stage}
    stage = stage_shared(stages)
    tables = []
    for t in board.tables:
        found = live.get(t.id)
        chances = found.chances if found is not None else {}
        tables.append(
            ProjectorTable(
                t.number,
                tuple(side.names for side in t.sides),
                t.status,
                t.result_kind_label,
                totals=tuple(side.total or "0" for side in t.sides) if found else (),
                chances=tuple(chances[side.side] for side in t.sides)
                if found and all(side.side in chances for side in t.sides)
                else (),
                stage="" if stage else stages.get(t.id, ""),
            )
        )
    standings: Standings | None = getattr(tournament, "standings", None)
    separator = str(get_format("DECIMAL_SEPARATOR"))
    rows = (
        tuple(
            ProjectorRow(
                row.rank, row.name, format_number(row.match_points, separator), row.tables_played
            )
            for row in standings_rows(standings=standings)
        )
        if standings is not None
        else ()
    )
    clock = round_clock(round=round) if round and round.status == Round.Status.PUBLISHED else None
    return ProjectorView(tournament, round, tuple(tables), board.byes, rows, clock, stage)
