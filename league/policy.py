"""Who may do what: the one place every permission of the league is decided.

The admin (querysets, change, delete and history views, autocompletes, exports, imports),
the API, the pages and the tasks ask here; nothing else writes a permission rule. Rights
come from two sources:

- **Club membership** (``Membership``): a club's *organisers* manage everything the club
  owns — its players (contact details included), seasons, divisions, rule sets,
  tournaments and members; its *scorekeepers* score its tournaments' matches.
  Its *members* hold no club-wide right: they act through per-tournament roles, see
  the contact details of the club's own players entered in the club tournaments they
  organise, and — when they organise (named on a tournament, or in the Organisers
  group) — register the club's new players and tournaments and change its players not
  yet entered anywhere. (This is what every organiser could do before clubs existed;
  the data migration makes everyone a member, so nobody gains or loses a right.)
- **Per-tournament roles** (``Tournament.organisers`` / ``scorekeepers``): manage or
  score that one tournament (a guest organiser of an inter-club event, say).

Contact details (email, phone) reach only the organisers of the player's home club (and
its members organising a club tournament the player is entered in) and the superuser:
entering a visiting player in a tournament grants the host nothing over that player. The
two shipped rule sets (no club) are shared and read-only; the superuser may do
everything. Every function answers a queryset (what the user may touch) or a boolean,
and takes keyword-only arguments.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import F, Q, QuerySet

from league.models import (
    Club,
    Division,
    Entry,
    EntryMember,
    Membership,
    MembershipRole,
    Partnership,
    Player,
    Round,
    RuleSet,
    Season,
    Table,
    Tournament,
)
from league.roles import ORGANISERS_GROUP

type AnyUser = AbstractBaseUser | AnonymousUser


def user_is_superuser(*, user: AnyUser) -> bool:
    """A signed-in, active superuser: sees and manages everything."""
    return bool(user.is_authenticated and user.is_active and getattr(user, "is_superuser", False))


def _uid(user: AnyUser) -> int:
    return int(user.pk or 0)


def _signed_in(user: AnyUser) -> bool:
    return bool(user.is_authenticated and user.is_active)


# --- Clubs and their members -------------------------------------------------------------


def clubs_organised_by(*, user: AnyUser) -> QuerySet[Club]:
    """Clubs whose organiser the user is (every club for the superuser)."""
    if user_is_superuser(user=user):
        return Club.objects.all()
    if not _signed_in(user):
        return Club.objects.none()
    return Club.objects.filter(
        memberships__user__pk=_uid(user), memberships__role=MembershipRole.ORGANISER
    )


def clubs_scored_by(*, user: AnyUser) -> QuerySet[Club]:
    """Clubs the user scores for: as a scorekeeper or an organiser."""
    if user_is_superuser(user=user):
        return Club.objects.all()
    if not _signed_in(user):
        return Club.objects.none()
    return Club.objects.filter(
        memberships__user__pk=_uid(user),
        memberships__role__in=[MembershipRole.ORGANISER, MembershipRole.SCOREKEEPER],
    ).distinct()


def clubs_registering_for(*, user: AnyUser) -> QuerySet[Club]:
    """Clubs the user may register new players and tournaments for: those they organise,
    and those they are a member of while organising (named on a tournament, or in the
    Organisers group)."""
    if user_is_superuser(user=user):
        return Club.objects.all()
    if not _signed_in(user):
        return Club.objects.none()
    if not _organises_by_name_or_group(user):
        return clubs_organised_by(user=user)
    return Club.objects.filter(memberships__user__pk=_uid(user)).distinct()


def club_can_register(*, user: AnyUser, club_id: int | None) -> bool:
    """May the user register a new player or tournament for the club?"""
    if user_is_superuser(user=user):
        return True
    if club_id is None:
        return False
    return clubs_registering_for(user=user).filter(pk=club_id).exists()


def _organises_by_name_or_group(user: AnyUser) -> bool:
    uid = _uid(user)
    return (
        Tournament.objects.filter(organisers__pk=uid).exists()
        or Membership.objects.filter(user__pk=uid, user__groups__name=ORGANISERS_GROUP).exists()
    )


def club_can_manage(*, user: AnyUser, club_id: int | None) -> bool:
    """May the user act for the club (create and change what it owns, manage members)?"""
    if user_is_superuser(user=user):
        return True
    if club_id is None:
        return False
    return clubs_organised_by(user=user).filter(pk=club_id).exists()


def user_is_organiser(*, user: AnyUser) -> bool:
    """The superuser, an organiser of a club, or an organiser of a tournament."""
    if user_is_superuser(user=user):
        return True
    if not _signed_in(user):
        return False
    return clubs_organised_by(user=user).exists() or _organises_by_name_or_group(user)


def user_can_use_admin(*, user: AnyUser) -> bool:
    """Whether the organisers' admin opens to the user at all."""
    return bool(getattr(user, "is_staff", False)) and user_is_organiser(user=user)


