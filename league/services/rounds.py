"""Rounds and tables: creating them, seating entries, publishing and closing rounds,
and copying a tournament's settings into a new one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.hooks import round_keep_reasons, round_publish_problems, round_published
from league.models import Entry, Player, Round, Seat, Table, Tournament


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: the entry and the player (a partner, for partnership entries)."""

    number: int
    entry_id: int
    player_id: int


def tournament_open_check(*, tournament: Tournament) -> None:
    """Refuse a new round for a finished tournament: its standings are final. Every way
    to add a round (the desk, the admin, the API, the knockout) asks this, of the stored
    status: the caller's copy may be older than the finish."""
    if Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.FINISHED).exists():
        raise ValidationError(
            _("The tournament is finished: reopen it in its settings to add a round."),
            code="tournament_finished",
        )


def round_create(*, tournament: Tournament, number: int | None = None) -> Round:
    tournament_open_check(tournament=tournament)
    if number is None:
        number = (
            tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        ) + 1
    if number > tournament.rounds_count:
        raise ValidationError(
            _("The tournament has %(n)d rounds.") % {"n": tournament.rounds_count},
            code="too_many_rounds",
        )
    return Round.objects.create(tournament=tournament, number=number, pairing_seed=tournament.seed)


def table_create(
    *,
    round: Round,
    number: int,
    seats: Sequence[SeatSpec],
    cost: dict[str, Any] | None = None,
) -> Table:
    """A table with its seats; the target follows the rule set and the player count (R4)."""
    player_count = len(seats)
    _table_size_check(player_count)
    if sorted(s.number for s in seats) != list(range(player_count)):
        # Stored from 0; people count seats from 1.
        raise ValidationError(
            _("Seats are numbered 1 to %(last)d.") % {"last": player_count}, code="seat_number"
        )
    _seated_once_check(seats)
    rule_set = round.tournament.effective_rule_set
    table = Table.objects.create(
        round=round,
        number=number,
        player_count=player_count,
        target=rule_set.target_for(player_count),
        cost=cost or {},
    )
    Seat.objects.bulk_create(
        Seat(table=table, number=s.number, entry_id=s.entry_id, player_id=s.player_id)
        for s in seats
    )
    return table


def _seated_once_check(seats: Sequence[SeatSpec]) -> None:
    """A player sits once at a table: two entries naming the same player (a partnership
    and its partner's own entry, or two partnerships sharing a player) cannot be seated
    together. Refused by name instead of failing on the ``seat_player_once`` constraint."""
    seen: dict[int, int] = {}
    for spec in seats:
        if spec.player_id in seen and seen[spec.player_id] != spec.entry_id:
            player = Player.objects.filter(pk=spec.player_id).first()
            names = sorted(
                e.display_name
                for e in Entry.objects.filter(
                    pk__in=[seen[spec.player_id], spec.entry_id]
                ).select_related("player", "partnership")
            )
            raise ValidationError(
                _(
                    "%(player)s plays for two entries at one table (%(entries)s): a player may "
                    "be in only one entry of a tournament. Withdraw or delete one of them."
                )
                % {"player": player or "?", "entries": ", ".join(names)},
                code="player_in_two_entries",
            )
        if spec.player_id in seen:
            raise ValidationError(
                _("%(who)s already has a seat at this table.")
                % {"who": Player.objects.filter(pk=spec.player_id).first() or "?"},
                code="seated_twice",
            )
        seen[spec.player_id] = spec.entry_id


def _table_size_check(player_count: int) -> None:
    if not 2 <= player_count <= 4:
        raise ValidationError(
            _("A table seats 2, 3 or 4 players, not %(n)d.") % {"n": player_count},
            code="table_size",
        )


def _draft_check(round: Round) -> None:
    if round.status != Round.Status.DRAFT:
        raise ValidationError(_("Tables are added to draft rounds only."), code="round_published")
    round_kept_check(round)


def round_kept_check(round: Round) -> None:
    """Refuse an organiser's change to a round whose tables another app set (the knockout
    bracket's)."""
    if reasons := round_keep_reasons(round=round):
        raise ValidationError(" ".join(reasons), code="round_kept")


def seat_check(*, round: Round, entry: Entry, player_id: int) -> None:
    """A seat's entry plays in the round's tournament, and its player plays for the entry."""
    if entry.tournament_id != round.tournament_id:
        raise ValidationError(
            _("%(who)s is not entered in this tournament.") % {"who": entry.display_name},
            code="entry_elsewhere",
        )
    if not entry.members.filter(player_id=player_id).exists():
        player = Player.objects.filter(pk=player_id).values_list("name", flat=True).first()
        raise ValidationError(
            _("%(player)s does not play for %(who)s.")
            % {"player": player or "?", "who": entry.display_name},
            code="not_a_member",
        )


