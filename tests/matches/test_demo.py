"""``manage.py demo`` builds a realistic club whose every match the engine has checked."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from allfives import check
from league.models import Partnership, Player, Round, Season, Table, Tournament
from matches.models import Match
from matches.selectors import match_document

pytestmark = pytest.mark.django_db


def test_demo_creates_a_club_with_finished_and_running_tournaments() -> None:
    call_command("demo", seed=7)

    assert Player.objects.count() == 40
    assert Partnership.objects.count() == 8
    assert Season.objects.filter(status=Season.Status.RUNNING).count() == 1
    statuses = sorted(Tournament.objects.values_list("status", flat=True))
    assert statuses == ["finished", "finished", "running"]
    running = Tournament.objects.get(status=Tournament.Status.RUNNING)
    assert running.rounds.get(number=2).status == Round.Status.PUBLISHED
    assert running.rounds.get(number=2).tables.filter(status=Table.Status.PLAYING).exists()
    User = get_user_model()
    organiser = User.objects.get(username="organiser")
    assert organiser.check_password("kelipatan-demo")
    assert set(organiser.organised_tournaments.all()) == set(Tournament.objects.all())

    # Every stored match replays cleanly through the engine, and finished ones are won.
    for match in Match.objects.all():
        verdict = check(match_document(match=match))
        assert verdict["ok"] is True, verdict
        assert verdict["finished"] == (match.table.status == Table.Status.FINISHED)


def test_demo_if_empty_does_nothing_the_second_time() -> None:
    call_command("demo", seed=7)
    players = Player.objects.count()
    call_command("demo", seed=7, if_empty=True)
    assert Player.objects.count() == players
