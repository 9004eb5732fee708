"""Scoresheets and API calls shared by the matches tests."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from league.models import Table


def client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


def tally(
    leader: int, scores: list[list[int]], end: dict[str, Any], left: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A tally hand (docs/scoresheet.md)."""
    hand: dict[str, Any] = {"leader": leader, "scores": scores, "end": end}
    if left is not None:
        hand["left"] = left
    return hand


#: A four-player match to 50, tally entry: side 0 (seats 0+2) wins in hand 3.
#: Hand 1: side 0 scores 10 + round(8 + 6 = 14) = 15 → 25, side 1 scores 5.
#: Hand 2: side 0 +20 = 45; side 1 +5, then +round(3 + 4 = 7) = 5 → 15.
#: Hand 3: side 1 +5 = 20; seat 2 scores 5 → side 0 reaches 50 mid-hand (R22).
HAND_1 = tally(0, [[0, 10], [1, 5]], {"domino": 2}, {"0": 7, "1": 8, "2": 0, "3": 6})
HAND_2 = tally(2, [[2, 20], [3, 5]], {"domino": 1}, {"0": 3, "1": 0, "2": 4, "3": 10})
HAND_3 = tally(1, [[1, 5], [2, 5]], {"target": True})
MATCH_TO_50 = [HAND_1, HAND_2, HAND_3]


def match_url(match_id: int, tail: str = "") -> str:
    return f"/api/matches/{match_id}/{tail}"


def new_match(client: APIClient, table: Table) -> dict[str, Any]:
    response = client.post("/api/matches/", {"table": table.pk}, format="json")
    assert response.status_code == 201, response.content
    return dict(response.json())


def record(client: APIClient, match: dict[str, Any], hand: dict[str, Any], **headers: str) -> Any:
    """POST the next hand of ``match`` (a state dict) at its version."""
    return client.post(
        match_url(match["id"], "hands"),
        {"version": match["version"], "number": match["next_hand"], "hand": hand},
        format="json",
        headers=headers or None,
    )


def record_all(
    client: APIClient, match: dict[str, Any], hands: list[dict[str, Any]]
) -> dict[str, Any]:
    for hand in hands:
        response = record(client, match, hand)
        assert response.status_code == 201, response.content
        match = response.json()
    return match
