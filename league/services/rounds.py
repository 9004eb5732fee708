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

from league.hooks import round_publish_problems
from league.models import Entry, Round, Seat, Table, Tournament


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: the entry and the player (a partner, for partnership entries)."""

    number: int
    entry_id: int
    player_id: int


def round_create(*, tournament: Tournament, number: int | None = None) -> Round:
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
    if not 2 <= player_count <= 4:
        raise ValidationError(
            _("A table seats 2, 3 or 4 players, not %(n)d.") % {"n": player_count},
            code="table_size",
        )
    if sorted(s.number for s in seats) != list(range(player_count)):
        raise ValidationError(_("Seats are numbered 0 to %(last)d.") % {"last": player_count - 1})
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
    return round


def round_close(*, round: Round) -> Round:
    """Close a published round once every table has its result."""
    if round.status != Round.Status.PUBLISHED:
        raise ValidationError(_("Only a published round can be closed."), code="not_published")
    unfinished = round.tables.exclude(status=Table.Status.FINISHED).count()
    if unfinished:
        raise ValidationError(
            _("%(n)d table(s) have not finished their match.") % {"n": unfinished},
            code="tables_unfinished",
        )
    round.status = Round.Status.FINISHED
    round.save(update_fields=["status", "updated_at"])
    return round


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
