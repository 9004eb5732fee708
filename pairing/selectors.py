"""Reading the field of a round to pair: the one place pairing queries the database
before a draw.

:func:`pairing_field` returns, up front, everything the pure dispatcher
(``pairing.algorithms.dispatch``) needs — who is *active* (entries not withdrawn; for
league nights, those checked in that evening), their match points and ranks so far (the
standings engineer's selectors), their earlier byes, the *history* (who met whom and who
partnered whom, from the Seat rows of earlier tables — the whole season's for league
nights), the tournament's earlier rounds table by table, and its format, table size,
byes policy, seed and rounds — together with the entries the ids stand for, which the
writer seats.

Vocabulary: an *entrant* is one active entry (``Entrant.id`` is the entry's id); a
*unit* is what the history remembers — a player, or a partnership in partnership
formats — so that a league night recognises last week's table-mates although every
evening has its own entries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from django.db.models import Q

from allfives import side_seats, sides_of
from league.hooks import round_checked_in_only
from league.models import Entry, Round, Seat, Tournament
from pairing.algorithms.dispatch import DrawField, EarlierRound
from pairing.algorithms.types import Entrant, History, pair
from standings.models import Standings
from standings.selectors import standings_input, standings_rank


@dataclass(frozen=True, slots=True)
class PairingField:
    """The plain field the dispatcher is given, and the entries its ids stand for."""

    field: DrawField
    entries: dict[int, Entry]

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        return self.field.entrants

    @property
    def history(self) -> History:
        return self.field.history


def _is_league_night(tournament: Tournament) -> bool:
    return tournament.format == Tournament.Format.LEAGUE_NIGHT


def _active_entries(*, round: Round) -> list[Entry]:
    """Entries that may be paired: never the withdrawn; on league nights, and in rounds
    whose organiser seats the present only (``league.hooks.round_checked_in_only``), the
    checked in."""
    tournament = round.tournament
    entries = Entry.objects.filter(tournament=tournament, is_withdrawn=False)
    if _is_league_night(tournament) or round_checked_in_only(round=round):
        entries = entries.filter(is_checked_in=True)
    return list(entries.select_related("player", "partnership").order_by("pk"))


def _unit_of(entry: Entry, *, by_partnership: bool) -> int | None:
    return entry.partnership_id if by_partnership else entry.player_id


def _history_rounds(*, round: Round) -> Q:
    """The rounds whose tables the history remembers: the tournament's earlier rounds, and
    for a league night every published round of the season's other events too."""
    tournament = round.tournament
    rounds = Q(tournament=tournament, number__lt=round.number)
    if _is_league_night(tournament) and tournament.season_id is not None:
        rounds |= (
            Q(tournament__season_id=tournament.season_id)
            & ~Q(tournament=tournament)
            & ~Q(status=Round.Status.DRAFT)
        )
    return rounds


def _history(*, round: Round, entries: Sequence[Entry], by_partnership: bool) -> History:
    """Met and partnered counts between the given entries, from the Seat rows of the
    rounds ``_history_rounds`` names (seats 0+2 and 1+3 are partners, R2)."""
    entry_of_unit = {
        unit: e.pk for e in entries if (unit := _unit_of(e, by_partnership=by_partnership))
    }
    seats = Seat.objects.filter(
        table__round__in=Round.objects.filter(_history_rounds(round=round))
    ).values_list("table_id", "number", "player_id", "entry__partnership_id")
    tables: dict[int, dict[int, int | None]] = defaultdict(dict)
    for table_id, number, player_id, partnership_id in seats:
        unit = partnership_id if by_partnership else player_id
        tables[table_id][number] = entry_of_unit.get(unit) if unit is not None else None
    met: dict[frozenset[int], int] = defaultdict(int)
    partnered: dict[frozenset[int], int] = defaultdict(int)
    for by_seat in tables.values():
        present = {e for e in by_seat.values() if e is not None}
        for a, b in combinations(sorted(present), 2):
            met[pair(a, b)] += 1
        if len(by_seat) == 4:
            for x, y in (side_seats(side, 4) for side in sides_of(4)):
                first, second = by_seat.get(x), by_seat.get(y)
                if first is not None and second is not None and first != second:
                    partnered[pair(first, second)] += 1
    return History(met, partnered)