@transaction.atomic
def table_add(
    *,
    round: Round,
    number: int,
    player_count: int | None = None,
    seats: Sequence[SeatSpec] = (),
) -> Table:
    """A table an organiser sets out by hand in a draft round, with its seats or, in the
    admin, seated afterwards (``seat_set``); the target follows the rule set (R4)."""
    _draft_check(round)
    if round.tables.filter(number=number).exists():
        raise ValidationError(
            _("The round already has a table %(n)d.") % {"n": number}, code="table_number_taken"
        )
    if seats:
        entries = {e.pk: e for e in Entry.objects.filter(pk__in={s.entry_id for s in seats})}
        for spec in seats:
            entry = entries.get(spec.entry_id)
            if entry is None:
                raise ValidationError(
                    _("A seat names an entry that does not exist."), code="entry_elsewhere"
                )
            seat_check(round=round, entry=entry, player_id=spec.player_id)
        return table_create(round=round, number=number, seats=seats)
    if player_count is None:
        raise ValidationError(_("A table needs its number of players."), code="table_size")
    _table_size_check(player_count)
    return Table.objects.create(
        round=round,
        number=number,
        player_count=player_count,
        target=round.tournament.effective_rule_set.target_for(player_count),
    )


@transaction.atomic
def table_update(*, table: Table, number: int, player_count: int) -> Table:
    """Renumber or resize a draft round's table; the target follows the new player count."""
    if number == table.number and player_count == table.player_count:
        return table
    round = table.round
    if round.status != Round.Status.DRAFT:
        raise ValidationError(
            _("Tables of a published round cannot be changed."), code="round_published"
        )
    round_kept_check(round)
    _table_size_check(player_count)
    if number != table.number and round.tables.filter(number=number).exists():
        raise ValidationError(
            _("The round already has a table %(n)d.") % {"n": number}, code="table_number_taken"
        )
    if table.seats.filter(number__gte=player_count).exists():
        raise ValidationError(
            _("The table's seats do not fit %(n)d players: free the higher seats first.")
            % {"n": player_count},
            code="seats_beyond_size",
        )
    table.number = number
    table.player_count = player_count
    table.target = round.tournament.effective_rule_set.target_for(player_count)
    table.save(update_fields=["number", "player_count", "target", "updated_at"])
    return table


@transaction.atomic
def seat_set(
    *, table: Table, number: int, entry: Entry, player: Player, seat: Seat | None = None
) -> Seat:
    """Seat a player of an entry at a draft round's table (or change ``seat``)."""
    if table.round.status != Round.Status.DRAFT:
        raise ValidationError(_("Seats change in draft rounds only."), code="round_published")
    round_kept_check(table.round)
    # ``number`` is stored from 0; the messages count seats from 1, as people do.
    if not 0 <= number < table.player_count:
        raise ValidationError(
            _("A table of %(n)d players has seats 1 to %(last)d.")
            % {"n": table.player_count, "last": table.player_count},
            code="seat_number",
        )
    seat_check(round=table.round, entry=entry, player_id=player.pk)
    others = (
        table.seats.all() if seat is None or seat.pk is None else table.seats.exclude(pk=seat.pk)
    )
    if others.filter(number=number).exists():
        raise ValidationError(_("Seat %(n)d is taken.") % {"n": number + 1}, code="seat_taken")
    if others.filter(player=player).exists():
        raise ValidationError(
            _("%(who)s already has a seat at this table.") % {"who": player}, code="seated_twice"
        )
    seat = seat or Seat(table=table)
    seat.table, seat.number, seat.entry, seat.player = table, number, entry, player
    seat.save()
    return seat


def seat_delete(*, seat: Seat) -> None:
    """Free a seat of a draft round's table."""
    if seat.table.round.status != Round.Status.DRAFT:
        raise ValidationError(_("Seats change in draft rounds only."), code="round_published")
    round_kept_check(seat.table.round)
    seat.delete()


