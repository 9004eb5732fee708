"""What the scoring device runs in the browser (Pyodide): the engine's verdict on the
match with the hands it holds, and a refusal put into words from the page's catalogue.

Standard library and ``allfives`` only: the engine bundle ships this module, with
``matches.wording`` and ``allfives``, to the device (``matches.engine_bundle``); the
server runs the very same function in its tests to show the two verdicts agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from allfives import AllFivesError, replay
from matches.wording import Catalogue, error_text


def device_judge(
    document: Mapping[str, Any], names: Mapping[int, str], catalogue: Catalogue
) -> dict[str, Any]:
    """The engine's verdict on a scoresheet document: ``ok`` with the report and
    ``playing_off`` (a tie being played off, so no play ends the next hand), or the
    refusal with its code, place and message in the catalogue's language.

    >>> device_judge({"players": 2, "hands": [{"leader": 0, "scores": [[0, 10]],
    ...     "end": {"target": True}}]}, {}, {})["code"]
    'target_not_reached'
    """
    try:
        report = replay(document)
    except AllFivesError as error:
        return {
            "ok": False,
            "code": error.code,
            "hand": error.hand,
            "move": error.move,
            "seat": error.seat,
            "message": error_text(
                error.code, error.params, error.message, names=names, catalogue=catalogue
            ),
        }
    return {"ok": True, **report.to_json(), "playing_off": bool(report.deciding)}
