"""Reads for standings: the maths' input gathered from the league's records, the
computation itself, and the stored rows that pages, CSV and the API show.

A *scope* is what one ``Standings`` ranks: a tournament (its entries), or a season or
division (players, or partnerships when every tournament in it is a fixed-partnership
one), aggregating all their tournaments and league nights. Each table is scored by its
own tournament's scoring, so a season mixes formats fairly.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from django.db.models import Count, DecimalField, F, Q
from django.db.models.expressions import OrderBy
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from allfives import side_of
from league.models import (
    Division,
    Entry,
    EntryMember,
    Partnership,
    Player,
    ResultKind,
    Round,
    Season,
    Seat,
    Table,
    TableResult,
    TableResultSide,
    Tournament,
)
from standings.maths import (
    DEFAULT_SCORING,
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    Bye,
    Ranking,
    ScoringConfig,
    SideResult,
    TableRecord,
    Tiebreak,
    Withdrawal,
    compute_standings,
    validate_tiebreaks,
)
from standings.models import Standings, StandingsRow

T = Tiebreak

#: The order used when a tournament leaves its tiebreaks empty ("the default for the format").
DEFAULT_TIEBREAKS_BY_FORMAT: dict[str, tuple[str, ...]] = {
    Tournament.Format.SWISS: (
        T.MATCH_POINTS,
        T.BUCHHOLZ,
        T.MEDIAN_BUCHHOLZ,
        T.SONNEBORN_BERGER,
        T.WINS,
        T.POINTS_DIFFERENCE,
        T.LOT,
    ),
    Tournament.Format.ROUND_ROBIN: (
        T.MATCH_POINTS,
        T.HEAD_TO_HEAD,
        T.WINS,
        T.SONNEBORN_BERGER,
        T.POINTS_DIFFERENCE,
        T.LOT,
    ),
    Tournament.Format.FIXED_PARTNERSHIP: (
        T.MATCH_POINTS,
        T.WINS,
        T.POINTS_DIFFERENCE,
        T.HEAD_TO_HEAD,
        T.POINTS_SCORED,
        T.LOT,
    ),
    Tournament.Format.ROTATING_PARTNER: (
        T.MATCH_POINTS,
        T.WINS,
        T.TARGET_SHARE,
        T.TABLE_MATES_STRENGTH,
        T.HANDS_WON,
        T.LOT,
    ),
    Tournament.Format.LEAGUE_NIGHT: (
        T.MATCH_POINTS,
        T.WINS,
        T.TARGET_SHARE,
        T.POINTS_DIFFERENCE,
        T.HANDS_WON,
        T.LOT,
    ),
}


@dataclass(frozen=True, slots=True)
class StandingsInput:
    """Everything the maths needs for one scope, plus the names shown on the rows."""

    entrant_kind: str
    tables: list[TableRecord]
    byes: list[Bye]
    withdrawals: list[Withdrawal]
    names: dict[int, str]
    scoring: ScoringConfig
    tiebreaks: tuple[str, ...]
    lot_seed: str
    table_numbers: dict[int, int] = field(default_factory=dict)  # table id -> its number


def standings_rank(data: StandingsInput) -> Ranking:
    """Rank one scope's input with the pure maths."""
    return compute_standings(
        tables=data.tables,
        byes=data.byes,
        withdrawals=data.withdrawals,
        entrant_ids=data.names,
        scoring=data.scoring,
        tiebreaks=data.tiebreaks,
        lot_seed=data.lot_seed,
    )


@dataclass(frozen=True, slots=True)
class StandingsComputation:
    """One computation of one scope: the version it answers and its ranked result."""

    standings_id: int
    version: int
    input: StandingsInput
    result: Ranking
    elapsed_ms: int


def tournament_scoring(*, tournament: Tournament) -> ScoringConfig:
    """The tournament's scoring of a table, with the maths' defaults where it is silent."""
    given = [Decimal(str(p)) for p in tournament.placing_points_3 or ()]
    placing = (given[0], given[1], given[2]) if len(given) == 3 else DEFAULT_SCORING.placing_points
    return ScoringConfig(
        win_points=Decimal(tournament.points_win),
        tie_points=Decimal(tournament.points_tie),
        loss_points=Decimal(tournament.points_loss),
        placing_points=placing,
        bye_points=Decimal(tournament.points_bye),
    )


def tournament_tiebreaks(*, tournament: Tournament) -> tuple[str, ...]:
    """The organiser's tiebreak order, or the format's default when it is empty."""
    if tournament.tiebreaks:
        return validate_tiebreaks(tournament.tiebreaks)
    return DEFAULT_TIEBREAKS_BY_FORMAT.get(tournament.format, DEFAULT_TIEBREAKS)


