"""Pairing a round: the manager between the pure algorithms of ``pairing.algorithms`` and the
models (as Tabbycat's draw manager feeds its generators).

It reads who is *active* (entries not withdrawn; for league nights, those checked in
that evening), their match points so far (the standings engineer's selectors) and the
*history* (who met whom and who partnered whom, from the Seat rows of earlier tables —
the whole season's for league nights), dispatches on the tournament's format and table
size to one pure function, and writes the resulting draw back as a *draft*: tables
(through ``table_create``, so each table's target follows its player count, R4), seats
(partnerships fill seats 0+2 / 1+3, R2), each table's cost breakdown, the round's
quality report, its seed and its byes. An organiser may then edit the draft by hand;
``round_draft_validate`` says what is wrong with it; ``round_publish`` makes it public.

Dispatch (``draw_compute``): Swiss at tables of two and fixed partnerships →
``swiss_pair``; Swiss at tables of three/four/mixed → ``group_swiss_seat`` (told the
rounds left); round robins → ``round_robin_schedule`` / ``group_round_robin_schedule``
while the fixed schedule still applies, else rematch-free seating; rotating partners →
``whist_schedule`` while it applies, else ``rotating_seat``; league nights →
``league_night_pair`` on the season's standings. Tables of three and four are mixed when
the count needs it (10 → 4+3+3, ``group_split``); byes only when the tournament allows.

Progress of a pairing run (queued, running i of n, done, failed) is kept in the Django
cache under one key per round, so it works with eager tasks and with Redis alike,
whether or not Celery has a result backend.

Vocabulary: an *entrant* is one active entry (``Entrant.id`` is the entry's id); a
*unit* is what the history remembers — a player, or a partnership in partnership
formats — so that a league night recognises last week's table-mates although every
evening has its own entries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any, Literal

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

from allfives import side_seats, sides_of
from league.models import Entry, Round, Seat, Table, Tournament
from league.services.rounds import seats_for_entries, table_create
from pairing.algorithms.designs import is_whist_size
from pairing.algorithms.group_swiss import group_swiss_seat
from pairing.algorithms.league_night import league_night_pair
from pairing.algorithms.quality import DraftWarning, make_draw, score_map, validate_draft
from pairing.algorithms.rotating import WHIST_MAX_PLAYERS, rotating_seat, whist_schedule
from pairing.algorithms.round_robin import group_round_robin_schedule, round_robin_schedule
from pairing.algorithms.swiss import swiss_pair
from pairing.algorithms.table_sizes import table_sizes
from pairing.algorithms.types import (
    Draw,
    Entrant,
    History,
    PairingError,
    Schedule,
    TableCost,
    pair,
)
from standings.models import Standings
from standings.selectors import standings_input, standings_rank

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a round is paired."""

ProgressState = Literal["idle", "queued", "running", "done", "failed"]

PROGRESS_TIMEOUT = 24 * 60 * 60
"""Seconds a progress record is kept (long after any pairing run ends)."""


# -- reading the field --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairingField:
    """What a pure pairing function is given, and the entries its ids stand for."""

    entrants: tuple[Entrant, ...]
    history: History
    entries: dict[int, Entry]


def _is_league_night(tournament: Tournament) -> bool:
    return tournament.format == Tournament.Format.LEAGUE_NIGHT


def _active_entries(*, tournament: Tournament) -> list[Entry]:
    """Entries that may be paired: never the withdrawn; on league nights, the checked in."""
    entries = Entry.objects.filter(tournament=tournament, is_withdrawn=False)
    if _is_league_night(tournament):
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


