"""Reads for the public, read-only site: tournaments, rounds and their pairings,
results, and the pages of clubs, players, partnerships and seasons.

What the public may see: tournaments that are not drafts, rounds that are
published or finished, and players by name, nickname and club only (contact
fields are never loaded). Each read runs a fixed number of queries, whatever the
number of rounds, tables or players (``select_related`` / ``prefetch_related``),
and returns plain dataclasses shaped for the templates. Live scores of tables in
play come from score entry through ``league.live`` (``league`` never imports
``matches``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet, prefetch_related_objects

import allfives
from league.live import TableLive, tables_live
from league.models import (
    PLAYER_COUNTS,
    Club,
    Division,
    Entry,
    Partnership,
    Player,
    Round,
    RuleSet,
    Season,
    Seat,
    Table,
    TableResult,
    Tournament,
)

PUBLIC_ROUND_STATUSES = (Round.Status.PUBLISHED, Round.Status.FINISHED)
_PRIVATE_PLAYER_FIELDS = ("email", "phone")


@dataclass(frozen=True, slots=True)
class SideLine:
    """One side of a table: its seats (partners at four players), and its result if any."""

    side: int
    seats: tuple[Seat, ...]
    partnership: Partnership | None
    points: Decimal | None
    placing: int | None
    is_winner: bool
    live_points: Decimal | None = None
    live_chance: float | None = None  # percent, by simulation, while the match is played

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(seat.player for seat in self.seats)


@dataclass(frozen=True, slots=True)
class TableLine:
    """A table as the public pages show it: who sits where, and how it went."""

    table: Table
    sides: tuple[SideLine, ...]
    is_finished: bool
    is_tie: bool
    hands_count: int | None
    live: TableLive | None
    #: How the result came about (``ResultKind``): played, or recorded without hands.
    kind: str = "played"

    @property
    def is_without_hands(self) -> bool:
        """A forfeit, a double forfeit or an agreed score: the pages say so."""
        return self.is_finished and self.kind != "played"

    @property
    def round(self) -> Round:
        return self.table.round

    @property
    def match_url(self) -> str | None:
        return self.live.url if self.live is not None else None

    def side_of_player(self, player_id: int) -> SideLine | None:
        for side in self.sides:
            if any(seat.player_id == player_id for seat in side.seats):
                return side
        return None


@dataclass(frozen=True, slots=True)
class RoundView:
    round: Round
    tables: tuple[TableLine, ...]
    byes: tuple[Entry, ...]

    @property
    def is_live(self) -> bool:
        """Published with a table still to finish: the page refreshes itself."""
        return self.round.status == Round.Status.PUBLISHED and any(
            not t.is_finished for t in self.tables
        )


@dataclass(frozen=True, slots=True)
class RulesInForce:
    rule_set: RuleSet
    targets: tuple[tuple[int, int], ...]  # (players, target)
    hand_sizes: tuple[tuple[int, int], ...]  # (players, tiles dealt)


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A round in a tournament's list: its status and how many of its tables finished."""

    round: Round
    tables_count: int
    finished_count: int


@dataclass(frozen=True, slots=True)
class TournamentView:
    tournament: Tournament
    rules: RulesInForce
    rounds: tuple[RoundSummary, ...]  # every public round, first to last
    current: RoundView | None  # the latest public round, with its tables
    entries_count: int

    @property
    def live_round(self) -> RoundView | None:
        return self.current if self.current is not None and self.current.is_live else None


@dataclass(frozen=True, slots=True)
class HomeView:
    running: tuple[Tournament, ...]
    season: Season | None
    recent: tuple[TableLine, ...]
    clubs: tuple[Club, ...] = ()


@dataclass(frozen=True, slots=True)
class ClubView:
    """A club's public page: its seasons, its public tournaments and its active players
    (names only; their ratings come from the ratings app's template tags)."""

    club: Club
    seasons: tuple[Season, ...]
    tournaments: tuple[Tournament, ...]
    players: tuple[Player, ...]


@dataclass(frozen=True, slots=True)
class TournamentListView:
    """Public tournaments, newest first, of one club when ``club`` is set; ``clubs`` are
    the filter's links."""

    tournaments: tuple[Tournament, ...]
    clubs: tuple[Club, ...]
    club: Club | None


