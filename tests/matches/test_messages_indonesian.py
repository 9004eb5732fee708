"""Every engine error code reads entirely in Indonesian, seats counted from 1 or named."""

from __future__ import annotations

import re
import string

import pytest
from django.utils import translation

from allfives import ERRORS, AllFivesError
from matches.messages import engine_error_message

#: English words that must never appear on an Indonesian page.
STOP_WORDS = {
    "pips", "pip", "tile", "tiles", "seat", "end", "ends", "went", "hand", "the", "is",
    "and", "of", "not", "out", "holds", "match", "side", "west", "east", "north", "south",
}  # fmt: skip


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _neutral(name: str) -> object:
    # Values with no words of their own: the template's words are what is checked.
    return {"tile": "[3|6]", "end_name": "west", "end_names": "west and north"}.get(name, 4)


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_each_engine_error_reads_in_indonesian_with_no_english_word(code: str) -> None:
    fields = _fields(ERRORS[code].template)
    params = {name: _neutral(name) for name in fields if name != "seat"}
    error = AllFivesError(code, seat=1 if "seat" in fields else None, **params)
    with translation.override("id"):
        message = engine_error_message(error, {1: "Budi", 2: "Siti"})
    words = set(re.findall(r"[a-z]+", message.lower()))
    assert not words & STOP_WORDS, f"{code}: {message}"


def test_a_seat_in_a_message_is_the_players_name_or_counts_from_one() -> None:
    error = AllFivesError("wrong_leader", leader=0, expected=2)
    with translation.override("id"):
        assert "Budi" in engine_error_message(error, {0: "Budi", 2: "Siti"})
        numbered = engine_error_message(error)
    assert "0" not in numbered and "1" in numbered and "3" in numbered