def standings_input(*, standings: Standings) -> StandingsInput:
    """Read one scope's records from the database (a handful of queries, no N+1)."""
    if standings.tournament_id is not None:
        return _tournament_input(tournament_id=standings.tournament_id)
    if standings.season_id is not None:
        return _aggregate_input(
            Q(season_id=standings.season_id), lot_seed=f"season-{standings.season_id}"
        )
    assert standings.division_id is not None
    return _aggregate_input(
        Q(division_id=standings.division_id), lot_seed=f"division-{standings.division_id}"
    )


def standings_compute(*, standings_id: int) -> StandingsComputation:
    """Compute one scope from the database, labelled with the version read *first*.

    The version is read before the records, so the records are at least as new as
    the version claims: a later request always leads to a later computation.
    """
    started = time.perf_counter()
    standings = Standings.objects.get(pk=standings_id)
    data = standings_input(standings=standings)
    result = standings_rank(data)
    elapsed_ms = round((time.perf_counter() - started) * 1000)
    return StandingsComputation(
        standings_id=standings.pk,
        version=standings.requested_version,
        input=data,
        result=result,
        elapsed_ms=elapsed_ms,
    )


def _tournament_input(*, tournament_id: int) -> StandingsInput:
    tournament = Tournament.objects.get(pk=tournament_id)
    entries = Entry.objects.filter(tournament_id=tournament_id).values_list(
        "id",
        "is_withdrawn",
        "withdrawn_round",
        "player__name",
        "player__nickname",
        "partnership__name",
    )
    names: dict[int, str] = {}
    withdrawals: list[Withdrawal] = []
    for entry_id, is_withdrawn, withdrawn_round, name, nickname, partnership in entries:
        # As Entry.display_name, without building three model instances per entry.
        names[entry_id] = partnership or str(Player(name=name, nickname=nickname))
        if is_withdrawn:
            withdrawals.append(Withdrawal(entry_id, withdrawn_round or 0))
    records, numbers = _table_records(
        tournament_ids=[tournament_id],
        scoring_of_tournament=lambda _tournament_id: None,  # the call's scoring
    )
    byes = [
        Bye(entry_id, number)
        for entry_id, number in Round.byes.through.objects.filter(
            round__tournament_id=tournament_id
        ).values_list("entry_id", "round__number")
    ]
    return StandingsInput(
        entrant_kind=Standings.EntrantKind.ENTRY,
        tables=records,
        byes=byes,
        withdrawals=withdrawals,
        names=names,
        scoring=tournament_scoring(tournament=tournament),
        tiebreaks=tournament_tiebreaks(tournament=tournament),
        lot_seed=str(tournament.seed),
        table_numbers=numbers,
    )


def _aggregate_input(tournaments_q: Q, *, lot_seed: str) -> StandingsInput:
    """A season's or division's input: every table of its tournaments, ranked by player
    (or by partnership when all of them are fixed-partnership tournaments)."""
    tournaments = {t.pk: t for t in Tournament.objects.filter(tournaments_q)}
    scoring = {pk: tournament_scoring(tournament=t) for pk, t in tournaments.items()}
    ids = list(tournaments)
    by_partnership = bool(ids) and all(t.is_partnership_format for t in tournaments.values())
    # Who a seat, or a bye of an entry, credits: the partnership, or the player(s).
    partnership_of: dict[int, int] | None = None
    credited: dict[int, list[int]] = defaultdict(list)
    if by_partnership:
        partnership_of = dict(
            Entry.objects.filter(tournament__in=ids).values_list("id", "partnership_id")
        )
        for entry_id, partnership_id in partnership_of.items():
            credited[entry_id].append(partnership_id)
    else:
        for entry_id, player_id in EntryMember.objects.filter(tournament__in=ids).values_list(
            "entry_id", "player_id"
        ):
            credited[entry_id].append(player_id)
    records, numbers = _table_records(
        tournament_ids=ids,
        partnership_of=partnership_of,
        by_player=not by_partnership,
        scoring_of_tournament=scoring.__getitem__,
    )
    byes = [
        Bye(entrant_id, number, scoring[tournament_id])
        for entry_id, number, tournament_id in Round.byes.through.objects.filter(
            round__tournament__in=ids
        ).values_list("entry_id", "round__number", "round__tournament_id")
        for entrant_id in credited.get(entry_id, ())
    ]
    entrant_ids = {e for r in records for side in r.sides for e in side.entrant_ids}
    entrant_ids.update(b.entrant_id for b in byes)
    model: type[Player] | type[Partnership] = Partnership if by_partnership else Player
    names = {obj.pk: str(obj) for obj in model.objects.filter(pk__in=entrant_ids)}
    return StandingsInput(
        entrant_kind=Standings.EntrantKind.PARTNERSHIP
        if by_partnership
        else Standings.EntrantKind.PLAYER,
        tables=records,
        byes=byes,
        withdrawals=[],  # leaving one tournament is not leaving the season
        names=names,
        scoring=DEFAULT_SCORING,
        tiebreaks=DEFAULT_TIEBREAKS,
        lot_seed=lot_seed,
        table_numbers=numbers,
    )