def pairing_field(*, round: Round) -> PairingField:
    """The entrants of a round (with scores, ranks and earlier byes) and their history."""
    tournament = round.tournament
    by_partnership = tournament.is_partnership_format
    entries = _active_entries(tournament=tournament)
    scores = _standings_scores(
        tournament=tournament, entries=entries, by_partnership=by_partnership
    )
    had_bye = set(
        Round.byes.through.objects.filter(
            round__tournament=tournament, round__number__lt=round.number
        ).values_list("entry_id", flat=True)
    )
    entrants = tuple(
        Entrant(
            id=e.pk,
            score=scores[e.pk][0],
            rank=scores[e.pk][1],
            had_bye=e.pk in had_bye,
        )
        for e in entries
    )
    history = _history(round=round, entries=entries, by_partnership=by_partnership)
    return PairingField(entrants, history, {e.pk: e for e in entries})


# -- dispatch -------------------------------------------------------------------------------


def _not_available(tournament: Tournament) -> ValidationError:
    return ValidationError(
        _("Automatic pairing for %(format)s at tables of %(size)s is not available yet.")
        % {"format": tournament.get_format_display(), "size": tournament.table_size},
        code="format_not_available",
    )


def _byes_refused(count: int) -> ValidationError:
    return ValidationError(
        _(
            "%(n)d entrants cannot all be seated and this tournament does not allow byes: "
            "allow byes, or add or withdraw an entrant."
        )
        % {"n": count},
        code="byes_not_allowed",
    )


def _two_sided(field: PairingField, round: Round, seed: int) -> Draw:
    """Two sides a table (players at tables of two, or partnerships at tables of four)."""
    if len(field.entrants) % 2 and not round.tournament.allow_byes:
        raise _byes_refused(len(field.entrants))
    return swiss_pair(field.entrants, field.history, seed=seed)


# (table size, smallest table) to try, in order, per Tournament.table_size: tables of three
# and four before a table of two; a split without byes always before one with byes.
_GROUP_SPLITS: dict[str, tuple[tuple[int, int], ...]] = {
    Tournament.TableSize.THREE: ((3, 3), (4, 3), (3, 2)),
    Tournament.TableSize.FOUR: ((4, 4), (4, 3), (4, 2)),
    Tournament.TableSize.MIXED: ((4, 3), (4, 2)),
}


def group_split(*, count: int, table_size: str, allow_byes: bool) -> tuple[int, int, bool]:
    """The (table size, smallest table, byes allowed) to seat ``count`` entrants at tables
    of three and four (10 at tables of four: 4+3+3), using byes only when allowed and no
    split fits without them."""
    candidates = _GROUP_SPLITS[table_size]
    for byes in (False, True) if allow_byes else (False,):
        for size, smallest in candidates:
            try:
                table_sizes(count, size=size, smallest=smallest, byes_allowed=byes)
            except PairingError:
                continue
            return size, smallest, byes
    if count < 2:
        raise PairingError("too_few", f"{count} entrants cannot be seated")
    raise _byes_refused(count)


def _rounds_left(round: Round) -> int:
    """This round and those still to come (at least 1)."""
    return max(1, round.tournament.rounds_count - round.number + 1)


def _group_swiss(field: PairingField, round: Round, seed: int) -> Draw:
    tournament = round.tournament
    size, smallest, byes = group_split(
        count=len(field.entrants),
        table_size=tournament.table_size,
        allow_byes=tournament.allow_byes,
    )
    return group_swiss_seat(
        field.entrants,
        field.history,
        seed=seed,
        table_size=size,
        smallest=smallest,
        byes_allowed=byes,
        rounds_left=_rounds_left(round),
    )


def _table_shape(seats: Sequence[int]) -> frozenset[frozenset[int]]:
    """A table up to rotation: its sides (partners 0+2 and 1+3 at four seats)."""
    n = len(seats)
    return frozenset(frozenset(seats[s] for s in side_seats(side, n)) for side in sides_of(n))


