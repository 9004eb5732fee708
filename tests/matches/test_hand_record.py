"""Recording hands through the API: the engine's verdict is stored, refusals store nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league.models import Table, TableResult
from matches.models import Hand, HandEvent, Match
from tests.matches.sheets import (
    HAND_1,
    HAND_2,
    MATCH_TO_50,
    client_for,
    match_url,
    new_match,
    record,
    record_all,
    tally,
)

pytestmark = pytest.mark.django_db


def test_hand_record_stores_the_entry_as_typed_and_the_engines_verdict(
    api: APIClient, table: Table
) -> None:
    # given a new match at a four-player table
    match = new_match(api, table)
    # when the first hand is recorded
    response = record(api, match, HAND_1)
    # then the totals are the engine's, in exact half-points, and the entry is kept verbatim
    assert response.status_code == 201, response.content
    state = response.json()
    assert state["totals"] == {"0": 25, "1": 5}
    assert state["totals_x2"] == {"0": 50, "1": 10}
    assert state["version"] == match["version"] + 1
    assert state["next_leader"] == 2
    hand = Hand.objects.get(match_id=match["id"], number=1)
    assert hand.entry == HAND_1
    assert (hand.end, hand.hand_winner, hand.bonus_x2) == ("domino", [0, 2], {"0": 30})
    assert list(HandEvent.objects.filter(hand=hand).values_list("seat", "points")) == [
        (0, 10),
        (1, 5),
    ]


def test_recording_the_first_hand_starts_the_match_and_its_table(
    api: APIClient, table: Table
) -> None:
    match = new_match(api, table)
    assert match["status"] == "scheduled"
    state = record(api, match, HAND_1).json()
    table.refresh_from_db()
    assert state["status"] == "playing"
    assert table.status == Table.Status.PLAYING


def test_the_public_can_read_a_match_but_not_write_it(api: APIClient, table: Table) -> None:
    match = new_match(api, table)
    anonymous = client_for(None)
    assert anonymous.get(match_url(match["id"])).status_code == 200
    response = record(anonymous, match, HAND_1)
    assert response.status_code in (401, 403)
    assert response.json()["ok"] is False
    assert not Hand.objects.exists()


def test_a_user_who_does_not_score_the_tournament_is_refused(
    api: APIClient, table: Table, stranger: Any
) -> None:
    match = new_match(api, table)
    response = record(client_for(stranger), match, HAND_1)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    assert not Hand.objects.exists()


def test_organisers_score_too(table: Table, organiser: Any) -> None:
    client = client_for(organiser)
    match = new_match(client, table)
    assert record(client, match, HAND_1).status_code == 201


def _refused(
    api: APIClient, table: Table, hands: list[dict[str, Any]], bad: dict[str, Any]
) -> dict[str, Any]:
    match = record_all(api, new_match(api, table), hands)
    response = record(api, match, bad)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["ok"] is False
    after = Match.objects.get(pk=match["id"])
    assert after.version == match["version"], "a refused hand must not move the version"
    assert after.hands.count() == len(hands)
    return dict(body["error"])


@pytest.mark.parametrize(
    ("bad", "code", "rule"),
    [
        pytest.param(
            tally(0, [[0, 12]], {"domino": 2}, {"0": 7, "1": 8, "2": 0, "3": 6}),
            "bad_points",
            "R12",
            id="points-not-a-multiple-of-five",
        ),
        pytest.param(
            tally(0, [[0, 40]], {"domino": 2}, {"0": 7, "1": 8, "2": 0, "3": 6}),
            "bad_points",
            "R12",
            id="points-over-35",
        ),
        pytest.param(
            tally(0, [[0, 10]], {"domino": 2}, {"0": 7, "1": -3, "2": 0, "3": 6}),
            "left_disagrees",
            "R1",
            id="negative-remaining-pips",
        ),
        pytest.param(
            tally(0, [[0, 10]], {"domino": 2}, {"0": 7, "1": 150, "2": 0, "3": 6}),
            "left_disagrees",
            "R1",
            id="more-pips-than-the-set-holds",
        ),
        pytest.param(
            tally(0, [[0, 10]], {"domino": 2}, {"0": 7, "1": 8, "2": 5, "3": 6}),
            "left_disagrees",
            "R1",
            id="player-who-went-out-still-holds-tiles",
        ),
        pytest.param(
            tally(0, [[0, 10]], {"domino": 2}, {"0": 7, "1": 8, "2": 0}),
            "left_missing",
            "R18",
            id="remaining-pips-missing",
        ),
        pytest.param(
            tally(0, [[0, 10]], {"target": True}),
            "target_not_reached",
            "R22",
            id="target-claimed-but-not-reached",
        ),
    ],
)
def test_hand_record_refuses_impossible_tally_figures(
    api: APIClient, table: Table, bad: dict[str, Any], code: str, rule: str
) -> None:
    error = _refused(api, table, [], bad)
    assert (error["code"], error["rule"], error["hand"]) == (code, rule, 0)
    assert error["message"]


def test_hand_record_refuses_the_wrong_leader(api: APIClient, table: Table) -> None:
    # seat 2 went out in hand 1, so seat 2 leads hand 2 (R21)
    error = _refused(api, table, [HAND_1], tally(3, [[3, 5]], {"domino": 1}, HAND_2["left"]))
    assert (error["code"], error["rule"], error["hand"]) == ("wrong_leader", "R21", 1)


def test_hand_record_refuses_a_hand_after_the_match_is_won(api: APIClient, table: Table) -> None:
    error = _refused(api, table, MATCH_TO_50, tally(2, [[0, 5]], {"blocked": True}, {"0": 1}))
    assert (error["code"], error["rule"]) == ("match_over", "R22")


def test_hand_record_refuses_a_gap_in_hand_numbers(api: APIClient, table: Table) -> None:
    match = record_all(api, new_match(api, table), [HAND_1])
    response = api.post(
        match_url(match["id"], "hands"),
        {"version": match["version"], "number": 3, "hand": HAND_2},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "hand_number_gap"
    assert Hand.objects.filter(match_id=match["id"]).count() == 1


def test_hand_record_refuses_a_number_already_taken(api: APIClient, table: Table) -> None:
    match = record_all(api, new_match(api, table), [HAND_1])
    response = api.post(
        match_url(match["id"], "hands"),
        {"version": match["version"], "number": 1, "hand": HAND_2},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "hand_exists"


def test_reaching_the_target_mid_hand_ends_the_match_and_records_the_result(
    api: APIClient, table: Table
) -> None:
    # when the third hand carries side 0 to 50 during the hand (R22)
    state = record_all(api, new_match(api, table), MATCH_TO_50)
    # then the match is over at that event and league has the table's result
    assert state["status"] == "finished"
    assert state["winner"] == 0
    assert state["totals"] == {"0": 50, "1": 20}
    assert state["hands"][-1]["end"] == "target"
    result = TableResult.objects.get(table=table)
    sides = {s.side: s for s in result.sides.all()}
    assert (sides[0].points_x2, sides[0].placing, sides[0].is_winner) == (100, 1, True)
    assert (sides[1].points_x2, sides[1].placing, sides[1].is_winner) == (40, 2, False)
    assert (sides[0].hands_won, sides[1].hands_won) == (1, 1)
    assert result.hands_count == 3
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def test_a_hand_in_the_other_entry_mode_is_refused(api: APIClient, table: Table) -> None:
    match = new_match(api, table)
    response = record(api, match, {"leader": 0, "moves": [{"seat": 0, "play": "5-5"}]})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "wrong_entry_mode"


def test_the_scoresheet_reads_back_exactly_what_was_entered(api: APIClient, table: Table) -> None:
    match = record_all(api, new_match(api, table), MATCH_TO_50)
    document = api.get(match_url(match["id"], "scoresheet")).json()
    assert document["format"] == "allfives/1"
    assert document["players"] == 4
    assert document["rules"]["targets"]["4"] == 50
    assert document["hands"] == MATCH_TO_50
