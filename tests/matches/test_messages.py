"""Every engine error code has a translatable message template that formats."""

from __future__ import annotations

import string

import pytest
from django.utils import translation

from allfives import ERRORS, AllFivesError, replay
from matches.messages import TEMPLATES, engine_error_json, engine_error_message


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


#: Every wording of every engine error: (code, variant), variant None for the main one.
WORDINGS = sorted(
    [(code, None) for code in ERRORS]
    + [(code, variant) for code, spec in ERRORS.items() for variant in spec.variants],
    key=str,
)


def _engine_fields(code: str, variant: str | None) -> set[str]:
    """The engine's params for a wording, with ``player``: the seat an error is about."""
    return (_fields(ERRORS[code].template_for(variant)) - {"seat"}) | {"player"}


def _key(code: str, variant: str | None) -> str:
    return code if variant is None else f"{code}/{variant}"


def test_every_engine_error_code_and_wording_has_a_template() -> None:
    assert {_key(code, variant) for code, variant in WORDINGS} <= set(TEMPLATES)


@pytest.mark.parametrize(("code", "variant"), WORDINGS)
def test_each_template_uses_only_the_engines_params(code: str, variant: str | None) -> None:
    # the translated template must not ask for anything the engine's message lacks
    assert _fields(str(TEMPLATES[_key(code, variant)])) <= _engine_fields(code, variant)


@pytest.mark.parametrize(("code", "variant"), WORDINGS)
def test_an_engine_error_is_shown_from_its_template(code: str, variant: str | None) -> None:
    engine_template = ERRORS[code].template_for(variant)
    params: dict[str, object] = {
        name: f"<{name}>" for name in _fields(engine_template) if name != "seat"
    }
    seat = 2 if "seat" in _fields(engine_template) else None
    if variant is not None:
        params["variant"] = variant
    error = AllFivesError(code, seat=seat, **params)
    with translation.override("en"):
        message = engine_error_message(error)
    for name in _fields(str(TEMPLATES[_key(code, variant)])) - {"player"}:
        assert params[name] in message
    if seat is not None:
        assert "seat 3" in message.lower()  # seats count from 1 where no name is known
    assert engine_error_json(error)["code"] == code


def test_a_tile_that_fits_no_end_is_told_in_the_users_language() -> None:
    # Given [1|4] played after the lead [3|6] with no end named (R7)
    document = {
        "format": "allfives/1",
        "players": 2,
        "hands": [{"leader": 0, "moves": [{"seat": 0, "play": "3-6"}, {"seat": 1, "play": "1-4"}]}],
    }
    with pytest.raises(AllFivesError) as refused:
        replay(document)
    # When its message is shown in each language
    with translation.override("id"):
        indonesian = engine_error_message(refused.value)
    with translation.override("en"):
        english = engine_error_message(refused.value)
    # Then the code is the format's, and each language says it fits no end
    assert refused.value.code == "tile_does_not_match"
    assert english == "Seat 2: [1|4] fits no open end (west 3, east 6)."
    assert indonesian != english and "[1|4]" in indonesian and "barat 3, timur 6" in indonesian


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