def _earlier_round_shapes(round: Round) -> list[frozenset[frozenset[frozenset[int]]]]:
    """The tournament's earlier rounds, each as the set of its tables' shapes."""
    seats: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for number, table_id, seat, entry_id in Seat.objects.filter(
        table__round__tournament_id=round.tournament_id, table__round__number__lt=round.number
    ).values_list("table__round__number", "table_id", "number", "entry_id"):
        seats[(number, table_id)][seat] = entry_id
    rounds: dict[int, set[frozenset[frozenset[int]]]] = {n: set() for n in range(1, round.number)}
    for (number, _table), by_seat in seats.items():
        rounds[number].add(_table_shape([by_seat[k] for k in sorted(by_seat)]))
    return [frozenset(rounds[n]) for n in sorted(rounds)]


def _whist_round(field: PairingField, round: Round) -> Draw | None:
    """Round ``round.number`` of the whist tournament (every pair partners once, opponents
    twice) when the field is whist-sized and unchanged and every earlier round followed
    that schedule; None otherwise. The schedule is placed by the tournament's seed, so
    every round reads the same one."""
    tournament = round.tournament
    ids = sorted(e.id for e in field.entrants)
    if not is_whist_size(len(ids)) or len(ids) > WHIST_MAX_PLAYERS:
        return None
    if len(ids) % 4 and not tournament.allow_byes:
        return None  # 4n + 1 players: one sits out every round
    schedule = whist_schedule(ids, seed=tournament.seed)
    if round.number > len(schedule.rounds):
        return None
    planned = [frozenset(_table_shape(t.seats) for t in d.tables) for d in schedule.rounds]
    if _earlier_round_shapes(round) != planned[: round.number - 1]:
        return None
    drawn = schedule.rounds[round.number - 1]
    return make_draw(
        [t.seats for t in drawn.tables],
        drawn.byes,
        scores=score_map(field.entrants),
        history=field.history,
        seed=tournament.seed,
    )


def _rotating(field: PairingField, round: Round, seed: int) -> Draw:
    """Rotating partners: the whist tournament while it fits, else one round at a time."""
    tournament = round.tournament
    if tournament.table_size not in (Tournament.TableSize.FOUR, Tournament.TableSize.MIXED):
        raise ValidationError(
            _("Rotating partners play at tables of four: set the table size to 4 or 3-4."),
            code="table_size",
        )
    whist = _whist_round(field, round)
    if whist is not None:
        return whist
    _size, smallest, byes = group_split(
        count=len(field.entrants),
        table_size=Tournament.TableSize.MIXED,
        allow_byes=tournament.allow_byes,
    )
    return rotating_seat(
        field.entrants,
        field.history,
        seed=seed,
        by_standing=False,
        smallest=smallest,
        byes_allowed=byes,
    )


def _round_field(round: Round, number: int) -> set[int]:
    """Entry ids seated, or given a bye, in round ``number`` of the round's tournament."""
    seated = Seat.objects.filter(
        table__round__tournament_id=round.tournament_id, table__round__number=number
    ).values_list("entry_id", flat=True)
    byes = Round.byes.through.objects.filter(
        round__tournament_id=round.tournament_id, round__number=number
    ).values_list("entry_id", flat=True)
    return set(seated) | set(byes)


@lru_cache(maxsize=32)
def _group_round_robin(
    ids: tuple[int, ...], seed: int, size: int, rounds: int, smallest: int, byes: bool
) -> Schedule:
    # The tabu search is deterministic but not free: a worker pairing round after round
    # of one event builds it once.
    return group_round_robin_schedule(
        ids, seed=seed, table_size=size, rounds=rounds, smallest=smallest, byes_allowed=byes
    )


def _round_robin_schedule(round: Round, ids: tuple[int, ...]) -> Schedule:
    tournament = round.tournament
    if tournament.table_size == Tournament.TableSize.TWO:
        single = len(ids) - 1 if len(ids) % 2 == 0 else len(ids)
        legs = 2 if tournament.rounds_count > single else 1
        return round_robin_schedule(ids, seed=tournament.seed, legs=legs)
    size, smallest, byes = group_split(
        count=len(ids), table_size=tournament.table_size, allow_byes=tournament.allow_byes
    )
    return _group_round_robin(ids, tournament.seed, size, tournament.rounds_count, smallest, byes)