@dataclass(slots=True)
class OpponentRecord:
    """Results against one opponent (or opposing partnership): finished tables only."""

    opponent: Player | Partnership
    played: int = 0
    won: int = 0
    tied: int = 0
    lost: int = 0


@dataclass(slots=True)
class PartnerRecord:
    partner: Player
    played: int = 0
    won: int = 0


@dataclass(frozen=True, slots=True)
class RecordSummary:
    played: int
    won: int
    tied: int
    lost: int
    in_progress: int


@dataclass(frozen=True, slots=True)
class PlayedLine:
    """A table seen from one side: which side was ours and how it went for us."""

    line: TableLine
    own: SideLine
    outcome: str  # "won", "tied", "lost" (finished tables), "open" (not finished)

    @property
    def opponents(self) -> tuple[SideLine, ...]:
        return tuple(s for s in self.line.sides if s.side != self.own.side)


@dataclass(frozen=True, slots=True)
class PlayerView:
    player: Player
    played: tuple[PlayedLine, ...]  # newest first
    summary: RecordSummary
    opponents: tuple[OpponentRecord, ...]
    partners: tuple[PartnerRecord, ...]
    partnerships: tuple[Partnership, ...]
    tournaments: tuple[Tournament, ...]


@dataclass(frozen=True, slots=True)
class PartnershipView:
    partnership: Partnership
    played: tuple[PlayedLine, ...]
    summary: RecordSummary
    opponents: tuple[OpponentRecord, ...]
    tournaments: tuple[Tournament, ...]


@dataclass(frozen=True, slots=True)
class SeasonView:
    season: Season
    divisions: tuple[Division, ...]
    tournaments: tuple[Tournament, ...]
    recent: tuple[TableLine, ...]
    rules: RulesInForce


def _seats_query() -> QuerySet[Seat]:
    return Seat.objects.select_related("player", "entry__partnership").defer(
        *(f"player__{f}" for f in _PRIVATE_PLAYER_FIELDS)
    )


def _tables_query() -> QuerySet[Table]:
    return (
        Table.objects.select_related("result")
        .prefetch_related(Prefetch("seats", queryset=_seats_query()), "result__sides")
        .order_by("number")
    )


def table_lines_for(*, tables: QuerySet[Table]) -> list[TableLine]:
    """The given tables shaped for the pages (seats, results, live scores), in a fixed
    number of queries; the caller decides which tables (its own permission filter)."""
    query = _tables_query().select_related("round__tournament").filter(pk__in=tables.values("pk"))
    return table_lines(list(query.order_by("round__tournament__name", "round__number", "number")))


def tournaments_public() -> QuerySet[Tournament]:
    """Every tournament but drafts, newest first."""
    return Tournament.objects.exclude(status=Tournament.Status.DRAFT).select_related(
        "season", "division"
    )


def rounds_public() -> QuerySet[Round]:
    """Published and finished rounds of public tournaments."""
    return Round.objects.filter(status__in=PUBLIC_ROUND_STATUSES).exclude(
        tournament__status=Tournament.Status.DRAFT
    )


def rules_in_force(*, rule_set: RuleSet) -> RulesInForce:
    """Targets and deal per player count (R3, R4) and the blocked award (R20)."""
    return RulesInForce(
        rule_set=rule_set,
        targets=tuple((n, rule_set.target_for(n)) for n in PLAYER_COUNTS),
        hand_sizes=tuple((n, int(getattr(rule_set, f"hand_size_{n}"))) for n in PLAYER_COUNTS),
    )


def table_lines(tables: Sequence[Table]) -> list[TableLine]:
    """Shape prefetched tables (seats, result sides) into sides, with live scores."""
    live = tables_live(table_ids=[t.pk for t in tables if t.status != Table.Status.SCHEDULED])
    return [_table_line(table, live.get(table.pk)) for table in tables]