def _standings_scores(
    *, tournament: Tournament, entries: Sequence[Entry], by_partnership: bool
) -> dict[int, tuple[Fraction, int]]:
    """Each entry's match points so far and rank, computed afresh by the standings
    engineer's selector and maths (never stale stored rows). A league night ranks by the
    season's standings (players, or partnerships), any other event by its own."""
    if _is_league_night(tournament) and tournament.season_id is not None:
        scope = Standings(season_id=tournament.season_id)
        keys = {e.pk: _unit_of(e, by_partnership=by_partnership) for e in entries}
    else:
        scope = Standings(tournament_id=tournament.pk)
        keys = {e.pk: e.pk for e in entries}
    ranked = standings_rank(standings_input(standings=scope))
    rows = {row.entrant_id: (row.match_points, row.rank) for row in ranked.rows}
    unranked = max((rank for _points, rank in rows.values()), default=0) + 1
    return {
        entry_id: rows.get(key, (Fraction(0), unranked)) if key is not None else (Fraction(0), 0)
        for entry_id, key in keys.items()
    }


def _earlier_rounds(*, round: Round) -> tuple[EarlierRound, ...]:
    """Rounds 1 to ``round.number - 1`` of the round's tournament (a number with no
    tables is an empty round), each table's entries in seat order, and each round's byes."""
    seats: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for number, table_id, seat, entry_id in Seat.objects.filter(
        table__round__tournament_id=round.tournament_id, table__round__number__lt=round.number
    ).values_list("table__round__number", "table_id", "number", "entry_id"):
        seats[(number, table_id)][seat] = entry_id
    tables: dict[int, list[tuple[int, ...]]] = {n: [] for n in range(1, round.number)}
    for (number, _table), by_seat in sorted(seats.items()):
        tables[number].append(tuple(by_seat[k] for k in sorted(by_seat)))
    byes: dict[int, set[int]] = defaultdict(set)
    for number, entry_id in Round.byes.through.objects.filter(
        round__tournament_id=round.tournament_id, round__number__lt=round.number
    ).values_list("round__number", "entry_id"):
        byes[number].add(entry_id)
    return tuple(
        EarlierRound(number=n, tables=tuple(tables[n]), byes=frozenset(byes.get(n, ())))
        for n in sorted(tables)
    )


def pairing_field(*, round: Round) -> PairingField:
    """Everything pairing the round needs: the entrants (with scores, ranks and earlier
    byes), their history, the tournament's earlier rounds and settings."""
    tournament = round.tournament
    by_partnership = tournament.is_partnership_format
    entries = _active_entries(round=round)
    scores = _standings_scores(
        tournament=tournament, entries=entries, by_partnership=by_partnership
    )
    earlier = _earlier_rounds(round=round)
    had_bye = {entry_id for r in earlier for entry_id in r.byes}
    entrants = tuple(
        Entrant(
            id=e.pk,
            score=scores[e.pk][0],
            rank=scores[e.pk][1],
            had_bye=e.pk in had_bye,
        )
        for e in entries
    )
    field = DrawField(
        format=tournament.format,
        table_size=tournament.table_size,
        allow_byes=tournament.allow_byes,
        tournament_seed=tournament.seed,
        rounds_count=tournament.rounds_count,
        round_number=round.number,
        entrants=entrants,
        history=_history(round=round, entries=entries, by_partnership=by_partnership),
        earlier_rounds=earlier,
    )
    return PairingField(field, {e.pk: e for e in entries})
