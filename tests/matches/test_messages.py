"""Every engine error code has a translatable message template that formats."""

from __future__ import annotations

import string

import pytest
from django.utils import translation

from allfives import ERRORS, AllFivesError
from matches.messages import TEMPLATES, engine_error_json, engine_error_message


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_engine_error_code_has_a_template() -> None:
    assert set(ERRORS) <= set(TEMPLATES)


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_each_template_uses_only_the_engines_params(code: str) -> None:
    # the translated template must not ask for anything the engine's message lacks
    assert _fields(str(TEMPLATES[code])) <= _fields(ERRORS[code].template)


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_an_engine_error_is_shown_from_its_template(code: str) -> None:
    params = {name: f"<{name}>" for name in _fields(ERRORS[code].template) if name != "seat"}
    seat = 2 if "seat" in _fields(ERRORS[code].template) else None
    error = AllFivesError(code, seat=seat, **params)
    with translation.override("en"):
        message = engine_error_message(error)
    for value in params.values():
        assert value in message
    assert engine_error_json(error)["code"] == code
