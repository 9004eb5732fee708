"""Applying, approving, declining and the waiting list; the players' private links.

Approval always goes through the organiser: ``application_submit`` only records the
request (or puts it on the waiting list when the places are taken), and
``application_approve`` creates the player(s), the partnership and the entry through
``league.services.registration`` with all of its checks. A place frees when an
application is declined or an entry withdraws; ``waiting_list_promote`` then moves the
longest-waiting applications back before the organiser.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from entrants.models import Application, ListedAs, PlayerLink, SignUp, public_name
from entrants.selectors import SignUpState, key_hash, places_taken, signup_of, signup_state
from league.models import Entry, Player, Tournament
from league.services.registration import (
    entry_check_in,
    entry_create,
    partnership_create,
    player_create,
)

#: 160 random bits, URL-safe (27 characters), as the table links.
KEY_BYTES = 20
Status = Application.Status


def signup_state_refusal(state: SignUpState, signup: SignUp | None) -> str:
    """Why an application cannot be made now, in the user's language."""
    if state == SignUpState.NOT_YET and signup is not None and signup.opens_at is not None:
        opens = timezone.localtime(signup.opens_at).strftime("%d-%m-%Y %H:%M")
        return _("Sign-up opens on %(when)s.") % {"when": opens}
    messages = {
        SignUpState.NOT_OFFERED: _("This tournament does not take sign-ups."),
        SignUpState.NOT_YET: _("Sign-up is not open yet."),
        SignUpState.CLOSED: _("Sign-up is closed."),
        SignUpState.FULL: _("Sign-up is full: every place is taken."),
    }
    return messages.get(state, "")


def player_lookup(*, tournament: Tournament, email: str, phone: str) -> Player | None:
    """The host club's record of a player with this email or phone, if exactly one.

    The answer is for the organiser only: the applicant is never told whether a record
    was found, so the lookup gives away nobody's details."""
    if tournament.club_id is None:
        return None
    candidates = Player.objects.filter(home_club_id=tournament.club_id, is_active=True)
    found: list[Player] = []
    if email:
        found = list(candidates.filter(email__iexact=email)[:2])
    if not found and phone:
        found = list(candidates.filter(phone=phone)[:2])
    return found[0] if len(found) == 1 else None


def _clean_text(value: str, limit: int) -> str:
    return " ".join(value.split())[:limit]


@transaction.atomic
def application_submit(
    *,
    tournament: Tournament,
    name: str,
    nickname: str = "",
    email: str = "",
    phone: str = "",
    club_name: str = "",
    listed_as: str = ListedAs.NAME,
    may_email: bool = False,
    partner_name: str = "",
    partner_nickname: str = "",
    partner_email: str = "",
    partner_phone: str = "",
    partner_listed_as: str = ListedAs.NAME,
    language: str = "id",
    now: Any = None,
) -> tuple[Application, str]:
    """Record an application and issue its private link; returns it and the link's key
    (shown once: only its hash is stored)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    signup = signup_of(tournament=tournament)
    state = signup_state(tournament=tournament, now=now)
    if state not in (SignUpState.OPEN, SignUpState.WAITING_LIST):
        raise ValidationError(signup_state_refusal(state, signup), code=f"signup_{state}")
    name = _clean_text(name, 120)
    nickname = _clean_text(nickname, 60)
    if not name:
        raise ValidationError(_("Please give your full name."), code="name_required")
    if listed_as == ListedAs.NICKNAME and not nickname:
        raise ValidationError(
            _("To be listed by your nickname only, please give a nickname."),
            code="nickname_required",
        )
    if may_email and not email:
        raise ValidationError(
            _("To be emailed, please give your email address."), code="email_required"
        )
    partner_name = _clean_text(partner_name, 120)
    partner_nickname = _clean_text(partner_nickname, 60)
    if tournament.is_partnership_format:
        if not partner_name:
            raise ValidationError(
                _("This tournament is for pairs: please give your partner's full name."),
                code="partner_required",
            )
        if partner_listed_as == ListedAs.NICKNAME and not partner_nickname:
            raise ValidationError(
                _("To list your partner by nickname only, please give the partner's nickname."),
                code="partner_nickname_required",
            )
    else:
        partner_name = partner_nickname = ""
    application = Application(
        tournament=tournament,
        status=Status.WAITING if state == SignUpState.WAITING_LIST else Status.PENDING,
        name=name,
        nickname=nickname,
        email=email.strip(),
        phone=_clean_text(phone, 40),
        club_name=_clean_text(club_name, 120),
        listed_as=listed_as,
        may_email=may_email,
        partner_name=partner_name,
        partner_nickname=partner_nickname,
        partner_listed_as=partner_listed_as,
        language=language[:10],
        player=player_lookup(tournament=tournament, email=email.strip(), phone=phone.strip()),
    )
    if partner_name:
        application.partner = player_lookup(
            tournament=tournament, email=partner_email.strip(), phone=partner_phone.strip()
        )
        if application.partner is not None and application.partner == application.player:
            application.partner = None
    application.full_clean()
    application.save()
    return application, _link_issue(application)


def _link_issue(application: Application) -> str:
    key = secrets.token_urlsafe(KEY_BYTES)
    PlayerLink.objects.create(application=application, key_hash=key_hash(key))
    return key


@transaction.atomic
def player_link_reissue(*, application: Application) -> str:
    """Revoke the application's link (lost or shared) and issue a new one; returns its key."""
    application.links.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
    return _link_issue(application)