def _table_records(
    *,
    tournament_ids: Sequence[int],
    partnership_of: dict[int, int] | None = None,
    by_player: bool = False,
    scoring_of_tournament: Callable[[int], ScoringConfig | None],
) -> tuple[list[TableRecord], dict[int, int]]:
    """The tournaments' finished tables (those with a result) and tables in play, as
    maths records, in three queries, and the table numbers by table id. Each seat
    credits its entry, or its player (``by_player``), or its entry's partnership."""
    # (table id, side) -> entrants credited.
    credited: dict[tuple[int, int], list[int]] = {}
    for table_id, number, player_count, entry_id, player_id in Seat.objects.filter(
        table__round__tournament__in=tournament_ids
    ).values_list("table_id", "number", "table__player_count", "entry_id", "player_id"):
        key = (table_id, side_of(number, player_count))
        if by_player:
            entrant = player_id
        elif partnership_of is not None:
            entrant = partnership_of[entry_id]
        else:
            entrant = entry_id
        found = credited.get(key)
        if found is None:
            credited[key] = [entrant]
        elif entrant not in found:  # both partners credit one partnership entry once
            found.append(entrant)
    results: dict[int, list[SideResult]] = {}
    for table_id, side, points_x2, placing, hands_won in (
        TableResultSide.objects.filter(result__table__round__tournament__in=tournament_ids)
        .order_by("result__table_id", "side")
        .values_list("result__table_id", "side", "points_x2", "placing", "hands_won")
    ):
        line = SideResult(tuple(credited.get((table_id, side), ())), points_x2, placing, hands_won)
        results.setdefault(table_id, []).append(line)
    records: list[TableRecord] = []
    numbers: dict[int, int] = {}
    playing = Table.Status.PLAYING
    # Results without hands (league.services.results): a double forfeit is a loss for
    # all; a forfeit's points count in the points tiebreaks only if its rule set says so.
    without_hands: dict[int, tuple[str, bool]] = {}
    for table_id, kind, own, season in (
        TableResult.objects.filter(table__round__tournament__in=tournament_ids)
        .exclude(kind=ResultKind.PLAYED)
        .values_list(
            "table_id",
            "kind",
            "table__round__tournament__rule_set__forfeit_points_count",
            "table__round__tournament__season__rule_set__forfeit_points_count",
        )
    ):
        counts = bool(own if own is not None else season)
        without_hands[table_id] = (kind, counts)
    for (
        table_id,
        number,
        round_number,
        player_count,
        target,
        status,
        tournament_id,
    ) in Table.objects.filter(round__tournament__in=tournament_ids).values_list(
        "id",
        "number",
        "round__number",
        "player_count",
        "target",
        "status",
        "round__tournament_id",
    ):
        numbers[table_id] = number
        lines = results.get(table_id)
        if lines is None:
            if status != playing:
                continue
            sides = tuple(
                SideResult(tuple(credited[(table_id, side)]), 0)
                for side in range(3 if player_count == 3 else 2)
                if (table_id, side) in credited
            )
            if not sides:
                continue
        else:
            sides = tuple(lines)
        records.append(
            TableRecord(
                round_number=round_number,
                table_id=table_id,
                player_count=player_count,
                target=target,
                sides=sides,
                is_finished=lines is not None,
                scoring=scoring_of_tournament(tournament_id),
                **_without_hands_flags(without_hands.get(table_id)),
            )
        )
    return records, numbers


def _without_hands_flags(found: tuple[str, bool] | None) -> dict[str, bool]:
    """How the maths credit a result without hands (an agreed score is credited in full)."""
    if found is None:
        return {}
    kind, counts = found
    if kind == ResultKind.DOUBLE_FORFEIT:
        return {"all_lose": True, "counts_points": False}
    if kind == ResultKind.FORFEIT:
        return {"counts_points": counts}
    return {}


# Pages, CSV and the API read the stored rows only.

