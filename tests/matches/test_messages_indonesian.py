"""Every engine error reads entirely in Indonesian, with the players named: each code is
triggered by a real bad scoresheet (a few by realistic params, where no short sheet
reaches them), every detail, pass reason and tile whereabouts is rendered from its code
with realistic values, and the message is checked against an English stop-list."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from allfives import ERRORS, AllFivesError, replay
from allfives.errors import DETAILS, engine_error
from matches.messages import REASONS, WHERE, engine_error_message

#: English words that must never appear on an Indonesian page.
STOP_WORDS = frozenset({
    "pips", "pip", "tile", "tiles", "seat", "seats", "end", "ends", "went", "hand",
    "hands", "the", "is", "are", "and", "or", "of", "not", "out", "holds", "hold", "match",
    "side", "sides", "west", "east", "north", "south", "it", "its", "must", "may", "can",
    "cannot", "draw", "draws", "pass", "play", "plays", "lead", "leads", "leader",
    "player", "players", "boneyard", "reached", "spinner", "points", "score", "scores",
    "scoring", "which", "with", "a", "an", "to", "at", "on", "in", "by", "be", "was", "no",
    "only", "yet", "all", "table", "given", "twice", "whole", "number", "list", "object",
})  # fmt: skip
NAMES = {0: "Budi", 1: "Siti", 2: "Ani", 3: "Dewi"}

#: Two players get nine tiles each (R3); ten stay in the boneyard.
ALL = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
DEAL = [ALL[:9], ALL[9:18]]


def _sheet(hands: list[dict[str, Any]], players: int = 2, **extra: Any) -> dict[str, Any]:
    return {"format": "allfives/1", "players": players, "hands": hands, **extra}


def _tiles(moves: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"leader": 0, "moves": moves, **extra}


def _play(seat: int, tile: str, end: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "play": tile} | ({"end": end} if end else {})


LEAD = _play(0, "3-6")
#: A real bad scoresheet for each code the engine raises on one.
SHEETS: dict[str, dict[str, Any]] = {
    "bad_format": _sheet([{"leader": 0, "scores": [[0, 10]], "end": {"domino": 4}}]),
    "bad_players": _sheet([], players=5),
    "bad_deal": _sheet([_tiles([], deal=[ALL[:7], ALL[7:14]])]),
    "not_your_turn": _sheet([_tiles([LEAD, _play(0, "6-6")])]),
    "tile_already_played": _sheet([_tiles([LEAD, _play(1, "3-6")])]),
    "tile_not_in_hand": _sheet([_tiles([_play(0, "1-3")], deal=DEAL)]),
    "tile_not_in_boneyard": _sheet(
        [_tiles([_play(0, "0-0"), {"seat": 1, "draw": "0-1"}], deal=DEAL)]
    ),
    "tile_does_not_match": _sheet([_tiles([LEAD, _play(1, "6-6", "W")])]),
    "tile_does_not_match/no_end": _sheet([_tiles([LEAD, _play(1, "1-2")])]),
    "ambiguous_end": _sheet([_tiles([_play(0, "3-3"), _play(1, "3-6")])]),
    "lead_has_no_end": _sheet([_tiles([_play(0, "3-6", "W")])]),
    "branch_not_open": _sheet([_tiles([LEAD, _play(1, "1-3", "N")])]),
    "must_play": _sheet([_tiles([_play(0, "1-1"), {"seat": 1, "draw": "3-3"}], deal=DEAL)]),
    "must_play_drawn_tile": _sheet(
        [_tiles([LEAD, {"seat": 1, "draw": "5-6"}, {"seat": 1, "pass": True}])]
    ),
    "drew_past_playable": _sheet(
        [_tiles([LEAD, {"seat": 1, "draw": "5-6"}, {"seat": 1, "draw": "2-2"}])]
    ),
    "boneyard_empty": _sheet(
        [
            _tiles(
                [
                    _play(0, "0-0"),
                    *({"seat": 1, "draw": t} for t in ALL[18:]),
                    {"seat": 1, "draw": None},
                ],
                deal=DEAL,
            )
        ]
    ),
    "illegal_pass": _sheet([_tiles([LEAD, {"seat": 1, "pass": True}])]),
    "hand_incomplete": _sheet([_tiles([LEAD]), _tiles([])]),
    "bad_points": _sheet(
        [{"leader": 0, "scores": [[0, 7]], "end": {"domino": 0}, "left": {"1": 10}}]
    ),
    "left_missing": _sheet([{"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}}]),
    "left_disagrees": _sheet(
        [{"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}, "left": {"0": 5, "1": 10}}]
    ),
    "target_not_reached": _sheet([{"leader": 0, "scores": [[0, 10]], "end": {"target": True}}]),
    "match_over": _sheet(
        [
            {"leader": 0, "scores": [[0, 30], [1, 5]], "end": {"target": True}},
            {"leader": 0, "scores": [], "end": {"blocked": True}},
        ],
        rules={"targets": {"2": 30}},
    ),
    "wrong_leader": _sheet(
        [
            {"leader": 0, "scores": [[0, 10]], "end": {"domino": 1}, "left": {"0": 10}},
            {"leader": 0, "scores": [], "end": {"domino": 1}, "left": {"0": 10}},
        ]
    ),
    "time_called": _sheet(
        [
            {"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}, "left": {"1": 10}},
            {"leader": 0, "scores": [], "end": {"domino": 0}, "left": {"1": 10}},
        ],
        rules={"time_limit": 30},
        time_called_after=1,
    ),
}
#: Codes no short scoresheet reaches: the params the engine gives them.
PARAMS: dict[str, dict[str, Any]] = {
    "hand_over": {"seat": 2, "end": "domino"},
    "internal_error": {"detail_code": "engine_bug", "kind": "ZeroDivisionError", "why": "x"},
}

#: Realistic values for every param a detail, reason or whereabouts is built from.
VALUES: dict[str, Any] = {
    "value": "'x'",
    "tile": "[2|5]",
    "tiles": "[0|1] [4|4]",
    "other": 3,
    "holder": 1,
    "last": 3,
    "count": 5,
    "players": 4,
    "size": 7,
    "pips": 23,
    "low": 12,
    "high": 40,
    "total": 55,
    "most": 21,
    "limit": 160,
    "table": "(1, 2)",
    "why": "x",
    "kind": "KeyError",
    "given_value": 15,
}


def _words(message: str) -> set[str]:
    return set(re.findall(r"[a-z]+", message.lower()))


def _in_indonesian(error: AllFivesError) -> str:
    with translation.override("id"):
        return engine_error_message(error, NAMES)


def _refused(document: dict[str, Any]) -> AllFivesError:
    with pytest.raises(AllFivesError) as refused:
        replay(document)
    return refused.value


def test_every_engine_error_code_is_covered_by_a_sheet_or_params() -> None:
    # A key ``code/variant`` triggers one of a code's other wordings.
    assert {key.split("/")[0] for key in SHEETS} | set(PARAMS) == set(ERRORS)


@pytest.mark.parametrize("code", sorted(SHEETS))
def test_a_real_engine_error_reads_in_indonesian_with_no_english_word(code: str) -> None:
    # given a scoresheet that breaks the rule
    error = _refused(SHEETS[code])
    code, _, variant = code.partition("/")
    assert error.code == code, error.message
    assert error.params.get("variant") == (variant or None), error.params
    # when the scorekeeper reads the refusal in Indonesian
    message = _in_indonesian(error)
    # then no English word is left, and a seat is named by its player
    assert not _words(message) & STOP_WORDS, f"{code}: {message}"
    if error.seat is not None:
        assert NAMES[error.seat] in message, message


@pytest.mark.parametrize("code", sorted(PARAMS))
def test_an_engine_error_from_realistic_params_reads_in_indonesian(code: str) -> None:
    params = dict(PARAMS[code])
    seat = params.pop("seat", None)
    message = _in_indonesian(engine_error(code, seat=seat, **params))
    assert not _words(message) & STOP_WORDS, f"{code}: {message}"


@pytest.mark.parametrize("detail_code", sorted(DETAILS))
def test_each_engine_detail_reads_in_indonesian(detail_code: str) -> None:
    # every detail the engine can give, inside the error that carries it
    code = (
        "bad_deal"
        if detail_code.startswith("deal") or detail_code == "dealt_twice"
        else "internal_error"
        if detail_code == "engine_bug"
        else "bad_format"
    )
    if detail_code in _LEFT_DETAILS:
        code = "left_disagrees"
    seat = 1 if code == "left_disagrees" else None
    error = engine_error(code, seat=seat, detail_code=detail_code, given="15 pips", **VALUES)
    message = _in_indonesian(error)
    assert not _words(message) & STOP_WORDS, f"{detail_code}: {message}"
    assert "{" not in message, message


_LEFT_DETAILS = {
    "deal_leaves", "tiles_carry", "holds_count", "on_table", "drew", "in_other_hand",
    "listed_other", "would_fit", "listed_twice", "pips_range", "together",
    "listed_two_seats", "went_out_holds", "only_out_empty", "negative", "zero_twice",
    "value_on_table", "others_at_most", "blocked_at_most",
}  # fmt: skip


@pytest.mark.parametrize("reason_code", sorted(REASONS))
def test_each_reason_a_pass_is_refused_reads_in_indonesian(reason_code: str) -> None:
    error = engine_error("illegal_pass", seat=2, reason="x", reason_code=reason_code, tile="[2|5]")
    message = _in_indonesian(error)
    assert not _words(message) & STOP_WORDS, message
    assert "Ani" in message


@pytest.mark.parametrize("where_code", sorted(WHERE))
def test_each_place_a_tile_is_instead_reads_in_indonesian(where_code: str) -> None:
    error = engine_error(
        "tile_not_in_hand", seat=0, tile="[1|3]", where="x", where_code=where_code, holder=1
    )
    message = _in_indonesian(error)
    assert not _words(message) & STOP_WORDS, message
    assert "Budi" in message
    assert ("Siti" in message) == (where_code == "held")


def test_the_issue_examples_now_read_in_indonesian_naming_the_player() -> None:
    went_out = _in_indonesian(_refused(SHEETS["left_disagrees"]))
    assert went_out.startswith("Sisa Budi 5 mata?"), went_out
    negative = _sheet([{"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}, "left": {"1": -3}}])
    assert "bilangan bulat mulai dari 0" in _in_indonesian(_refused(negative))
    not_a_seat = _in_indonesian(_refused(SHEETS["bad_format"]))
    assert not_a_seat == "Lembar skor tidak berformat allfives/1: 4 bukan kursi di meja ini"


def test_a_seat_in_a_message_is_the_players_name_or_counts_from_one() -> None:
    error = AllFivesError("wrong_leader", leader=0, expected=2)
    with translation.override("id"):
        assert "Budi" in engine_error_message(error, {0: "Budi", 2: "Siti"})
        numbered = engine_error_message(error)
    assert "0" not in numbered and "1" in numbered and "3" in numbered
