"""Tile-by-tile entry: every rule is the engine's, refused through the API with its code,
and a simulated match entered hand by hand ends exactly where the engine says."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from allfives import Rules, check, simulate_match
from league.models import Table, TableResult
from matches.models import Hand, HandEvent, Match
from tests.matches.sheets import match_url, new_match, record, record_all

pytestmark = pytest.mark.django_db


def play(seat: int, tile: str, end: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "play": tile} if end is None else {"seat": seat, "play": tile, "end": end}


def draw(seat: int, tile: str | None) -> dict[str, Any]:
    return {"seat": seat, "draw": tile}


def tiles_match(api: APIClient, table: Table) -> dict[str, Any]:
    match = new_match(api, table)
    response = api.post(
        match_url(match["id"], "mode"),
        {"version": match["version"], "entry_mode": "tiles"},
        format="json",
    )
    assert response.status_code == 200, response.content
    return dict(response.json())


def simulated(target: int = 100, seed: int = 3) -> dict[str, Any]:
    return dict(
        simulate_match(
            players=4,
            rules=Rules(targets={4: target}),
            rng=random.Random(seed),
            strategies=["greedy"],
        )
    )


#: Hands without a deal, each breaking one rule (docs/rules.md number in the id).
WITHOUT_DEAL = [
    pytest.param([play(0, "3-6"), play(2, "6-6", "E")], "not_your_turn", 1, id="R2-turn-order"),
    pytest.param(
        [play(0, "3-6"), play(1, "6-6", "E"), play(2, "6-3", "E")],
        "tile_already_played",
        2,
        id="R1-each-tile-once",
    ),
    pytest.param([play(0, "3-6"), play(1, "1-4", "W")], "tile_does_not_match", 1, id="R7-match"),
    pytest.param([play(0, "3-6"), play(1, "1-4")], "tile_does_not_match", 1, id="R7-fits-no-end"),
    pytest.param([play(0, "5-5"), play(1, "5-1")], "ambiguous_end", 1, id="R7-say-which-end"),
    pytest.param([play(0, "3-6", "W")], "lead_has_no_end", 0, id="R6-lead-takes-no-end"),
    pytest.param([play(0, "5-5"), play(1, "5-1", "N")], "branch_not_open", 1, id="R10-branch"),
    pytest.param(
        [play(0, "3-6"), draw(1, "6-1"), play(1, "3-2", "W")],
        "must_play_drawn_tile",
        2,
        id="R14-lay-the-drawn-tile",
    ),
    pytest.param(
        [play(0, "3-6"), draw(1, "6-1"), draw(1, None)],
        "drew_past_playable",
        2,
        id="R14-stop-drawing",
    ),
    pytest.param(
        [play(0, "3-6")]
        + [draw(1, t) for t in ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2", "0-4", "1-4", "2-4"]],
        "boneyard_empty",
        9,
        id="R14-boneyard-empty",
    ),
    pytest.param([play(0, "3-6"), {"seat": 1, "pass": True}], "illegal_pass", 1, id="R15-pass"),
    pytest.param([play(0, "3-6"), play(1, "6-6", "E")], "hand_incomplete", None, id="R16-over"),
]


@pytest.mark.parametrize(("moves", "code", "move"), WITHOUT_DEAL)
def test_hand_record_refuses_every_tile_rule_broken(
    api: APIClient, table: Table, moves: list[dict[str, Any]], code: str, move: int | None
) -> None:
    match = tiles_match(api, table)
    response = record(api, match, {"leader": 0, "moves": moves})
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert (error["code"], error["hand"], error["move"]) == (code, 0, move)
    assert error["rule"]
    assert not Hand.objects.filter(match_id=match["id"]).exists()
    assert Match.objects.get(pk=match["id"]).version == match["version"]


def _with_deal(change: str) -> tuple[dict[str, Any], str]:
    """A real dealt hand (simulated), broken in one way; returns it and the code expected."""
    hand = copy.deepcopy(simulated()["hands"][1])  # a domino hand with draws
    moves, deal = hand["moves"], hand["deal"]
    dealt = {t for seat in deal for t in seat}
    boneyard = sorted(
        {f"{a}-{b}" for a in range(7) for b in range(a, 7)}
        - {"-".join(sorted(t.split("-"))) for t in dealt}
    )
    if change == "not-in-hand":
        leader_tiles = {"-".join(sorted(t.split("-"))) for t in deal[hand["leader"]]}
        moves[0]["play"] = next(t for t in boneyard if t not in leader_tiles)
        return hand, "tile_not_in_hand"
    if change == "must-play":
        index = next(
            i for i, m in enumerate(moves) if i > 0 and "play" in m and "draw" not in moves[i - 1]
        )
        moves[index] = {"seat": moves[index]["seat"], "draw": None}
        del moves[index + 1 :]
        return hand, "must_play"
    if change == "not-in-boneyard":
        index = next(i for i, m in enumerate(moves) if "draw" in m)
        moves[index]["draw"] = deal[(moves[index]["seat"] + 1) % 4][0]
        return hand, "tile_not_in_boneyard"
    if change == "bad-deal":
        deal[0] = deal[0][:-1]
        return hand, "bad_deal"
    if change == "after-domino":
        moves.append({"seat": (moves[-1]["seat"] + 1) % 4, "pass": True})
        return hand, "hand_over"
    raise AssertionError(change)


@pytest.mark.parametrize(
    "change", ["not-in-hand", "must-play", "not-in-boneyard", "bad-deal", "after-domino"]
)
def test_hand_record_checks_a_dealt_hand_against_the_deal(
    api: APIClient, table: Table, change: str
) -> None:
    hand, code = _with_deal(change)
    assert check({"format": "allfives/1", "players": 4, "hands": [hand]})["error"]["code"] == code
    match = tiles_match(api, table)
    response = record(api, match, hand)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == code
    assert not Hand.objects.filter(match_id=match["id"]).exists()


def test_a_simulated_match_entered_hand_by_hand_ends_where_the_engine_says(
    api: APIClient, make_table: Any
) -> None:
    # given a four-player table to 100 and a simulated tile-by-tile match to 100
    table = make_table(target=100)
    document = simulated(target=100, seed=3)
    expected = check(document)
    # when each hand is recorded through the API
    state = record_all(api, tiles_match(api, table), list(document["hands"]))
    # then every score is the engine's and the match ended at the target
    assert state["totals"] == expected["totals"]
    assert state["winner"] == expected["winner"]
    assert state["status"] == "finished"
    assert [h["end"] for h in state["hands"]] == [h["end"] for h in expected["hands"]]
    first = Hand.objects.get(match_id=state["id"], number=1)
    plays = HandEvent.objects.filter(hand=first, kind=HandEvent.Kind.PLAY)
    assert sum(e.points for e in plays) == sum(p["points"] for p in expected["hands"][0]["plays"])
    assert TableResult.objects.get(table=table).hands_count == len(document["hands"])


def test_a_whole_scoresheet_posted_is_imported_and_read_back_unchanged(
    api: APIClient, make_table: Any
) -> None:
    table = make_table(target=100)
    document = simulated(target=100, seed=3)
    match = tiles_match(api, table)
    response = api.post(match_url(match["id"], "scoresheet"), document, format="json")
    assert response.status_code == 201, response.content
    state = response.json()
    assert state["totals"] == check(document)["totals"]
    assert state["status"] == "finished"
    back = api.get(match_url(match["id"], "scoresheet")).json()
    assert back["hands"] == document["hands"]


def test_an_imported_scoresheet_with_other_rules_is_refused(
    api: APIClient, make_table: Any
) -> None:
    table = make_table(target=100)
    document = simulated(target=150, seed=3)
    match = tiles_match(api, table)
    response = api.post(match_url(match["id"], "scoresheet"), document, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "rules_mismatch"
    # It names the rule that differs, with both values, in Indonesian.
    assert error["message"] == (
        "Aturan di lembar skor berbeda dengan aturan pertandingan ini — "
        "target, 4 pemain: 100 untuk pertandingan ini, 150 di lembar skor."
    )
    assert not Hand.objects.exists()


def test_a_scoresheet_differing_only_in_its_tie_break_is_refused_naming_it(
    api: APIClient, make_table: Any
) -> None:
    # given a match that lets a tie stand, and its own scoresheet but for a tie-break
    table = make_table(target=100)
    document = simulated(target=100, seed=3)
    match = tiles_match(api, table)
    document["rules"] = {**match["rules"], "tie_break": "extra_hand"}
    # when it is imported, in Indonesian and in English
    indonesian = api.post(match_url(match["id"], "scoresheet"), document, format="json")
    english = api.post(
        match_url(match["id"], "scoresheet"), document, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    # then it is refused, naming the tie-break alone (not the target, which agrees)
    assert [r.json()["error"]["code"] for r in (indonesian, english)] == ["rules_mismatch"] * 2
    assert english.json()["error"]["message"] == (
        "The scoresheet's rules differ from this match's — a tied match: “the tie stands” "
        "for this match, “One more hand, repeated while tied” in the scoresheet."
    )
    message = indonesian.json()["error"]["message"]
    assert "“Satu ronde lagi, diulang selama masih seri” di lembar skor" in message
    assert "target" not in message
    assert not Hand.objects.exists()


def test_a_scoresheet_differing_in_several_rules_names_each(
    api: APIClient, make_table: Any
) -> None:
    table = make_table(target=100)
    document = simulated(target=100, seed=3)
    match = tiles_match(api, table)
    document["rules"] = {
        **match["rules"],
        "blocked_award": "difference",
        "time_limit": 30,
        "hand_sizes": {"2": 9, "3": 7, "4": 6},
    }
    response = api.post(
        match_url(match["id"], "scoresheet"), document, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.json()["error"]["message"] == (
        "The scoresheet's rules differ from this match's — "
        "tiles dealt, 4 players: 5 for this match, 6 in the scoresheet; "
        "blocked hand award: “Opponents' pips” for this match, “Difference in pips” in the "
        "scoresheet; time limit per round (minutes): none for this match, 30 in the scoresheet."
    )


def test_an_imported_scoresheet_that_breaks_a_rule_stores_nothing(
    api: APIClient, make_table: Any
) -> None:
    table = make_table(target=100)
    document = simulated(target=100, seed=3)
    document["hands"][1]["moves"][0]["play"] = document["hands"][1]["moves"][1].get("play", "0-0")
    match = tiles_match(api, table)
    response = api.post(match_url(match["id"], "scoresheet"), document, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["hand"] == 1
    assert not Hand.objects.exists()
