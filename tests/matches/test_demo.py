"""``manage.py demo`` builds two realistic clubs whose every match the engine has checked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client

from allfives import check
from entrants.models import SignUp
from entrants.selectors import SignUpState, signup_state
from league import policy
from league.models import Club, Membership, Partnership, Player, Round, Season, Table, Tournament
from matches.models import Match
from matches.selectors import match_document

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The demo, built once for this module inside a transaction that is rolled back
    after it: each test runs in a savepoint of its own on top of it."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            call_command("demo", seed=7)
            yield
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def test_demo_creates_a_club_with_finished_and_running_tournaments() -> None:
    assert Player.objects.count() == 40
    assert Partnership.objects.count() == 8
    assert Season.objects.filter(status=Season.Status.RUNNING).count() == 2  # one per club
    statuses = sorted(Tournament.objects.values_list("status", flat=True))
    assert statuses == ["finished", "finished", "registration", "running"]
    running = Tournament.objects.get(status=Tournament.Status.RUNNING)
    assert running.rounds.get(number=2).status == Round.Status.PUBLISHED
    assert running.rounds.get(number=2).tables.filter(status=Table.Status.PLAYING).exists()
    User = get_user_model()
    organiser = User.objects.get(username="organiser")
    assert organiser.check_password("kelipatan-demo")
    home = Club.objects.get(slug="klub-domino-sejahtera")
    assert set(organiser.organised_tournaments.all()) == set(home.tournaments.all())

    # Every stored match replays cleanly through the engine, and finished ones are won.
    for match in Match.objects.all():
        verdict = check(match_document(match=match))
        assert verdict["ok"] is True, verdict
        assert verdict["finished"] == (match.table.status == Table.Status.FINISHED)


def test_demo_if_empty_does_nothing_the_second_time() -> None:
    players = Player.objects.count()
    call_command("demo", seed=7, if_empty=True)
    assert Player.objects.count() == players


def test_demo_has_two_clubs_each_with_an_organiser_and_an_inter_club_tournament() -> None:
    # Given the demo
    User = get_user_model()
    home = Club.objects.get(slug="klub-domino-sejahtera")
    away = Club.objects.get(slug="spinner-malang")
    organisers = {
        club.slug: User.objects.get(
            club_memberships__club=club, club_memberships__role=Membership.Role.ORGANISER
        )
        for club in (home, away)
    }
    # Then each club has its organiser, who can sign in with the printed password
    assert organisers == {
        "klub-domino-sejahtera": User.objects.get(username="organiser"),
        "spinner-malang": User.objects.get(username="organiser-malang"),
    }
    assert all(u.check_password("kelipatan-demo") and u.is_staff for u in organisers.values())
    # And the running tournament of the home club has visiting players from Malang
    inter = Tournament.objects.get(status=Tournament.Status.RUNNING)
    assert inter.club == home and inter.accepts_visitors
    visitors = Player.objects.filter(memberships__tournament=inter, home_club=away)
    assert visitors.count() == 4
    # And the host's organiser sees no visitor's contact details; Malang's sees them all
    host_sees = policy.players_with_contact_for(user=organisers["klub-domino-sejahtera"])
    away_sees = policy.players_with_contact_for(user=organisers["spinner-malang"])
    assert not host_sees.filter(pk__in=visitors).exists()
    assert away_sees.filter(pk__in=visitors).count() == 4
    assert set(home.players.all()) == set(host_sees)
    # And Malang runs its own season on its copy of the Pagat rule set
    assert away.seasons.get().rule_set.club == away


def test_demo_malang_tournament_takes_sign_ups_from_the_home_page() -> None:
    # Given the demo
    cup = Tournament.objects.get(name="Malam Domino Malang")
    # Then its sign-up is open with places free, so the tournament takes applications
    signup = SignUp.objects.get(tournament=cup)
    assert signup.is_open and signup.cap == 16
    assert signup_state(tournament=cup) == SignUpState.OPEN
    # And the home page lists it under "Menerima pendaftaran", linked to its page,
    # whose "Daftar" button leads to the sign-up form
    home = Client().get("/").content.decode()
    section = home.split('<section aria-labelledby="signups-h">', 1)[1].split("</section>", 1)[0]
    assert "Menerima pendaftaran" in section
    assert f'<a href="{cup.get_absolute_url()}">Malam Domino Malang</a>' in section
    page = Client().get(cup.get_absolute_url()).content.decode()
    assert 'data-testid="signup-link">Daftar</a>' in page