def _table_line(table: Table, live: TableLive | None) -> TableLine:
    try:
        result: TableResult | None = table.result
    except TableResult.DoesNotExist:
        result = None
    outcome = {s.side: s for s in result.sides.all()} if result is not None else {}
    by_side: dict[int, list[Seat]] = {}
    for seat in table.seats.all():
        by_side.setdefault(seat.side(table.player_count), []).append(seat)
    sides = []
    for side, seats in sorted(by_side.items()):
        entry = seats[0].entry
        partnership = entry.partnership if entry.partnership_id is not None else None
        line = outcome.get(side)
        sides.append(
            SideLine(
                side=side,
                seats=tuple(seats),
                partnership=partnership,
                points=line.points if line is not None else None,
                placing=line.placing if line is not None else None,
                is_winner=line.is_winner if line is not None else False,
                live_points=live.totals.get(side) if live is not None else None,
                live_chance=live.chances.get(side) if live is not None else None,
            )
        )
    return TableLine(
        table=table,
        sides=tuple(sides),
        is_finished=result is not None,
        is_tie=result.is_tie if result is not None else False,
        hands_count=result.hands_count if result is not None else None,
        live=live,
        kind=result.kind if result is not None else "played",
    )


def _round_views(rounds: Sequence[Round]) -> tuple[RoundView, ...]:
    lines = iter(table_lines([t for r in rounds for t in r.tables.all()]))
    return tuple(
        RoundView(
            round=r,
            tables=tuple(next(lines) for _ in r.tables.all()),
            byes=tuple(r.byes.all()),
        )
        for r in rounds
    )


def _round_prefetches() -> tuple[Prefetch[Any], ...]:
    return (
        Prefetch("tables", queryset=_tables_query()),
        Prefetch(
            "byes",
            queryset=Entry.objects.select_related("player", "partnership").defer(
                *(f"player__{f}" for f in _PRIVATE_PLAYER_FIELDS)
            ),
        ),
    )


def _rounds_query() -> QuerySet[Round]:
    return rounds_public().prefetch_related(*_round_prefetches())


def tournament_public(*, slug: str) -> TournamentView | None:
    """A public tournament: its public rounds, the latest one with its tables (earlier
    rounds have their own pages), and the rules in force."""
    tournament = (
        tournaments_public()
        .select_related("rule_set", "season__rule_set", "club")
        .annotate(entries_total=Count("entries", filter=Q(entries__is_withdrawn=False)))
        .filter(slug=slug)
        .first()
    )
    if tournament is None:
        return None
    rounds = list(
        rounds_public()
        .filter(tournament=tournament)
        .annotate(
            tables_total=Count("tables", distinct=True),
            tables_finished=Count(
                "tables", filter=Q(tables__status=Table.Status.FINISHED), distinct=True
            ),
        )
        .order_by("number")
    )
    current = None
    if rounds:
        latest = rounds[-1]
        latest.tournament = tournament  # already loaded: no query for it
        prefetch_related_objects([latest], *_round_prefetches())
        current = _round_views([latest])[0]
    return TournamentView(
        tournament=tournament,
        rules=rules_in_force(rule_set=tournament.effective_rule_set),
        rounds=tuple(
            RoundSummary(
                round=r,
                tables_count=int(getattr(r, "tables_total", 0)),
                finished_count=int(getattr(r, "tables_finished", 0)),
            )
            for r in rounds
        ),
        current=current,
        entries_count=int(getattr(tournament, "entries_total", 0)),
    )


def round_public(*, slug: str, number: int) -> RoundView | None:
    """One published (or finished) round of a public tournament, with its tables."""
    found = (
        _rounds_query()
        .select_related("tournament__season", "tournament__rule_set")
        .filter(tournament__slug=slug, number=number)
        .first()
    )
    return _round_views([found])[0] if found is not None else None


def table_public(*, slug: str, number: int, table_number: int) -> TableLine | None:
    """One table of a published round, with its round and tournament loaded."""
    table = (
        _tables_query()
        .select_related("round__tournament__season__rule_set", "round__tournament__rule_set")
        .filter(
            round__in=rounds_public(),
            round__tournament__slug=slug,
            round__number=number,
            number=table_number,
        )
        .first()
    )
    return table_lines([table])[0] if table is not None else None


