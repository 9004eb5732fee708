"""Corrections: editing or deleting an earlier hand replays the whole match, keeps the
history (who, when, before, after), and a finished match reopens only for an organiser."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league.models import Table, TableResult
from matches.models import Hand, Match
from tests.matches.sheets import (
    HAND_1,
    HAND_2,
    MATCH_TO_50,
    client_for,
    match_url,
    new_match,
    record_all,
    tally,
)

pytestmark = pytest.mark.django_db


def correct(client: APIClient, match: dict[str, Any], number: int, hand: dict[str, Any]) -> Any:
    return client.put(
        match_url(match["id"], f"hands/{number}"),
        {"version": match["version"], "hand": hand},
        format="json",
    )


def test_correcting_an_earlier_hand_replays_the_totals(api: APIClient, table: Table) -> None:
    # given two hands recorded
    match = record_all(api, new_match(api, table), [HAND_1, HAND_2])
    assert match["totals"] == {"0": 45, "1": 15}
    # when hand 1's first play is corrected from 10 to 5 points
    fixed = {**HAND_1, "scores": [[0, 5], [1, 5]]}
    response = correct(api, match, 1, fixed)
    # then the whole match is replayed with it
    assert response.status_code == 200, response.content
    state = response.json()
    assert state["totals"] == {"0": 40, "1": 15}
    assert state["hands"][1]["totals"] == {"0": 40, "1": 15}
    assert Hand.objects.get(match_id=match["id"], number=1).entry == fixed


def test_a_correction_that_makes_a_later_hand_impossible_is_refused_with_the_reason(
    api: APIClient, table: Table
) -> None:
    match = record_all(api, new_match(api, table), [HAND_1, HAND_2])
    # seat 1, not seat 2, going out in hand 1 would make hand 2's leader (seat 2) wrong (R21)
    wrong = {**HAND_1, "end": {"domino": 1}, "left": {"0": 7, "1": 0, "2": 8, "3": 6}}
    response = correct(api, match, 1, wrong)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["hand"]) == ("wrong_leader", 1)
    assert Hand.objects.get(match_id=match["id"], number=1).entry == HAND_1
    assert Match.objects.get(pk=match["id"]).version == match["version"]


def test_every_change_is_kept_with_who_when_before_and_after(api: APIClient, table: Table) -> None:
    match = record_all(api, new_match(api, table), [HAND_1, HAND_2])
    fixed = {**HAND_1, "scores": [[0, 5], [1, 5]]}
    correct(api, match, 1, fixed)
    history = api.get(match_url(match["id"], "history")).json()
    changes = [c for c in history if c["object"] == "hand" and c["hand"] == 1]
    assert [c["action"] for c in changes] == ["created", "changed"]
    assert changes[-1]["user"] == "scorekeeper"
    assert changes[-1]["before"]["entry"] == HAND_1
    assert changes[-1]["after"]["entry"] == fixed
    assert changes[-1]["at"]


def test_deleting_a_hand_renumbers_the_later_ones_and_replays(api: APIClient, table: Table) -> None:
    # hand 2 led by seat 2 again is fine after deleting hand 2 of three
    hand_3 = tally(1, [[1, 5]], {"domino": 3}, {"0": 4, "1": 9, "2": 2, "3": 0})
    match = record_all(api, new_match(api, table), [HAND_1, HAND_2, hand_3])
    response = api.delete(match_url(match["id"], f"hands/3?version={match['version']}"))
    assert response.status_code == 200, response.content
    state = response.json()
    assert state["hands_count"] == 2
    assert state["totals"] == {"0": 45, "1": 15}
    assert list(Hand.objects.filter(match_id=match["id"]).values_list("number", flat=True)) == [
        1,
        2,
    ]


def test_deleting_a_hand_a_later_one_depends_on_is_refused(api: APIClient, table: Table) -> None:
    match = record_all(api, new_match(api, table), [HAND_1, HAND_2])
    # without hand 1 the match would open with hand 2, led by seat 2: fine by lot,
    # but hand 2 then is hand 1 — a deletion in the middle shifts who must lead.
    hand_3 = tally(1, [[1, 5]], {"domino": 3}, {"0": 4, "1": 9, "2": 2, "3": 0})
    match = record_all(api, match, [hand_3])
    response = api.delete(match_url(match["id"], f"hands/2?version={match['version']}"))
    # hand 3 (led by seat 1) would follow hand 1, where seat 2 went out (R21)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "wrong_leader"
    assert Hand.objects.filter(match_id=match["id"]).count() == 3


def test_a_finished_match_cannot_be_corrected_until_reopened(api: APIClient, table: Table) -> None:
    match = record_all(api, new_match(api, table), MATCH_TO_50)
    response = correct(api, match, 1, HAND_1)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "match_finished"


def test_only_an_organiser_may_reopen_a_finished_match(
    api: APIClient, table: Table, organiser: Any
) -> None:
    match = record_all(api, new_match(api, table), MATCH_TO_50)
    by_scorekeeper = api.post(
        match_url(match["id"], "reopen"), {"version": match["version"]}, format="json"
    )
    assert by_scorekeeper.status_code == 403
    assert TableResult.objects.filter(table=table).exists()
    by_organiser = client_for(organiser).post(
        match_url(match["id"], "reopen"), {"version": match["version"]}, format="json"
    )
    assert by_organiser.status_code == 200, by_organiser.content
    assert by_organiser.json()["status"] == "playing"
    assert not TableResult.objects.filter(table=table).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_a_correction_after_reopening_records_the_changed_result_again(
    api: APIClient, table: Table, organiser: Any
) -> None:
    # given a finished match reopened by its organiser
    match = record_all(api, new_match(api, table), MATCH_TO_50)
    match = (
        client_for(organiser)
        .post(match_url(match["id"], "reopen"), {"version": match["version"]}, format="json")
        .json()
    )
    # when hand 2's side-1 play is corrected from 5 to 10
    fixed = {**HAND_2, "scores": [[2, 20], [3, 10]]}
    response = correct(api, match, 2, fixed)
    # then the match is finished again and league holds the new figures
    assert response.status_code == 200, response.content
    state = response.json()
    assert state["status"] == "finished"
    assert state["totals"] == {"0": 50, "1": 25}
    sides = {s.side: s.points_x2 for s in TableResult.objects.get(table=table).sides.all()}
    assert sides == {0: 100, 1: 50}


def test_an_unchanged_reopened_match_can_be_finished_again(
    api: APIClient, table: Table, organiser: Any
) -> None:
    match = record_all(api, new_match(api, table), MATCH_TO_50)
    match = (
        client_for(organiser)
        .post(match_url(match["id"], "reopen"), {"version": match["version"]}, format="json")
        .json()
    )
    response = api.post(
        match_url(match["id"], "finish"), {"version": match["version"]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "finished"
    assert TableResult.objects.filter(table=table).exists()


def test_finishing_a_match_nobody_has_won_is_refused(api: APIClient, table: Table) -> None:
    match = record_all(api, new_match(api, table), [HAND_1])
    response = api.post(
        match_url(match["id"], "finish"), {"version": match["version"]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "match_not_over"
