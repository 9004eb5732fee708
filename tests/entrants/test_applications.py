"""Applying, approving, declining, the waiting list and check-in, through the services."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone, translation

from entrants.models import Application, SignUp
from entrants.selectors import (
    SignUpState,
    player_link_application,
    signup_state,
    signups_open_public,
)
from entrants.services.applications import (
    application_approve,
    application_decline,
    application_submit,
    entrant_check_in,
    player_link_reissue,
    waiting_list_promote,
)
from league.models import Entry, Tournament
from league.services.registration import entry_withdraw
from tests.entrants.conftest import open_tournament
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_an_application_waits_for_approval_and_its_link_finds_it() -> None:
    tournament = open_tournament()
    application, key = application_submit(tournament=tournament, name="Budi Santoso")
    assert application.status == Application.Status.PENDING
    assert player_link_application(key=key) == application
    assert not Entry.objects.filter(tournament=tournament).exists()
    # only the key's hash is stored
    assert key not in application.links.get().key_hash


def test_approval_creates_the_player_and_an_entry_not_yet_checked_in() -> None:
    tournament = open_tournament()
    organiser = UserFactory()
    application, _key = application_submit(
        tournament=tournament, name="Budi Santoso", nickname="Bud", email="budi@example.com"
    )
    application = application_approve(application=application, user=organiser)
    entry = application.entry
    assert entry is not None and entry.tournament == tournament
    assert entry.player is not None and entry.player.name == "Budi Santoso"
    assert entry.player.home_club == tournament.club
    assert not entry.is_checked_in
    assert application.decided_by == organiser
    entrant_check_in(application=application)
    entry.refresh_from_db()
    assert entry.is_checked_in


def test_a_nickname_only_listing_keeps_the_full_name_private() -> None:
    tournament = open_tournament()
    application, _key = application_submit(
        tournament=tournament, name="Budi Santoso", nickname="Si Raja", listed_as="nickname"
    )
    entry = application_approve(application=application).entry
    assert entry is not None and entry.player is not None
    assert entry.player.name == "Si Raja" and "Budi" not in str(entry.player)
    assert Application.objects.get(pk=application.pk).name == "Budi Santoso"


def test_the_private_lookup_links_the_club_record_without_saying_so() -> None:
    tournament = open_tournament()
    known = PlayerFactory(name="Siti", email="siti@example.com", home_club=tournament.club)
    application, _key = application_submit(
        tournament=tournament, name="Siti Aminah", email="SITI@example.com"
    )
    assert application.player == known
    entry = application_approve(application=application).entry
    assert entry is not None and entry.player == known


def test_a_pair_applies_for_a_partnership_event() -> None:
    tournament = open_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(
        format=Tournament.Format.FIXED_PARTNERSHIP, table_size=Tournament.TableSize.FOUR
    )
    tournament.refresh_from_db()
    with pytest.raises(ValidationError) as refused:
        application_submit(tournament=tournament, name="Budi")
    assert refused.value.code == "partner_required"
    application, _key = application_submit(tournament=tournament, name="Budi", partner_name="Ani")
    entry = application_approve(application=application).entry
    assert entry is not None and entry.partnership is not None
    assert {p.name for p in entry.partnership.players} == {"Budi", "Ani"}


@pytest.mark.parametrize(
    ("signup", "state", "message"),
    [
        ({"is_open": False}, SignUpState.NOT_OFFERED, "This tournament does not take sign-ups."),
        (
            {"closes_at": timezone.now() - timedelta(hours=1)},
            SignUpState.CLOSED,
            "Sign-up is closed.",
        ),
        (
            {"cap": 1, "has_waiting_list": False},
            SignUpState.FULL,
            "Sign-up is full: every place is taken.",
        ),
    ],
)
def test_a_closed_or_full_sign_up_refuses_with_a_clear_message(
    signup: dict[str, object], state: SignUpState, message: str
) -> None:
    tournament = open_tournament(**signup)
    EntryFactory(tournament=tournament)
    assert signup_state(tournament=tournament) == state
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        application_submit(tournament=tournament, name="Budi")
    assert refused.value.messages == [message]
    assert not Application.objects.exists()


def test_the_tournaments_taking_sign_ups_are_the_public_ones_open_now_with_a_place_free(
    django_assert_num_queries: Any,
) -> None:
    # Given an open sign-up with a place free, one with no cap, and a running tournament
    # whose sign-up is open with a withdrawn entry not holding a place
    now = timezone.now()
    free = open_tournament(cap=2)
    EntryFactory(tournament=free)
    _with_signup("Piala Tanpa Batas", starts_on=now.date() + timedelta(days=30))
    running = _with_signup("Piala Berjalan", status=Tournament.Status.RUNNING, cap=1)
    entry_withdraw(entry=EntryFactory(tournament=running))
    # And sign-ups that are not open now: offered but switched off, closed, not yet open,
    # full, full with a waiting list, of a draft tournament and of a finished one
    _with_signup("Piala Tertutup", is_open=False)
    _with_signup("Piala Lewat", closes_at=now - timedelta(hours=1))
    _with_signup("Piala Nanti", opens_at=now + timedelta(days=1))
    for name, waiting in (("Piala Penuh", False), ("Piala Antre", True)):
        full = _with_signup(name, cap=1, has_waiting_list=waiting)
        EntryFactory(tournament=full)
    _with_signup("Piala Draf", status=Tournament.Status.DRAFT)
    _with_signup("Piala Selesai", status=Tournament.Status.FINISHED)
    # And a tournament with no sign-up at all
    TournamentFactory(name="Piala Undangan", status=Tournament.Status.REGISTRATION)

    # When the public tournaments taking sign-ups are listed
    with django_assert_num_queries(1):
        found = signups_open_public(now=now)

    # Then only the open ones with a place free are, the dated first, then by name
    assert [t.name for t in found] == ["Piala Tanpa Batas", "Piala Berjalan", "Piala Terbuka"]
    # And each agrees with the tournament's own sign-up state
    assert all(signup_state(tournament=t, now=now) == SignUpState.OPEN for t in found)


def test_a_sign_up_not_open_yet_says_when_it_opens_in_indonesian() -> None:
    opens = timezone.now() + timedelta(days=2)
    tournament = open_tournament(opens_at=opens)
    with translation.override("id"), pytest.raises(ValidationError) as refused:
        application_submit(tournament=tournament, name="Budi")
    assert refused.value.messages[0].startswith("Pendaftaran dibuka pada ")
    assert timezone.localtime(opens).strftime("%d-%m-%Y") in refused.value.messages[0]


def test_a_full_sign_up_with_a_waiting_list_waits_and_moves_up_when_a_place_frees() -> None:
    tournament = open_tournament(cap=1)
    first, _key = application_submit(tournament=tournament, name="Budi")
    second, _key = application_submit(tournament=tournament, name="Siti")
    first = application_approve(application=first)
    third, _key = application_submit(tournament=tournament, name="Eko")
    assert third.status == Application.Status.WAITING
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        application_approve(application=second)
    assert "Every place is taken (1)" in refused.value.messages[0]
    application_decline(application=second)
    # the place is still taken by Budi: Eko waits on
    assert Application.objects.get(pk=third.pk).status == Application.Status.WAITING
    assert first.entry is not None
    entry_withdraw(entry=first.entry)
    assert waiting_list_promote(tournament=tournament) == [third]
    assert Application.objects.get(pk=third.pk).status == Application.Status.PENDING


def test_check_in_before_approval_is_refused_clearly() -> None:
    tournament = open_tournament()
    application, _key = application_submit(tournament=tournament, name="Budi")
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        entrant_check_in(application=application)
    assert refused.value.code == "not_approved"
    assert "not been approved yet" in refused.value.messages[0]


def test_a_reissued_link_replaces_the_old_one() -> None:
    tournament = open_tournament()
    application, old = application_submit(tournament=tournament, name="Budi")
    new = player_link_reissue(application=application)
    assert player_link_application(key=old) is None
    assert player_link_application(key=new) == application


def test_mail_consent_needs_an_email() -> None:
    tournament = open_tournament()
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        application_submit(tournament=tournament, name="Budi", may_email=True)
    assert refused.value.code == "email_required"


def _with_signup(
    name: str, *, status: str = Tournament.Status.REGISTRATION, **signup: Any
) -> Tournament:
    """A tournament named ``name`` with a sign-up (open unless ``is_open`` says not)."""
    tournament = TournamentFactory(
        name=name, status=status, starts_on=signup.pop("starts_on", None)
    )
    SignUp.objects.create(**{"tournament": tournament, "is_open": True, **signup})
    return tournament