def _played_tables(seat_filter: Q) -> list[TableLine]:
    """Tables of public rounds with a seat matching ``seat_filter``, newest round first."""
    tables = list(
        _tables_query()
        .select_related("round__tournament")
        .filter(round__in=rounds_public())
        .filter(pk__in=Seat.objects.filter(seat_filter).values("table_id"))
        .order_by("-round__tournament__starts_on", "-round__starts_at", "-round__number", "number")
    )
    return table_lines(tables)


def _record(
    lines: Sequence[TableLine], own_side: Callable[[TableLine], SideLine | None]
) -> tuple[list[PlayedLine], RecordSummary, dict[int, OpponentRecord], dict[int, PartnerRecord]]:
    """Each table from our side; wins, ties and losses; against each opponent; with partners.

    A side wins a finished table when it alone has the best placing, ties when it
    shares it (a tied match, or R20's three-player split), and loses otherwise.
    Against one opponent, a side beats those it placed above.
    """
    played: list[PlayedLine] = []
    counts = {"won": 0, "tied": 0, "lost": 0, "open": 0}
    opponents: dict[int, OpponentRecord] = {}
    partners: dict[int, PartnerRecord] = {}
    for line in lines:
        own = own_side(line)
        if own is None:
            continue
        outcome = _outcome(line, own)
        counts[outcome] += 1
        played.append(PlayedLine(line=line, own=own, outcome=outcome))
        if outcome == "open" or own.placing is None:
            continue
        for other in line.sides:
            if other.side == own.side or other.placing is None:
                continue
            for rival in _rivals(other):
                key = rival.pk if isinstance(rival, Player) else -rival.pk
                rec = opponents.setdefault(key, OpponentRecord(opponent=rival))
                rec.played += 1
                result = allfives.outcome(own.placing, (own.placing, other.placing))
                rec.won += result == "win"
                rec.tied += result == "tie"
                rec.lost += result == "loss"
        for seat in own.seats:
            partner = partners.setdefault(seat.player_id, PartnerRecord(partner=seat.player))
            partner.played += 1
            partner.won += outcome == "won"
    summary = RecordSummary(
        played=counts["won"] + counts["tied"] + counts["lost"],
        won=counts["won"],
        tied=counts["tied"],
        lost=counts["lost"],
        in_progress=counts["open"],
    )
    return played, summary, opponents, partners


def _outcome(line: TableLine, own: SideLine) -> str:
    if not line.is_finished or own.placing is None:
        return "open"
    result = allfives.outcome(own.placing, (s.placing for s in line.sides if s.placing is not None))
    if result == "loss":
        return "lost"
    return "tied" if result == "tie" or line.is_tie else "won"


def _rivals(side: SideLine) -> tuple[Player | Partnership, ...]:
    return (side.partnership,) if side.partnership is not None else side.players


def _sorted_opponents(records: dict[int, OpponentRecord]) -> tuple[OpponentRecord, ...]:
    return tuple(sorted(records.values(), key=lambda r: (-r.played, str(r.opponent))))


def player_public(*, slug: str) -> PlayerView | None:
    """A player's public page: tables played, results, partners, record against opponents."""
    player = (
        Player.objects.defer(*_PRIVATE_PLAYER_FIELDS)
        .select_related("home_club")
        .filter(slug=slug)
        .first()
    )
    if player is None:
        return None
    lines = _played_tables(Q(player_id=player.pk))
    played, summary, opponents, partners = _record(
        lines, lambda line: line.side_of_player(player.pk)
    )
    partners.pop(player.pk, None)
    partnerships = tuple(
        Partnership.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("player_a", "player_b")
        .defer(*(f"player_{x}__{f}" for x in "ab" for f in _PRIVATE_PLAYER_FIELDS))
    )
    tournaments = tuple(
        tournaments_public()
        .filter(entries__members__player=player)
        .distinct()
        .order_by("-starts_on", "name")
    )
    return PlayerView(
        player=player,
        played=tuple(played),
        summary=summary,
        opponents=_sorted_opponents(opponents),
        partners=tuple(sorted(partners.values(), key=lambda r: (-r.played, r.partner.name))),
        partnerships=partnerships,
        tournaments=tournaments,
    )