def _round_robin_round(field: PairingField, round: Round) -> Draw | None:
    """Round ``round.number`` of the schedule fixed for the field of round 1 (placed by the
    tournament's seed, so every round reads the same schedule), while every earlier round
    followed it. A withdrawn entrant's seat is left out (at two-player tables the opponent
    has a bye, if byes are allowed). None when the schedule no longer applies: a late
    entrant, a hand-made earlier round, or more rounds than the schedule has."""
    active = {e.id for e in field.entrants}
    planned = _round_field(round, 1) if round.number > 1 else set(active)
    if not planned or not active <= planned:
        return None
    schedule = _round_robin_schedule(round, tuple(sorted(planned)))
    if round.number > len(schedule.rounds):
        return None
    for earlier, drawn in zip(_earlier_round_shapes(round), schedule.rounds, strict=False):
        if not earlier <= {_table_shape(t.seats) for t in drawn.tables}:
            return None
    drawn = schedule.rounds[round.number - 1]
    tables: list[list[int]] = []
    byes = [e for e in drawn.byes if e in active]
    for table in drawn.tables:
        kept = [e for e in table.seats if e in active]
        if len(kept) >= 2 and (len(kept) == len(table.seats) or len(table.seats) > 2):
            tables.append(kept)
        else:
            byes += kept
    if byes and not round.tournament.allow_byes:
        return None
    return make_draw(
        tables,
        sorted(byes),
        scores=score_map(field.entrants),
        history=field.history,
        seed=round.tournament.seed,
    )


def _round_robin(field: PairingField, round: Round, seed: int) -> Draw:
    """Round robins: the fixed schedule while it applies; else (a late entrant, an edited
    round) each round seated to avoid meeting anyone twice, as the Swiss seaters do first."""
    scheduled = _round_robin_round(field, round)
    if scheduled is not None:
        return scheduled
    if round.tournament.table_size == Tournament.TableSize.TWO:
        return _two_sided(field, round, seed)
    return _group_swiss(field, round, seed)


def _league_night(field: PairingField, round: Round, seed: int) -> Draw:
    """Tonight's checked-in entrants against the season's history, as a Swiss on the
    season's match points (the field and history are read season-wide, see above)."""
    tournament = round.tournament
    if tournament.table_size == Tournament.TableSize.TWO:
        if len(field.entrants) % 2 and not tournament.allow_byes:
            raise _byes_refused(len(field.entrants))
        return league_night_pair(
            field.entrants, field.history, seed=seed, table_size=2, by_standing=True
        )
    size, smallest, byes = group_split(
        count=len(field.entrants),
        table_size=tournament.table_size,
        allow_byes=tournament.allow_byes,
    )
    return league_night_pair(
        field.entrants,
        field.history,
        seed=seed,
        table_size=size,
        smallest=smallest,
        byes_allowed=byes,
        by_standing=True,
    )


def draw_compute(*, round: Round, field: PairingField, seed: int) -> Draw:
    """Run the pure pairing function for the tournament's format and table size."""
    tournament = round.tournament
    fmt, size = tournament.format, tournament.table_size
    if tournament.is_partnership_format:
        return _two_sided(field, round, seed)
    if fmt == Tournament.Format.LEAGUE_NIGHT:
        return _league_night(field, round, seed)
    if size == Tournament.TableSize.TWO and fmt == Tournament.Format.SWISS:
        return _two_sided(field, round, seed)
    if fmt == Tournament.Format.SWISS:
        return _group_swiss(field, round, seed)
    if fmt == Tournament.Format.ROTATING_PARTNER:
        return _rotating(field, round, seed)
    if fmt == Tournament.Format.ROUND_ROBIN:
        return _round_robin(field, round, seed)
    raise _not_available(tournament)