def memberships_managed_by(*, user: AnyUser) -> QuerySet[Membership]:
    """Memberships of the clubs the user organises."""
    return Membership.objects.filter(club__in=clubs_organised_by(user=user).values("pk"))


def memberships_visible_to(*, user: AnyUser) -> QuerySet[Membership]:
    """Memberships of the clubs the user belongs to (who else keeps the score there)."""
    return Membership.objects.filter(club__in=clubs_scored_by(user=user).values("pk"))


# --- Tournaments --------------------------------------------------------------------------


def tournaments_managed_by(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments the user manages: those of the clubs they organise, and those they
    organise by name (all of them for the superuser)."""
    if user_is_superuser(user=user):
        return Tournament.objects.all()
    if not _signed_in(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(
        pk__in=Tournament.objects.filter(
            Q(club__in=clubs_organised_by(user=user).values("pk")) | Q(organisers=_uid(user))
        ).values("pk")
    )


def tournaments_scored_by(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments whose matches the user may score (organisers score too)."""
    if user_is_superuser(user=user):
        return Tournament.objects.all()
    if not _signed_in(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(
        pk__in=Tournament.objects.filter(
            Q(club__in=clubs_scored_by(user=user).values("pk"))
            | Q(organisers=_uid(user))
            | Q(scorekeepers=_uid(user))
        ).values("pk")
    )


def tournament_can_manage(*, user: AnyUser, tournament_id: int) -> bool:
    return tournaments_managed_by(user=user).filter(pk=tournament_id).exists()


def tournament_can_score(*, user: AnyUser, tournament_id: int) -> bool:
    return tournaments_scored_by(user=user).filter(pk=tournament_id).exists()


def tournaments_visible_to(*, user: AnyUser) -> QuerySet[Tournament]:
    """Published tournaments (anything but a draft), and the drafts the user manages or
    scores (every tournament for the superuser)."""
    if user_is_superuser(user=user):
        return Tournament.objects.all()
    public = ~Q(status=Tournament.Status.DRAFT)
    if not _signed_in(user):
        return Tournament.objects.filter(public)
    return Tournament.objects.filter(
        public | Q(pk__in=tournaments_scored_by(user=user).values("pk"))
    )


def rounds_visible_to(*, user: AnyUser) -> QuerySet[Round]:
    """Published and finished rounds of visible tournaments; draft rounds to their managers."""
    if user_is_superuser(user=user):
        return Round.objects.all()
    public = Q(tournament__in=tournaments_visible_to(user=user).values("pk")) & ~Q(
        status=Round.Status.DRAFT
    )
    return Round.objects.filter(
        public | Q(tournament__in=tournaments_managed_by(user=user).values("pk"))
    )


def tables_visible_to(*, user: AnyUser) -> QuerySet[Table]:
    """Tables of the rounds the user may see (never a draft round's, to the public)."""
    if user_is_superuser(user=user):
        return Table.objects.all()
    return Table.objects.filter(round__in=rounds_visible_to(user=user).values("pk"))


def entries_visible_to(*, user: AnyUser) -> QuerySet[Entry]:
    """Entries of the tournaments the user may see."""
    return Entry.objects.filter(tournament__in=tournaments_visible_to(user=user).values("pk"))


# --- Players and partnerships ------------------------------------------------------------


def players_with_contact_for(*, user: AnyUser) -> QuerySet[Player]:
    """Players whose email and phone the user may read: those of the clubs they organise,
    and their own clubs' players entered in the club's tournaments they organise by name
    (every player for the superuser). Entering a visiting player grants nothing."""
    if user_is_superuser(user=user):
        return Player.objects.all()
    if not _signed_in(user):
        return Player.objects.none()
    uid = _uid(user)
    entered_at_home = EntryMember.objects.filter(
        tournament__organisers__pk=uid,
        tournament__club__memberships__user__pk=uid,
        player__home_club=F("tournament__club"),
    ).values("player_id")
    return Player.objects.filter(
        Q(home_club__in=clubs_organised_by(user=user).values("pk")) | Q(pk__in=entered_at_home)
    )


def player_contact_visible(*, user: AnyUser, player: Player) -> bool:
    return players_with_contact_for(user=user).filter(pk=player.pk).exists()


def players_editable_by(*, user: AnyUser) -> QuerySet[Player]:
    """Players the user may change: those whose contact details they may read, and the
    players not yet entered anywhere of the clubs they register for (a new registration)."""
    if user_is_superuser(user=user):
        return Player.objects.all()
    new = Q(home_club__in=clubs_registering_for(user=user).values("pk")) & ~Q(
        pk__in=EntryMember.objects.values("player_id")
    )
    return Player.objects.filter(Q(pk__in=players_with_contact_for(user=user).values("pk")) | new)


def players_visible_in_admin(*, user: AnyUser) -> QuerySet[Player]:
    """Players an organiser finds in the admin: everyone (names are public, as on the
    site) so that visitors can be entered — contact details only through
    ``players_with_contact_for``."""
    if not user_is_organiser(user=user):
        return Player.objects.none()
    return Player.objects.all()


def players_enterable_in(*, user: AnyUser, tournament: Tournament) -> QuerySet[Player]:
    """Players the user may enter in a tournament they manage: the host club's players,
    their own clubs' players, and — when the tournament accepts visitors — anyone."""
    if not tournament_can_manage(user=user, tournament_id=tournament.pk):
        return Player.objects.none()
    if tournament.accepts_visitors or user_is_superuser(user=user):
        return Player.objects.all()
    return Player.objects.filter(
        Q(home_club__in=clubs_organised_by(user=user).values("pk"))
        | Q(home_club_id=tournament.club_id)
    )


def partnerships_editable_by(*, user: AnyUser) -> QuerySet[Partnership]:
    """Partnerships whose two players the user may both change."""
    if user_is_superuser(user=user):
        return Partnership.objects.all()
    editable = players_editable_by(user=user).values("pk")
    return Partnership.objects.filter(player_a__in=editable, player_b__in=editable)


# --- Seasons, divisions, rule sets --------------------------------------------------------


def seasons_managed_by(*, user: AnyUser) -> QuerySet[Season]:
    if user_is_superuser(user=user):
        return Season.objects.all()
    return Season.objects.filter(club__in=clubs_organised_by(user=user).values("pk"))


def seasons_usable_by(*, user: AnyUser) -> QuerySet[Season]:
    """Seasons the user may pick for a tournament: those of the clubs they register
    tournaments for, and those of the tournaments they run (a guest organiser keeps the
    tournament's own season)."""
    if user_is_superuser(user=user):
        return Season.objects.all()
    managed = tournaments_managed_by(user=user).values("pk")
    return Season.objects.filter(
        Q(club__in=clubs_registering_for(user=user).values("pk")) | Q(tournaments__in=managed)
    ).distinct()


def divisions_managed_by(*, user: AnyUser) -> QuerySet[Division]:
    return Division.objects.filter(season__in=seasons_managed_by(user=user).values("pk"))


def rule_sets_managed_by(*, user: AnyUser) -> QuerySet[RuleSet]:
    """Rule sets the user may change: their clubs' own (the shipped ones, superuser only)."""
    if user_is_superuser(user=user):
        return RuleSet.objects.all()
    return RuleSet.objects.filter(club__in=clubs_organised_by(user=user).values("pk"))


def rule_sets_usable_by(*, user: AnyUser) -> QuerySet[RuleSet]:
    """Rule sets the user may pick for a season or tournament: shared ones and their clubs'."""
    if user_is_superuser(user=user):
        return RuleSet.objects.all()
    managed = tournaments_managed_by(user=user).values("pk")
    return RuleSet.objects.filter(
        Q(club__isnull=True)
        | Q(club__in=clubs_registering_for(user=user).values("pk"))
        | Q(tournaments__in=managed)
        | Q(seasons__tournaments__in=managed)
    ).distinct()