def partnership_public(*, slug: str) -> PartnershipView | None:
    """A partnership's public page: tables it played as an entry, results, opponents."""
    partnership = (
        Partnership.objects.select_related("player_a", "player_b")
        .defer(*(f"player_{x}__{f}" for x in "ab" for f in _PRIVATE_PLAYER_FIELDS))
        .filter(slug=slug)
        .first()
    )
    if partnership is None:
        return None
    lines = _played_tables(Q(entry__partnership_id=partnership.pk))

    def own(line: TableLine) -> SideLine | None:
        return next(
            (s for s in line.sides if s.partnership and s.partnership.pk == partnership.pk), None
        )

    played, summary, opponents, _partners = _record(lines, own)
    tournaments = tuple(
        tournaments_public()
        .filter(entries__partnership=partnership)
        .distinct()
        .order_by("-starts_on", "name")
    )
    return PartnershipView(
        partnership=partnership,
        played=tuple(played),
        summary=summary,
        opponents=_sorted_opponents(opponents),
        tournaments=tournaments,
    )


def _recent_results(table_filter: Q, *, limit: int) -> tuple[TableLine, ...]:
    tables = list(
        _tables_query()
        .select_related("round__tournament")
        .filter(round__in=rounds_public(), result__isnull=False)
        .filter(table_filter)
        .order_by("-result__finished_at", "-pk")[:limit]
    )
    return tuple(table_lines(tables))


def home_public(*, recent_count: int = 10) -> HomeView:
    """Running tournaments, the current season and the latest results."""
    return HomeView(
        running=tuple(tournaments_public().filter(status=Tournament.Status.RUNNING)[:20]),
        season=Season.objects.filter(status=Season.Status.RUNNING).order_by("-starts_on").first(),
        recent=_recent_results(Q(), limit=recent_count),
        clubs=tuple(Club.objects.order_by("name")),
    )


def club_public(*, slug: str) -> ClubView | None:
    """A club with its seasons, public tournaments and active players."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        return None
    return ClubView(
        club=club,
        seasons=tuple(club.seasons.order_by("-starts_on", "name")),
        tournaments=tuple(tournaments_public().filter(club=club).order_by("-starts_on", "name")),
        players=tuple(
            club.players.filter(is_active=True).defer(*_PRIVATE_PLAYER_FIELDS).order_by("name")
        ),
    )


def tournament_list_public(*, club_slug: str | None = None) -> TournamentListView:
    """Every public tournament, newest first — of one club when ``club_slug`` names one
    (an unknown slug shows every tournament)."""
    clubs = tuple(Club.objects.order_by("name"))
    club = next((c for c in clubs if c.slug == club_slug), None) if club_slug else None
    tournaments = tournaments_public().select_related("club").order_by("-starts_on", "name")
    if club is not None:
        tournaments = tournaments.filter(club=club)
    return TournamentListView(tournaments=tuple(tournaments), clubs=clubs, club=club)


def season_public(*, slug: str, recent_count: int = 10) -> SeasonView | None:
    """A season with its divisions, public tournaments and latest results."""
    season = Season.objects.select_related("rule_set").filter(slug=slug).first()
    if season is None:
        return None
    return SeasonView(
        season=season,
        divisions=tuple(season.divisions.all()),
        tournaments=tuple(
            tournaments_public().filter(season=season).order_by("-starts_on", "name")
        ),
        recent=_recent_results(Q(round__tournament__season=season), limit=recent_count),
        rules=rules_in_force(rule_set=season.rule_set),
    )


def tournament_results_public(*, slug: str) -> tuple[Tournament, list[TableLine]] | None:
    """A public tournament's finished tables, round by round, for the results export."""
    tournament = tournaments_public().filter(slug=slug).first()
    if tournament is None:
        return None
    tables = (
        _tables_query()
        .select_related("round__tournament")
        .filter(round__in=rounds_public().filter(tournament=tournament), result__isnull=False)
        .order_by("round__number", "number")
    )
    return tournament, [_table_line(table, None) for table in tables]