def _pairing_error(error: PairingError) -> ValidationError:
    messages = {
        "too_few": _("Too few entrants are present to pair this round."),
        "cannot_seat": _("The entrants present cannot be seated at tables of this size."),
        "table_size": _("This table size cannot be paired."),
    }
    message = messages.get(error.code) or _("This round cannot be paired: %(detail)s") % {
        "detail": str(error)
    }
    return ValidationError(message, code=error.code)


# -- writing the draft ----------------------------------------------------------------------


def table_cost_json(cost: TableCost) -> dict[str, Any]:
    """A table's cost breakdown for ``Table.cost`` (fractions as strings such as "1/2")."""
    return {
        "score_gap": str(cost.score_gap),
        "score_cost": str(cost.score_cost),
        "rematches": cost.rematches,
        "partner_repeats": cost.partner_repeats,
        "opponent_repeats": cost.opponent_repeats,
    }


def _seat_count(entry: Entry) -> int:
    return 2 if entry.partnership_id is not None else 1


def round_pair(*, round: Round, seed: int | None = None, progress: Progress | None = None) -> Draw:
    """Pair a draft round afresh: replace its tables, seats and byes with a new draw.

    ``seed`` defaults to the round's recorded seed (else the tournament's); the same seed
    on the same field gives the same draw. The seed the draw was made with is recorded:
    for a fixed schedule (round robin, whist) that is the tournament's, which places it.
    """
    report = progress or (lambda _done, _total: None)
    report(0, 1)
    with transaction.atomic():
        round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
        if round.status != Round.Status.DRAFT:
            raise ValidationError(
                _("Only a draft round can be paired; this round is %(status)s.")
                % {"status": round.get_status_display()},
                code="not_draft",
            )
        tournament = round.tournament
        if seed is None:
            seed = round.pairing_seed if round.pairing_seed is not None else tournament.seed
        # The old draft goes first, so its byes and tables are not read back as history.
        Table.objects.filter(round=round).delete()
        round.byes.clear()
        field = pairing_field(round=round)
        total = 2 + len(field.entrants)
        report(1, total)
        try:
            draw = draw_compute(round=round, field=field, seed=seed)
        except PairingError as error:
            raise _pairing_error(error) from error
        done = 2
        report(done, total)
        for number, drawn in enumerate(draw.tables, start=1):
            entries = [field.entries[eid] for eid in drawn.seats]
            table_create(
                round=round,
                number=number,
                seats=seats_for_entries(entries, player_count=sum(_seat_count(e) for e in entries)),
                cost=table_cost_json(drawn.cost),
            )
            done += len(drawn.seats)
            report(done, total)
        round.byes.set(draw.byes)
        round.quality = draw.report.as_dict()
        round.pairing_seed = draw.seed  # a fixed schedule is placed by the tournament's
        round.save(update_fields=["quality", "pairing_seed", "updated_at"])
    report(total, total)
    return draw


# -- checking a hand-edited draft -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DraftProblem:
    """One warning about a draft, ready for people: translated, with names and the table."""

    code: str
    message: str
    entry_ids: tuple[int, ...]
    table_number: int | None
    is_blocking: bool


def _table_bounds(tournament: Tournament) -> tuple[int, int]:
    """Entrants per table a format allows (partnerships count as one entrant)."""
    if tournament.is_partnership_format or tournament.table_size == Tournament.TableSize.TWO:
        return 2, 2
    return 2, 4


def _drafted_tables(round: Round) -> tuple[list[list[int]], list[int]]:
    """The round's tables as entry ids in seat order (a partnership once), and table numbers."""
    seats: dict[int, list[tuple[int, int, bool]]] = defaultdict(list)
    numbers: dict[int, int] = {}
    for table_id, table_number, number, entry_id, partnership_id in Seat.objects.filter(
        table__round=round
    ).values_list("table_id", "table__number", "number", "entry_id", "entry__partnership_id"):
        seats[table_id].append((number, entry_id, partnership_id is not None))
        numbers[table_id] = table_number
    for table_id, table_number in Table.objects.filter(round=round).values_list("id", "number"):
        numbers.setdefault(table_id, table_number)
        seats.setdefault(table_id, [])
    order = sorted(numbers, key=lambda t: numbers[t])
    tables: list[list[int]] = []
    for table_id in order:
        ids: list[int] = []
        for _number, entry_id, is_partnership in sorted(seats[table_id]):
            if not (is_partnership and entry_id in ids):
                ids.append(entry_id)
        tables.append(ids)
    return tables, [numbers[t] for t in order]


