"""Finishing a tournament: once every round is closed, from the desk, and by the same
rule from the admin and the API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from knockout.services import bracket_create
from league.models import Round, Tournament
from league.services.records import tournament_update
from league.services.rounds import round_create, tournament_finish
from tests.factories import RoundFactory
from tests.league.test_admin_services import _form_data

pytestmark = pytest.mark.django_db


def _rounds(tournament: Tournament, *statuses: str) -> None:
    for number, status in enumerate(statuses, start=1):
        RoundFactory(tournament=tournament, number=number, status=status)


def _status(tournament: Tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).status


def test_a_tournament_finishes_only_once_every_round_is_closed(tournament: Tournament) -> None:
    # given round 1 closed, round 2 still being played and round 3 a draft
    _rounds(tournament, Round.Status.FINISHED, Round.Status.PUBLISHED, Round.Status.DRAFT)
    # when it is finished, then it is refused, each open round named with what to do
    with pytest.raises(ValidationError) as refused:
        tournament_finish(tournament=tournament)
    assert refused.value.messages == [
        "Putaran 2 masih dimainkan: tutup dulu putaran itu.",
        "Putaran 3 masih draf: hapus, atau mainkan lalu tutup, dulu.",
    ]
    # and changing its status to finished (the admin's and the API's path) is refused alike
    with pytest.raises(ValidationError) as updated:
        tournament_update(tournament=tournament, fields={"status": Tournament.Status.FINISHED})
    assert updated.value.messages == refused.value.messages
    assert _status(tournament) == Tournament.Status.RUNNING
    # once every round is closed it finishes, and only once
    Round.objects.filter(tournament=tournament).update(status=Round.Status.FINISHED)
    assert tournament_finish(tournament=tournament).status == Tournament.Status.FINISHED
    with pytest.raises(ValidationError) as again:
        tournament_finish(tournament=tournament)
    assert again.value.messages == ["Turnamen sudah selesai."]


def test_the_desk_offers_to_finish_the_tournament_after_its_last_round(
    desk: Client, tournament: Tournament
) -> None:
    # given every round of the tournament played and closed
    Tournament.objects.filter(pk=tournament.pk).update(rounds_count=2)
    _rounds(tournament, Round.Status.FINISHED, Round.Status.FINISHED)
    page = desk.get(reverse("desk:desk", args=[tournament.slug])).content.decode()
    assert 'data-testid="finish"' in page and "Selesaikan turnamen" in page
    # when the organiser presses it, then the tournament is finished and the desk says so
    response = desk.post(reverse("desk:finish", args=[tournament.slug]), follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == [f"{tournament.name} sudah selesai: klasemennya final."]
    assert _status(tournament) == Tournament.Status.FINISHED
    page = response.content.decode()
    assert 'data-testid="tournament-finished"' in page and 'data-testid="finish"' not in page
    # and no late arrival is offered any more
    assert 'data-testid="entry-add"' not in page


def test_the_admin_and_the_api_refuse_to_finish_a_tournament_with_a_round_open(
    organiser: Any, tournament: Tournament
) -> None:
    # given round 1 still being played
    _rounds(tournament, Round.Status.PUBLISHED)
    # when the organiser sets the tournament finished in the admin
    admin = Client()
    admin.force_login(organiser)
    url = reverse("admin:league_tournament_change", args=[tournament.pk])
    data = _form_data(admin.get(url))
    data["status"] = Tournament.Status.FINISHED
    response = admin.post(url, data)
    # then the form comes back with the rule's refusal
    assert response.status_code == 200
    assert response.context["errors"], "the form was refused for another reason"
    assert "Putaran 1 masih dimainkan: tutup dulu putaran itu." in response.content.decode()
    assert _status(tournament) == Tournament.Status.RUNNING
    # and through the API alike
    api = APIClient()
    api.force_authenticate(organiser)
    patched = api.patch(f"/api/tournaments/{tournament.pk}/", {"status": "finished"}, format="json")
    assert patched.status_code == 400
    assert "Putaran 1 masih dimainkan: tutup dulu putaran itu." in json.dumps(
        patched.json(), ensure_ascii=False
    )
    assert _status(tournament) == Tournament.Status.RUNNING


def test_a_finished_tournament_takes_no_new_round_until_it_is_reopened(
    desk: Client, tournament: Tournament
) -> None:
    # given a finished tournament of three rounds with one played
    _rounds(tournament, Round.Status.FINISHED)
    tournament_finish(tournament=tournament)
    # when a round is added, by the service the desk, the admin and the API use, or by
    # the knockout's next round, then it is refused, saying how to go on
    with pytest.raises(ValidationError) as refused:
        round_create(tournament=tournament)
    assert refused.value.messages == [
        "Turnamen sudah selesai: buka kembali di pengaturannya untuk menambah putaran."
    ]
    with pytest.raises(ValidationError):
        bracket_create(tournament=Tournament.objects.get(pk=tournament.pk), source="ratings")
    assert tournament.rounds.count() == 1
    # and once reopened in its settings, round 2 can be added
    reopened = tournament_update(
        tournament=Tournament.objects.get(pk=tournament.pk),
        fields={"status": Tournament.Status.RUNNING},
    )
    assert round_create(tournament=reopened).number == 2