#: Columns of the record, stored on the row itself, by the name the pages sort them by.
RECORD_COLUMNS: dict[str, str] = {
    "rank": "position",
    "name": "name",
    "match_points": "match_points",
    "played": "tables_played",
    "wins": "wins",
    "ties": "ties",
    "losses": "losses",
    "byes": "byes_count",
}


def sortable_columns() -> list[str]:
    """The record's columns and every tiebreak worth sorting by: not one recomputed
    among tied entrants only (head-to-head), nor a drawing of lots."""
    tiebreaks = [
        key
        for key, spec in TIEBREAKS.items()
        if not (spec.among_tied or spec.decides_every_tie) and key not in RECORD_COLUMNS
    ]
    return [*RECORD_COLUMNS, *tiebreaks]


def standings_sort_key(*, sort: str | None) -> tuple[str, bool]:
    """A whitelisted column and direction from ``?sort=`` (``-wins``: most wins first)."""
    descending = sort is not None and sort.startswith("-")
    column = (sort or "rank").lstrip("-")
    if column not in sortable_columns():
        return "rank", False
    return column, descending


def _sort_expression(column: str) -> OrderBy:
    if column in RECORD_COLUMNS:
        return F(RECORD_COLUMNS[column]).asc()
    # Tiebreak values are stored as exact decimal strings: compare them as numbers.
    return Cast(
        KeyTextTransform(column, "tiebreak_values"),
        DecimalField(max_digits=40, decimal_places=4),
    ).asc()


def standings_rows(*, standings: Standings, sort: str | None = None) -> list[StandingsRow]:
    """The stored rows in ranking order, or sorted by one column (ties keep rank order)."""
    column, descending = standings_sort_key(sort=sort)
    order = _sort_expression(column)
    if descending:
        order.reverse_ordering()
    return list(StandingsRow.objects.filter(standings=standings).order_by(order, "position"))


def tournament_with_standings(*, slug: str) -> tuple[Tournament, Standings | None]:
    """A public (not draft) tournament and its standings in one query (``None`` before
    the first refresh)."""
    tournament = (
        Tournament.objects.exclude(status=Tournament.Status.DRAFT)
        .select_related("standings", "season")
        .get(slug=slug)
    )
    return tournament, getattr(tournament, "standings", None)


def season_with_standings(*, slug: str) -> tuple[Season, Standings | None]:
    """The season and its standings in one query (``None`` before the first refresh)."""
    season = Season.objects.select_related("standings").get(slug=slug)
    return season, getattr(season, "standings", None)


def division_with_standings(
    *, season_slug: str, division_id: int
) -> tuple[Division, Standings | None]:
    """The division (with its season) and its standings in one query."""
    division = Division.objects.select_related("standings", "season").get(
        pk=division_id, season__slug=season_slug
    )
    return division, getattr(division, "standings", None)


@dataclass(frozen=True, slots=True)
class RoundProgress:
    """How far one published round has got: its tables, and those without a result.
    ``tournament`` names the round's tournament in a season's or division's table
    (empty in a tournament's own)."""

    tournament: str
    round_number: int
    tables_count: int
    unfinished_count: int


@dataclass(frozen=True, slots=True)
class StandingsProgress:
    """The published rounds behind a standings table, and whether the scope is over
    (its tournament, or season, is finished)."""

    rounds: tuple[RoundProgress, ...]
    is_over: bool = False

    @property
    def unfinished(self) -> tuple[RoundProgress, ...]:
        """The rounds with a table still to finish, in order."""
        return tuple(r for r in self.rounds if r.unfinished_count)

    @property
    def is_final(self) -> bool:
        """True once a round is published and every table of every published round
        has its result."""
        return bool(self.rounds) and not self.unfinished

    @property
    def last_round(self) -> int:
        return max((r.round_number for r in self.rounds), default=0)


def standings_progress(*, standings: Standings, is_over: bool = False) -> StandingsProgress:
    """The published rounds of the standings' scope with their tables counted, finished
    or not (a table is finished once its result is recorded), in one query. ``is_over``:
    the caller knows its tournament, or season, is finished."""
    tables = Table.objects.filter(round__status__in=(Round.Status.PUBLISHED, Round.Status.FINISHED))
    is_aggregate = standings.tournament_id is None
    if standings.tournament_id is not None:
        tables = tables.filter(round__tournament_id=standings.tournament_id)
    else:
        scope = (
            Q(round__tournament__season_id=standings.season_id)
            if standings.season_id is not None
            else Q(round__tournament__division_id=standings.division_id)
        )
        tables = tables.filter(scope).exclude(round__tournament__status=Tournament.Status.DRAFT)
    counted = (
        tables.values(
            "round__tournament_id",
            "round__tournament__starts_on",
            "round__tournament__name",
            "round__number",
        )
        .annotate(
            tables_count=Count("pk"),
            unfinished_count=Count("pk", filter=Q(result__isnull=True)),
        )
        .order_by(
            "round__tournament__starts_on",
            "round__tournament__name",
            "round__tournament_id",
            "round__number",
        )
    )
    return StandingsProgress(
        rounds=tuple(
            RoundProgress(
                tournament=row["round__tournament__name"] if is_aggregate else "",
                round_number=row["round__number"],
                tables_count=row["tables_count"],
                unfinished_count=row["unfinished_count"],
            )
            for row in counted
        ),
        is_over=is_over,
    )


