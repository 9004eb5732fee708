"""Engine errors in the user's language.

The engine (``allfives``) raises errors with a stable ``code`` and the ``params`` its
English message was built from; here each code has a translatable template, so the
scorekeeper sees the engine's reason in Indonesian or English.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from allfives import AllFivesError

#: Translatable templates by engine error code (``str.format`` over the error's params).
#: Codes without a template here fall back to the engine's English message.
TEMPLATES: dict[str, Any] = {
    "bad_format": _("The scoresheet is not in the allfives/1 format: {detail}"),
}


def engine_error_message(exc: AllFivesError) -> str:
    """The error's message in the active language."""
    template = TEMPLATES.get(exc.code)
    if template is None:
        return exc.message
    try:
        return str(template).format(**exc.params)
    except (KeyError, IndexError, ValueError):
        return exc.message


def engine_error_json(exc: AllFivesError) -> dict[str, Any]:
    """The SCORESHEET.md error object, with the message translated."""
    body = exc.to_json()
    body["message"] = engine_error_message(exc)
    return body
