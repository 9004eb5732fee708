"""What the organiser's desk writes, each a composition of the league's, pairing's and
the knockout's own services (it never writes a model itself): starting the next round,
which creates the round and asks for its pairing in one step (or, after a knockout
round, advances the bracket's winners), and registering a late arrival, which may
create the player (and the partnership) it enters.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from knockout.services import bracket_advance
from league.models import Entry, Player, Round, Tournament
from league.services.registration import entry_create, partnership_create, player_create
from league.services.rounds import round_create
from pairing.services.requests import round_pair_request


def round_next_check(*, tournament: Tournament) -> int:
    """The number of the round that may start next, or a ``ValidationError`` saying why
    none may: the current round is not closed, or the tournament has all its rounds."""
    latest = tournament.rounds.order_by("-number").first()
    if latest is not None and latest.status != Round.Status.FINISHED:
        raise ValidationError(
            _("Round %(n)d is not closed yet: close it before starting the next round.")
            % {"n": latest.number},
            code="round_not_closed",
        )
    number = (latest.number if latest is not None else 0) + 1
    if number > tournament.rounds_count:
        raise ValidationError(
            _("The tournament has all its %(n)d rounds: there is no next round.")
            % {"n": tournament.rounds_count},
            code="all_rounds_played",
        )
    return number


@transaction.atomic
def round_next(*, tournament: Tournament) -> Round | None:
    """Create the tournament's next numbered round and ask for its pairing; after a
    knockout round, advance the bracket's winners to the next round's tables instead
    (None once the knockout is over)."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    latest = tournament.rounds.order_by("-number").first()
    if latest is not None and latest.is_knockout:
        return bracket_advance(tournament=tournament)
    number = round_next_check(tournament=tournament)
    round = round_create(tournament=tournament, number=number)
    round_pair_request(round=round)
    return round


def _player(*, existing: Player | None, name: str, tournament: Tournament) -> Player:
    if existing is not None:
        if name.strip():
            raise ValidationError(
                _("Pick a registered player or type a new name, not both."), code="player_twice"
            )
        return existing
    if not name.strip():
        raise ValidationError(
            _("Pick a registered player or type the new player's name."), code="player_missing"
        )
    return player_create(name=name, home_club=tournament.club)


@transaction.atomic
def entry_register_late(
    *,
    tournament: Tournament,
    player: Player | None = None,
    name: str = "",
    partner: Player | None = None,
    partner_name: str = "",
) -> Entry:
    """Enter a late arrival: a registered player or a new one by name, and in
    fixed-partnership formats their partner too (the partnership is made for them).
    All or nothing: a refused entry creates no player."""
    first = _player(existing=player, name=name, tournament=tournament)
    if not tournament.is_partnership_format:
        return entry_create(tournament=tournament, player=first)
    second = _player(existing=partner, name=partner_name, tournament=tournament)
    partnership = partnership_create(player_a=first, player_b=second)
    return entry_create(tournament=tournament, partnership=partnership)