@dataclass(frozen=True, slots=True)
class TableInPlay:
    """A table whose match is still being played, with who sits on each side."""

    table_id: int
    number: int
    round_number: int
    sides: list[str]


def tables_in_play(*, tournament_id: int) -> list[TableInPlay]:
    """The tournament's tables in play (started, no result yet), in one query."""
    seats = Seat.objects.filter(
        table__round__tournament_id=tournament_id,
        table__status=Table.Status.PLAYING,
        table__result__isnull=True,
    ).order_by("table__round__number", "table__number", "number")
    tables: dict[int, tuple[int, int, int, dict[int, list[str]]]] = {}
    for table_id, number, round_number, player_count, seat, name in seats.values_list(
        "table_id",
        "table__number",
        "table__round__number",
        "table__player_count",
        "number",
        "player__name",
    ):
        entry = tables.setdefault(table_id, (number, round_number, player_count, {}))
        entry[3].setdefault(side_of(seat, player_count), []).append(name)
    return [
        TableInPlay(
            table_id, number, round_number, [" & ".join(n) for _s, n in sorted(sides.items())]
        )
        for table_id, (number, round_number, _count, sides) in tables.items()
    ]


def standings_cache_key(
    *, standings: Standings, variant: str, division: Division | None = None
) -> str:
    """A cache key for something shaped from the stored rows: it changes whenever they
    are rewritten (version and time of writing) or a division's zones change, so
    nothing needs invalidating."""
    stamp = standings.computed_at.timestamp() if standings.computed_at else 0
    zones = f"{division.promotion_count}-{division.relegation_count}" if division else ""
    return f"standings:{standings.pk}:{standings.computed_version}:{stamp}:{zones}:{variant}"


def standings_zone(*, division: Division | None, position: int, count: int) -> str:
    """``promotion``, ``relegation`` or "" for a position of a division table."""
    if division is None:
        return ""
    if position <= division.promotion_count:
        return "promotion"
    if position > count - division.relegation_count:
        return "relegation"
    return ""


#: Rows of the standings shown on a tournament's page (the standings page has them all).
LEADERS_COUNT = 8


@dataclass(frozen=True, slots=True)
class LeaderLine:
    """A row of the stored standings, as the tournament page shows the leaders."""

    rank: int
    name: str
    url: str | None
    match_points: Decimal
    played: int


def standings_leaders(*, tournament_id: int) -> tuple[LeaderLine, ...]:
    """The top rows of a tournament's stored standings, as its page shows them."""
    rows = (
        StandingsRow.objects.filter(standings__tournament_id=tournament_id)
        .select_related("entry__player", "entry__partnership")
        .only(
            "rank",
            "name",
            "match_points",
            "tables_played",
            "entry",
            "entry__player",
            "entry__player__slug",
            "entry__partnership",
            "entry__partnership__slug",
        )
        .order_by("position")[:LEADERS_COUNT]
    )
    lines = []
    for row in rows:
        entry = row.entry
        who = None if entry is None else (entry.partnership or entry.player)
        points = row.match_points
        lines.append(
            LeaderLine(
                rank=row.rank,
                name=row.name,
                url=who.get_absolute_url() if who is not None else None,
                # 2.0000 -> 2, 0.5000 -> 0.5: stored with four places, shown with what it needs
                match_points=points.quantize(Decimal(1))
                if points == points.to_integral_value()
                else points.normalize(),
                played=row.tables_played,
            )
        )
    return tuple(lines)


def tournament_ranking_after(*, tournament: Tournament, round_number: int) -> Ranking:
    """The tournament's ranking counting its rounds up to ``round_number`` only: the
    order a stage ends in, which seeds a knockout played after it."""
    data = _tournament_input(tournament_id=tournament.pk)
    return standings_rank(
        replace(
            data,
            tables=[t for t in data.tables if t.round_number <= round_number],
            byes=[b for b in data.byes if b.round_number <= round_number],
        )
    )