def _problem_message(warning: DraftWarning, names: dict[int, str], table: int | None) -> str:
    ids = warning.entrant_ids
    who = names.get(ids[0], "?") if ids else ""
    other = names.get(ids[1], "?") if len(ids) > 1 else ""
    match warning.code:
        case "player_twice":
            return _("%(who)s appears more than once in this round.") % {"who": who}
        case "unknown_entrant":
            return _(
                "%(who)s is not active in this tournament (withdrawn, not checked in, "
                "or entered elsewhere)."
            ) % {"who": who}
        case "unseated":
            return _("%(who)s has neither a seat nor a bye.") % {"who": who}
        case "bye_repeat":
            return _("%(who)s has already had a bye.") % {"who": who}
        case "table_size":
            return _("Table %(table)s seats %(n)d entrants.") % {"table": table, "n": len(ids)}
        case "rematch":
            return _("Table %(table)s: %(a)s and %(b)s have met before.") % {
                "table": table,
                "a": who,
                "b": other,
            }
        case "partner_repeat":
            return _("Table %(table)s: %(a)s and %(b)s have been partners before.") % {
                "table": table,
                "a": who,
                "b": other,
            }
    return warning.message


def round_draft_validate(*, round: Round) -> list[DraftProblem]:
    """The warnings for a (hand-edited) draft: an entrant twice, tables of the wrong size,
    inactive or unseated entrants, repeated byes, rematches and partner repeats."""
    round = Round.objects.select_related("tournament").get(pk=round.pk)
    field = pairing_field(round=round)
    tables, numbers = _drafted_tables(round)
    byes = list(round.byes.values_list("pk", flat=True))
    smallest, largest = _table_bounds(round.tournament)
    warnings = validate_draft(
        tables,
        byes,
        entrants=field.entrants,
        history=field.history,
        smallest=smallest,
        largest=largest,
    )
    ids = {i for w in warnings for i in w.entrant_ids}
    names = {e.pk: e.display_name for e in field.entries.values()}
    missing = ids - set(names)
    if missing:
        names.update(
            (e.pk, e.display_name)
            for e in Entry.objects.filter(pk__in=missing).select_related("player", "partnership")
        )
    problems = []
    for w in warnings:
        table = numbers[w.table_index] if w.table_index is not None else None
        problems.append(
            DraftProblem(
                code=w.code,
                message=_problem_message(w, names, table),
                entry_ids=tuple(w.entrant_ids),
                table_number=table,
                is_blocking=w.is_blocking,
            )
        )
    return problems


def round_draft_blocking_problems(round: Round) -> list[str]:
    """What makes a drafted round unplayable (an entrant twice, a table of the wrong size):
    the ``league.hooks`` publish check. Rematches and partner repeats are only warnings."""
    return [p.message for p in round_draft_validate(round=round) if p.is_blocking]


# -- progress of a pairing run --------------------------------------------------------------


def _progress_key(round_id: int) -> str:
    return f"league:round-pair-progress:{round_id}"


def round_pair_progress(*, round_id: int) -> dict[str, Any]:
    """The latest progress of pairing a round: state, done, total and a message."""
    found = cache.get(_progress_key(round_id))
    if not isinstance(found, dict):
        return {"state": "idle", "done": 0, "total": 0, "message": ""}
    return found


def round_pair_progress_record(
    *, round_id: int, state: ProgressState, done: int = 0, total: int = 0, message: str = ""
) -> None:
    """Record how far pairing a round has got (read back by ``round_pair_progress``)."""
    cache.set(
        _progress_key(round_id),
        {"state": state, "done": done, "total": total, "message": message},
        PROGRESS_TIMEOUT,
    )


