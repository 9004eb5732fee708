"""Registering who plays: players, partnerships and tournament entries, check-in and
withdrawals."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from league.hooks import entry_keep_reasons
from league.models import Club, Entry, EntryMember, Partnership, Player, Tournament
from league.services.records import record_update


def _unique_slug(model: type[Player] | type[Partnership], base: str) -> str:
    root = slugify(base)[:120] or "x"
    slug, n = root, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{root}-{n}"
    return slug


def player_create(
    *,
    name: str,
    nickname: str = "",
    club: str = "",
    email: str = "",
    phone: str = "",
    home_club: Club | None = None,
) -> Player:
    name = name.strip()
    if not name:
        raise ValidationError(_("A player needs a name."), code="name_required")
    player = Player(
        name=name,
        nickname=nickname.strip(),
        club=club.strip() or (home_club.name if home_club is not None else ""),
        email=email,
        phone=phone,
        home_club=home_club,
    )
    player.slug = _unique_slug(Player, f"{name} {nickname}".strip())
    player.full_clean()
    player.save()
    return player


def partnership_create(*, player_a: Player, player_b: Player, name: str = "") -> Partnership:
    if player_a.pk == player_b.pk:
        raise ValidationError(_("A partnership needs two different players."), code="same_player")
    name = name.strip() or f"{player_a.name} & {player_b.name}"
    partnership = Partnership(name=name, player_a=player_a, player_b=player_b)
    partnership.slug = _unique_slug(Partnership, name)
    partnership.save()
    return partnership


def partnership_pair_free_check(*, player_a: Player, player_b: Player) -> None:
    """Refuse making a partnership two players already have (either way round)."""
    existing = Partnership.objects.filter(
        Q(player_a=player_a, player_b=player_b) | Q(player_a=player_b, player_b=player_a)
    ).first()
    if existing is not None:
        raise ValidationError(
            _("%(a)s and %(b)s are already partners: %(p)s.")
            % {"a": player_a, "b": player_b, "p": existing},
            code="partnership_exists",
        )


@transaction.atomic
def partnerships_create_bulk(*, players: Sequence[Player]) -> list[Partnership]:
    """Pair players two by two in the order given (1st with 2nd, 3rd with 4th …); all or
    nothing. An odd number of players, or a pair that already plays together, is refused."""
    if len(players) % 2:
        raise ValidationError(
            _("Choose an even number of players: they are paired two by two (%(n)d chosen).")
            % {"n": len(players)},
            code="odd_players",
        )
    made = []
    for a, b in zip(players[::2], players[1::2], strict=True):
        partnership_pair_free_check(player_a=a, player_b=b)
        made.append(partnership_create(player_a=a, player_b=b))
    return made


def partnership_players_check(
    *, partnership: Partnership, player_a: Player | None, player_b: Player | None
) -> None:
    """A partnership's players are fixed once it is entered in a tournament: the entry's
    members (who sits at the tables, each player once per tournament) follow from them."""
    if player_a is not None and player_b is not None and player_a.pk == player_b.pk:
        raise ValidationError(_("A partnership needs two different players."), code="same_player")
    if partnership.pk is None:
        return
    changed = (getattr(player_a, "pk", None), getattr(player_b, "pk", None)) != (
        partnership.player_a_id,
        partnership.player_b_id,
    )
    entered = (
        Entry.objects.filter(partnership_id=partnership.pk).select_related("tournament").first()
    )
    if changed and entered is not None:
        raise ValidationError(
            _(
                "%(p)s is entered in %(t)s, so its players cannot change. Make a new "
                "partnership for the new pair."
            )
            % {"p": partnership, "t": entered.tournament},
            code="partnership_entered",
        )


def partnership_update(*, partnership: Partnership, fields: Mapping[str, Any]) -> Partnership:
    """Change a partnership's name, seasons or activity — or its players, while it is not
    entered in any tournament (``partnership_players_check``)."""
    partnership_players_check(
        partnership=partnership,
        player_a=fields.get("player_a", partnership.player_a),
        player_b=fields.get("player_b", partnership.player_b),
    )
    return record_update(instance=partnership, fields=fields)


def _entry_players(entry: Entry) -> list[Player]:
    if entry.partnership is not None:
        return list(entry.partnership.players)
    assert entry.player is not None
    return [entry.player]


def entry_check(
    *,
    tournament: Tournament,
    player: Player | None = None,
    partnership: Partnership | None = None,
) -> None:
    """The rules of ``entry_create`` without writing anything, for forms that show them
    before saving: the kind of entry the format takes, an open tournament, and each player
    in at most one entry (or partnership) of the tournament."""
    if (player is None) == (partnership is None):
        raise ValidationError(_("An entry is a player or a partnership."), code="entry_kind")
    if tournament.is_partnership_format and partnership is None:
        raise ValidationError(
            _("This tournament is for fixed partnerships: register a partnership."),
            code="partnership_required",
        )
    if not tournament.is_partnership_format and partnership is not None:
        raise ValidationError(
            _("This tournament is for individuals: register players."),
            code="player_required",
        )
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished."), code="tournament_finished")
    players = list(partnership.players) if partnership is not None else [player]
    if not tournament.accepts_visitors and tournament.club_id is not None:
        visitor = next(
            (p for p in players if p is not None and p.home_club_id != tournament.club_id), None
        )
        if visitor is not None:
            raise ValidationError(
                _("%(who)s plays for another club, and this tournament is not open to visitors.")
                % {"who": visitor},
                code="visitor_not_accepted",
            )
    if tournament.pk is None:
        return  # a tournament being created has no entries yet
    taken = (
        EntryMember.objects.filter(tournament=tournament, player__in=players)
        .select_related("player")
        .first()
    )
    if taken is not None:
        raise ValidationError(
            _("%(who)s is already registered in this tournament.") % {"who": taken.player},
            code="already_registered",
        )


@transaction.atomic
def entry_create(
    *,
    tournament: Tournament,
    player: Player | None = None,
    partnership: Partnership | None = None,
    seed: int | None = None,
) -> Entry:
    """Register a player (or, in fixed-partnership formats, a partnership)."""
    entry_check(tournament=tournament, player=player, partnership=partnership)
    entry = Entry(tournament=tournament, player=player, partnership=partnership, seed=seed)
    try:
        with transaction.atomic():
            entry.save()
            EntryMember.objects.bulk_create(
                EntryMember(entry=entry, player=p, tournament=tournament)
                for p in _entry_players(entry)
            )
    except IntegrityError as exc:
        raise ValidationError(
            _("%(who)s is already registered in this tournament.") % {"who": entry},
            code="already_registered",
        ) from exc
    return entry


@transaction.atomic
def players_register_bulk(*, tournament: Tournament, players: Iterable[Player]) -> list[Entry]:
    """Register several players at once; all or nothing."""
    entries = []
    seed_base = Entry.objects.filter(tournament=tournament).count()
    for i, player in enumerate(players, start=1):
        entries.append(entry_create(tournament=tournament, player=player, seed=seed_base + i))
    return entries


def entry_withdraw(*, entry: Entry, round_number: int | None = None) -> Entry:
    """Withdraw an entry from the given round on; it is never paired again."""
    if entry.is_withdrawn:
        raise ValidationError(_("%(who)s has already withdrawn.") % {"who": entry})
    if reasons := entry_keep_reasons(entry=entry):
        raise ValidationError(" ".join(reasons), code="entry_kept")
    if round_number is None:
        round_number = entry.tournament.rounds.filter(status="finished").count() + 1
    entry.is_withdrawn = True
    entry.withdrawn_round = round_number
    entry.save(update_fields=["is_withdrawn", "withdrawn_round", "updated_at"])
    return entry


def entry_check_in(*, entry: Entry, checked_in: bool) -> Entry:
    """Mark an entry present (or, ``checked_in=False``, not yet) for the rounds to come."""
    if entry.is_withdrawn and checked_in:
        raise ValidationError(
            _("%(who)s has withdrawn and cannot check in.") % {"who": entry}, code="withdrawn"
        )
    if entry.tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished."), code="tournament_finished")
    if entry.is_checked_in != checked_in:
        entry.is_checked_in = checked_in
        entry.save(update_fields=["is_checked_in", "updated_at"])
    return entry