def _decide(application: Application, status: str, user: Any) -> None:
    application.status = status
    application.decided_at = timezone.now()
    application.decided_by = user if user is not None and user.is_authenticated else None
    application.save(update_fields=["status", "decided_at", "decided_by", "entry"])


def _player_for(
    tournament: Tournament,
    known: Player | None,
    name: str,
    nickname: str,
    listed_as: str,
    *,
    email: str = "",
    phone: str = "",
    club_name: str = "",
) -> Player:
    if known is not None:
        return known
    # The public pages show the player's name; a nickname-only listing makes the nickname
    # the player's name there, and the full name stays private with the application.
    shown = public_name(name, nickname, listed_as)
    return player_create(
        name=shown,
        nickname="" if shown == nickname else nickname,
        club=club_name,
        email=email,
        phone=phone,
        # A new player's contact details are kept by the host club, as the club rules say.
        home_club=tournament.club,
    )


@transaction.atomic
def application_approve(*, application: Application, user: Any = None) -> Application:
    """Admit the application: the player(s), a partnership for a pair, and the entry,
    created with the league's checks; the entry waits for its player to check in."""
    application = Application.objects.select_for_update().get(pk=application.pk)
    tournament = Tournament.objects.select_for_update().get(pk=application.tournament_id)
    if application.status == Status.APPROVED:
        raise ValidationError(
            _("%(who)s is already approved.") % {"who": application}, code="already_approved"
        )
    signup = signup_of(tournament=tournament)
    cap = signup.cap if signup is not None else None
    if cap is not None and places_taken(tournament=tournament) >= cap:
        raise ValidationError(
            _(
                "Every place is taken (%(cap)d): %(who)s cannot be approved unless a "
                "place frees or you raise the number of places."
            )
            % {"cap": cap, "who": application},
            code="signup_full",
        )
    player = _player_for(
        tournament,
        application.player,
        application.name,
        application.nickname,
        application.listed_as,
        email=application.email,
        phone=application.phone,
        club_name=application.club_name,
    )
    if tournament.is_partnership_format:
        partner = _player_for(
            tournament,
            application.partner,
            application.partner_name,
            application.partner_nickname,
            application.partner_listed_as,
            club_name=application.club_name,
        )
        pair = partnership_create(player_a=player, player_b=partner)
        entry = entry_create(tournament=tournament, partnership=pair)
    else:
        entry = entry_create(tournament=tournament, player=player)
    entry_check_in(entry=entry, checked_in=False)
    application.entry = entry
    _decide(application, Status.APPROVED, user)
    return application


@transaction.atomic
def application_decline(*, application: Application, user: Any = None) -> Application:
    """Turn the application down (an approved one keeps its entry: withdraw that in the
    league instead); the freed place goes to the waiting list."""
    if application.status == Status.APPROVED:
        raise ValidationError(
            _("%(who)s is already approved: withdraw the entry instead.") % {"who": application},
            code="already_approved",
        )
    if application.status == Status.DECLINED:
        return application
    _decide(application, Status.DECLINED, user)
    waiting_list_promote(tournament=application.tournament)
    return application


@transaction.atomic
def waiting_list_promote(*, tournament: Tournament) -> list[Application]:
    """Move the longest-waiting applications before the organiser, as many as there are
    free places (counting those already waiting for approval)."""
    signup = signup_of(tournament=tournament)
    waiting = Application.objects.select_for_update().filter(
        tournament=tournament, status=Status.WAITING
    )
    if signup is None or signup.cap is None:
        free = waiting.count()
    else:
        pending = Application.objects.filter(tournament=tournament, status=Status.PENDING).count()
        free = max(0, signup.cap - places_taken(tournament=tournament) - pending)
    promoted = list(waiting.order_by("created_at", "id")[:free])
    for application in promoted:
        application.status = Status.PENDING
        application.save(update_fields=["status"])
    return promoted


def entrant_check_in(*, application: Application, checked_in: bool = True) -> Entry:
    """Check the application's entry in (or out) for the rounds to come."""
    entry = application.entry
    if application.status != Status.APPROVED or entry is None:
        raise ValidationError(
            _("Your application has not been approved yet: check-in opens once it is."),
            code="not_approved",
        )
    return entry_check_in(entry=entry, checked_in=checked_in)


@transaction.atomic
def signup_save(*, signup: SignUp) -> SignUp:
    """Save a tournament's sign-up settings; a raised cap admits the waiting list."""
    signup.full_clean()
    signup.save()
    waiting_list_promote(tournament=signup.tournament)
    return signup
