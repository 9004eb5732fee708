"""Pairing in the organisers' admin: the action enqueues the task after commit, the round's
page shows progress, quality report, costs and warnings, and other organisers are kept out."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import Round, Seat, Tournament
from league.roles import ORGANISERS_GROUP
from league.services.rounds import round_create, round_publish
from pairing.services.pairing import round_pair
from pairing.services.progress import round_pair_progress
from pairing.tasks import round_pair_task
from tests.factories import UserFactory
from tests.pairing.conftest import seating, tournament_with_entries

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


def _organiser_of(client: Client, tournament: Tournament, username: str = "org") -> Any:
    user = UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    tournament.organisers.add(user)
    client.force_login(user)
    return user


def test_pair_action_enqueues_the_task_after_commit_and_pairs_the_round(
    client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    # Given an organiser and a draft round of their six-player Swiss
    tournament = tournament_with_entries(6)
    _organiser_of(client, tournament)
    round = round_create(tournament=tournament)
    # When they run "Pair this round" on it
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("admin:league_round_changelist"),
            {"action": "pair", "_selected_action": [str(round.pk)]},
            follow=True,
        )
    # Then one task waits for the commit, the round shows as queued, nothing is paired yet
    assert response.status_code == 200
    assert len(callbacks) == 1
    assert round_pair_progress(round_id=round.pk)["state"] == "queued"
    assert round.tables.count() == 0
    # And once the transaction commits, the task pairs the round
    callbacks[0]()
    assert len(seating(round)) == 3
    assert round_pair_progress(round_id=round.pk)["state"] == "done"


def test_pair_action_refuses_a_published_round(
    client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    # Given a published round
    tournament = tournament_with_entries(4)
    _organiser_of(client, tournament)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    round_publish(round=round)
    # When "Pair this round" is run on it, then it is refused and nothing is enqueued
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("admin:league_round_changelist"),
            {"action": "pair", "_selected_action": [str(round.pk)]},
            follow=True,
        )
    assert callbacks == []
    assert "draft" in response.text


def test_round_page_shows_quality_report_costs_warnings_and_a_progress_bar(
    client: Client,
) -> None:
    # Given a paired draft round in which the organiser seated one player twice
    tournament = tournament_with_entries(4)
    _organiser_of(client, tournament)
    round = round_create(tournament=tournament)
    round_pair_task.delay(round.pk, 1)
    (a, _b), (c, _d) = seating(round)
    seat_a = Seat.objects.get(table__round=round, entry_id=a)
    Seat.objects.filter(table__round=round, entry_id=c).update(
        entry_id=a, player_id=seat_a.player_id
    )
    # When they open the round's page
    with translation.override("en"):  # the English admin, whose text the test reads
        response = client.get(reverse("admin:league_round_change", args=[round.pk]))
    # Then it shows the pairing panel: the report, each table's cost and the warnings
    text = response.text
    assert response.status_code == 200
    assert 'id="pairing-progress"' in text
    assert '<progress max="6" value="6"' in text
    assert "vendor/htmx.min.js" in text
    assert "Quality report" in text and "Largest score gap" in text
    assert 'class="pairing-tables"' in text and "Score gap" in text
    assert 'data-code="player_twice"' in text
    assert 'data-code="unseated"' in text


@pytest.mark.parametrize(("count", "off_partner", "off_opponent"), [(8, "0", "0"), (7, "7", "7")])
def test_round_page_shows_how_far_the_whist_schedule_strays(
    client: Client, count: int, off_partner: str, off_opponent: str
) -> None:
    # Given a rotating-partner tournament paired from the whist: Wh(8) itself for eight
    # players, Wh(8) with one seat empty for seven (each round one pair loses its
    # partnership at the three-handed table)
    tournament = tournament_with_entries(
        count,
        format=Tournament.Format.ROTATING_PARTNER,
        table_size=Tournament.TableSize.MIXED,
        allow_byes=False,
    )
    _organiser_of(client, tournament)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    # When the organiser opens the round's page
    with translation.override("en"):
        text = client.get(reverse("admin:league_round_change", args=[round.pk])).text
    # Then the quality report gives the whole schedule's pairs off partner-once, oppose-twice
    assert ("Whist schedule: pairs not partners once</th><td>" + off_partner + "</td>") in text
    assert ("Whist schedule: pairs not opponents twice</th><td>" + off_opponent + "</td>") in text
    # and in Indonesian with its own words
    with translation.override("id"):
        text = client.get(reverse("admin:league_round_change", args=[round.pk])).text
    assert "Jadwal whist: pasang pemain yang tidak berpasangan tepat sekali" in text
    assert "Whist schedule" not in text


def test_progress_fragment_polls_while_queued_and_asks_for_a_reload_when_done(
    client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    # Given a round whose pairing has been requested
    tournament = tournament_with_entries(4)
    _organiser_of(client, tournament)
    round = round_create(tournament=tournament)
    url = reverse("admin:league_round_pairing_progress", args=[round.pk])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        client.post(reverse("admin:league_round_pairing_run", args=[round.pk]), {"seed": "12"})
    # When htmx polls while it is queued, then the fragment keeps polling
    queued = client.get(url, headers={"HX-Request": "true"})
    assert f'hx-get="{url}"' in queued.text
    assert "HX-Refresh" not in queued
    # And when the task has run, the fragment stops polling and asks for a reload
    for callback in callbacks:
        callback()
    done = client.get(url, headers={"HX-Request": "true"})
    assert "hx-get" not in done.text
    assert done["HX-Refresh"] == "true"
    round.refresh_from_db()
    assert round.pairing_seed == 12


def test_organiser_of_another_tournament_cannot_pair_or_watch_the_round(
    client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    # Given a draft round of a tournament someone else organises
    mine = tournament_with_entries(2)
    _organiser_of(client, mine)
    theirs = tournament_with_entries(4)
    round = round_create(tournament=theirs)
    # When I try to pair it or watch it, then I am refused and nothing is enqueued
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run = client.post(reverse("admin:league_round_pairing_run", args=[round.pk]))
        client.post(
            reverse("admin:league_round_changelist"),
            {"action": "pair", "_selected_action": [str(round.pk)]},
        )
    progress = client.get(reverse("admin:league_round_pairing_progress", args=[round.pk]))
    assert run.status_code in (403, 404)
    assert progress.status_code in (403, 404)
    assert callbacks == []
    assert Round.objects.get(pk=round.pk).tables.count() == 0
