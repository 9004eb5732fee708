"""Only a published round's tables are scored, and re-pairing never deletes a recorded
hand: a round with hands recorded is refused (naming the tables) until the organiser
voids those matches explicitly, which the history keeps."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import Round
from league.services.rounds import round_create
from matches.models import Hand, Match
from matches.services.hands import hand_record
from matches.services.lifecycle import match_for_table, match_import, match_void
from pairing.services.pairing import round_pair
from tests.matches.conftest import TableMaker
from tests.matches.sheets import HAND_1, HAND_2
from tests.pairing.conftest import tournament_with_entries

pytestmark = pytest.mark.django_db


def _draft(table: Any) -> None:
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.DRAFT)
    table.round.refresh_from_db()


def test_a_draft_rounds_table_refuses_a_hand(make_table: TableMaker, scorekeeper: Any) -> None:
    # given a table of a round that is still a draft
    table = make_table()
    _draft(table)
    match = match_for_table(table=table)
    # when its scorekeeper records a hand, then it is refused with the reason
    with translation.override("id"), pytest.raises(ValidationError) as refused:
        hand_record(match=match, number=1, hand=HAND_1, version=match.version, user=scorekeeper)
    assert refused.value.code == "round_not_published"
    assert "draf" in refused.value.messages[0]
    assert not Hand.objects.exists()


def test_a_draft_rounds_table_page_says_why_it_cannot_be_scored(
    make_table: TableMaker, scorekeeper: Any
) -> None:
    table = make_table()
    _draft(table)
    client = Client()
    client.force_login(scorekeeper)
    response = client.get(reverse("matches:table_scorekeeper", args=[table.pk]))
    assert response.status_code == 403
    html = response.content.decode()
    assert "masih draf" in html
    assert not Match.objects.exists()  # nothing was created for the draft


def test_a_closed_rounds_match_refuses_a_hand(make_table: TableMaker, scorekeeper: Any) -> None:
    table = make_table()
    match = match_for_table(table=table)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.FINISHED)
    match.table.round.refresh_from_db()  # type: ignore[union-attr]
    with pytest.raises(ValidationError) as refused:
        hand_record(match=match, number=1, hand=HAND_1, version=match.version, user=scorekeeper)
    assert refused.value.code == "round_closed"


def _draft_round_with_hands() -> tuple[Round, list[Match]]:
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    tables = list(round.tables.order_by("number"))
    matches = []
    for table in tables:
        # Hands in a draft round (recorded before scoring waited for publication).
        matches.append(
            match_import(
                table=table,
                user=None,
                document={"format": "allfives/1", "players": 2, "hands": []},
            )
        )
    return round, matches


def test_re_pairing_a_round_with_hands_recorded_is_refused_naming_the_tables() -> None:
    # given a draft round whose table 2 has a hand recorded
    round, matches = _draft_round_with_hands()
    second = matches[1]
    Hand.objects.create(
        match=second, number=1, mode="tally", entry={}, leader=0, end="domino"
    )  # what an earlier version let a scorekeeper store
    # when it is paired again, then it is refused and the hand is still there
    with translation.override("id"), pytest.raises(ValidationError) as refused:
        round_pair(round=round, seed=2)
    assert refused.value.code == "hands_recorded"
    assert "meja 2" in refused.value.messages[0]
    assert Hand.objects.filter(match=second).count() == 1
    assert Match.objects.filter(pk=second.pk).exists()


def test_after_the_organiser_voids_the_matches_the_round_pairs_and_the_history_keeps_them(
    organiser: Any,
) -> None:
    # given a draft round with a hand recorded, organised by ``organiser``
    round, matches = _draft_round_with_hands()
    round.tournament.organisers.add(organiser)
    first = matches[0]
    hand = Hand.objects.create(
        match=first, number=1, mode="tally", entry={}, leader=0, end="domino"
    )
    # when the organiser voids that match and the round is paired again
    match_void(match=first, user=organiser)
    round_pair(round=round, seed=2)
    # then the round has fresh tables and the voided hand is in the history
    assert round.tables.count() == 2
    voided = Hand.history.filter(id=hand.pk, history_type="-").get()
    assert voided.history_change_reason == "voided"
    assert voided.history_user == organiser
    assert Match.history.filter(id=first.pk, history_change_reason="voided").exists()


def test_a_scorekeeper_may_not_void_a_match(make_table: TableMaker, scorekeeper: Any) -> None:
    match = match_for_table(table=make_table())
    with pytest.raises(PermissionDenied):
        match_void(match=match, user=scorekeeper)
    assert Match.objects.filter(pk=match.pk).exists()


def test_re_pairing_a_round_without_hands_still_works() -> None:
    round, _matches = _draft_round_with_hands()
    round_pair(round=round, seed=5)
    assert round.tables.count() == 2
    assert HAND_2  # the shared sheets stay importable for the other tests