def round_pair_queue(*, round: Round) -> None:
    """Check that a round can be paired now and mark it queued (the caller enqueues the
    task on commit)."""
    if round.status != Round.Status.DRAFT:
        raise ValidationError(
            _("Only a draft round can be paired; this round is %(status)s.")
            % {"status": round.get_status_display()},
            code="not_draft",
        )
    round_pair_progress_record(round_id=round.pk, state="queued")


def round_pair_unqueued(*, round_id: int) -> None:
    """Record that the pairing task could not be sent (the broker is down), so the
    progress does not say "queued" for ever."""
    round_pair_progress_record(
        round_id=round_id,
        state="failed",
        message=_("The task queue could not be reached; please try again shortly."),
    )


# -- reading a draw back --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatView:
    number: int
    entry_id: int
    player_id: int
    player_name: str
    entry_name: str


@dataclass(frozen=True, slots=True)
class TableView:
    id: int
    number: int
    player_count: int
    target: int
    status: str
    cost: dict[str, Any]
    seats: tuple[SeatView, ...]


@dataclass(frozen=True, slots=True)
class RoundDraw:
    """A round's draw as the admin and the API show it."""

    round: Round
    tables: tuple[TableView, ...]
    byes: tuple[tuple[int, str], ...]
    quality: dict[str, Any]
    problems: tuple[DraftProblem, ...]


def round_draw(*, round: Round, with_problems: bool | None = None) -> RoundDraw:
    """The round's tables with seats and costs, its byes and quality report, and — for a
    draft, unless told otherwise — the warnings about it."""
    tables = list(
        Table.objects.filter(round=round)
        .prefetch_related("seats__player", "seats__entry__player", "seats__entry__partnership")
        .order_by("number")
    )
    views = tuple(
        TableView(
            id=t.pk,
            number=t.number,
            player_count=t.player_count,
            target=t.target,
            status=t.status,
            cost=dict(t.cost or {}),
            seats=tuple(
                SeatView(s.number, s.entry_id, s.player_id, str(s.player), s.entry.display_name)
                for s in sorted(t.seats.all(), key=lambda s: s.number)
            ),
        )
        for t in tables
    )
    byes = tuple(
        (e.pk, e.display_name)
        for e in round.byes.select_related("player", "partnership").order_by("pk")
    )
    if with_problems is None:
        with_problems = round.status == Round.Status.DRAFT
    problems = tuple(round_draft_validate(round=round)) if with_problems and tables else ()
    return RoundDraw(round, views, byes, dict(round.quality or {}), problems)


def round_pair_run(
    *,
    round_id: int,
    seed: int | None = None,
    language: str | None = None,
    on_progress: Progress | None = None,
) -> dict[str, Any]:
    """Pair a round and record the progress as it goes (the task's body): the quality
    report when done, ``{"error": message}`` when the organiser has something to fix.
    Messages are in ``language`` (the language of whoever asked)."""
    with translation.override(language or settings.LANGUAGE_CODE):

        def progress(done: int, total: int) -> None:
            round_pair_progress_record(round_id=round_id, state="running", done=done, total=total)
            if on_progress is not None:
                on_progress(done, total)

        try:
            round = Round.objects.get(pk=round_id)
            draw = round_pair(round=round, seed=seed, progress=progress)
        except Round.DoesNotExist:
            message = _("The round no longer exists.")
        except ValidationError as error:
            message = " ".join(error.messages)
        except Exception:
            round_pair_progress_record(
                round_id=round_id,
                state="failed",
                message=_("Pairing failed unexpectedly; the error has been logged."),
            )
            raise
        else:
            total = 2 + len(draw.seated) + len(draw.byes)
            round_pair_progress_record(round_id=round_id, state="done", done=total, total=total)
            return draw.report.as_dict()
        round_pair_progress_record(round_id=round_id, state="failed", message=message)
        return {"error": message}
