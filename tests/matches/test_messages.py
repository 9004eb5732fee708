"""Every engine error code has a translatable message template that formats."""

from __future__ import annotations

import string

import pytest
from django.utils import translation

from allfives import ERRORS, AllFivesError, replay
from matches.messages import TEMPLATES, engine_error_json, engine_error_message


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _engine_fields(code: str) -> set[str]:
    """The engine's params for `code`, with ``player``: the seat an error is about."""
    return (_fields(ERRORS[code].template) - {"seat"}) | {"player"}


def test_every_engine_error_code_has_a_template() -> None:
    assert set(ERRORS) <= set(TEMPLATES)


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_each_template_uses_only_the_engines_params(code: str) -> None:
    # the translated template must not ask for anything the engine's message lacks
    assert _fields(str(TEMPLATES[code])) <= _engine_fields(code)


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_an_engine_error_is_shown_from_its_template(code: str) -> None:
    params = {name: f"<{name}>" for name in _fields(ERRORS[code].template) if name != "seat"}
    seat = 2 if "seat" in _fields(ERRORS[code].template) else None
    error = AllFivesError(code, seat=seat, **params)
    with translation.override("en"):
        message = engine_error_message(error)
    for name in _fields(str(TEMPLATES[code])) - {"player"}:
        assert params[name] in message
    if seat is not None:
        assert "seat 3" in message.lower()  # seats count from 1 where no name is known
    assert engine_error_json(error)["code"] == code


def test_engine_end_names_are_translated_inside_the_message() -> None:
    # Given [1|4] laid on the west end of a [3|6] lead, which does not match it (R7)
    document = {
        "format": "allfives/1",
        "players": 2,
        "hands": [
            {
                "leader": 0,
                "moves": [{"seat": 0, "play": "3-6"}, {"seat": 1, "play": "1-4", "end": "W"}],
            }
        ],
    }
    with pytest.raises(AllFivesError) as refused:
        replay(document)
    assert refused.value.code == "tile_does_not_match"
    # When its message is shown in each language, then the end is named in that language
    with translation.override("id"):
        indonesian = engine_error_message(refused.value)
    with translation.override("en"):
        english = engine_error_message(refused.value)
    assert "barat" in indonesian and "west" not in indonesian
    assert "west" in english