def seats_for_entries(entries: Sequence[Entry], *, player_count: int) -> list[SeatSpec]:
    """Seat entries clockwise; a partnership fills two opposite seats (0+2 or 1+3)."""
    specs: list[SeatSpec] = []
    if player_count == 4 and all(e.partnership_id for e in entries) and len(entries) == 2:
        for side, entry in enumerate(entries):
            assert entry.partnership is not None
            a, b = entry.partnership.player_a_id, entry.partnership.player_b_id
            specs.append(SeatSpec(number=side, entry_id=entry.pk, player_id=a))
            specs.append(SeatSpec(number=side + 2, entry_id=entry.pk, player_id=b))
        return sorted(specs, key=lambda s: s.number)
    for number, entry in enumerate(entries):
        if entry.player_id is None:
            raise ValidationError(_("A partnership plays at a four-player table."))
        specs.append(SeatSpec(number=number, entry_id=entry.pk, player_id=entry.player_id))
    return specs


def round_publish(*, round: Round) -> Round:
    """Make a drafted round's pairings public."""
    if round.status != Round.Status.DRAFT:
        raise ValidationError(_("Only a draft round can be published."), code="not_draft")
    if not round.tables.exists():
        raise ValidationError(_("The round has no tables yet."), code="no_tables")
    # A hand-edited draft may be unplayable (an entrant twice, a table of the wrong size):
    # rematches and partner repeats are only warnings, those are refused.
    blocking = round_publish_problems(round=round)
    if blocking:
        raise ValidationError([ValidationError(m, code="draft_unplayable") for m in blocking])
    round.status = Round.Status.PUBLISHED
    if round.starts_at is None:
        round.starts_at = timezone.now()
    round.save(update_fields=["status", "starts_at", "updated_at"])
    tournament = round.tournament
    if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status", "updated_at"])
    round_published(round=round)
    return round


def _table_named(table: Table) -> str:
    """A table as people name it: its number and its players ("table 2: Budi, Siti")."""
    players = ", ".join(
        str(seat.player) for seat in sorted(table.seats.all(), key=lambda s: s.number)
    )
    label = _("table %(n)d") % {"n": table.number}
    return f"{label}: {players}" if players else label


def round_close(*, round: Round) -> Round:
    """Close a published round once every table has its result."""
    if round.status != Round.Status.PUBLISHED:
        raise ValidationError(_("Only a published round can be closed."), code="not_published")
    unfinished = list(
        round.tables.exclude(status=Table.Status.FINISHED)
        .prefetch_related("seats__player")
        .order_by("number")
    )
    if unfinished:
        named = "; ".join(_table_named(table) for table in unfinished)
        raise ValidationError(
            ngettext(
                "%(n)d table has not finished its match: %(tables)s.",
                "%(n)d tables have not finished their match: %(tables)s.",
                len(unfinished),
            )
            % {"n": len(unfinished), "tables": named},
            code="tables_unfinished",
        )
    round.status = Round.Status.FINISHED
    round.save(update_fields=["status", "updated_at"])
    return round


def tournament_finish_check(*, tournament: Tournament) -> None:
    """Refuse to mark a tournament finished while one of its rounds is not closed: its
    results would not be final. Every way to finish a tournament (the desk, the admin, the
    API) asks this."""
    open_rounds = list(tournament.rounds.exclude(status=Round.Status.FINISHED).order_by("number"))
    problems = [
        ValidationError(
            _("Round %(n)d is still a draft: delete it, or play and close it, first.")
            % {"n": r.number}
            if r.status == Round.Status.DRAFT
            else _("Round %(n)d is still being played: close it first.") % {"n": r.number},
            code="round_open",
        )
        for r in open_rounds
    ]
    if problems:
        raise ValidationError(problems)


@transaction.atomic
def tournament_finish(*, tournament: Tournament) -> Tournament:
    """Mark the tournament finished once every round is closed: its standings are final,
    and no entry or registration is taken any more."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is already finished."), code="finished")
    tournament_finish_check(tournament=tournament)
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status", "updated_at"])
    return tournament


@transaction.atomic
def tournament_duplicate(*, tournament: Tournament, name: str | None = None) -> Tournament:
    """A new draft tournament with the same settings, organisers and scorekeepers."""
    name = name or _("%(name)s (copy)") % {"name": tournament.name}
    copy = Tournament.objects.get(pk=tournament.pk)
    copy.pk = None
    copy.id = None
    copy.name = name
    base = slugify(name)[:160] or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    copy.slug = slug
    copy.status = Tournament.Status.DRAFT
    copy.starts_on = None
    copy._state.adding = True
    copy.save()
    copy.organisers.set(tournament.organisers.all())
    copy.scorekeepers.set(tournament.scorekeepers.all())
    return copy
