"""How the API answers the refusals of score entry, in the shared envelope of
``league.api.errors``: an engine refusal is HTTP 400 in the scoresheet format's shape
``{"ok": false, "error": {"hand", "move", "code", "rule", "message"}}``; a write against
an old version is HTTP 409 with the match as it stands now. Registered by
``MatchesConfig.ready``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.response import Response

from allfives import AllFivesError
from matches.messages import engine_error_json
from matches.models import Match
from matches.selectors import match_get, match_state
from matches.services.concurrency import StaleVersionError


def engine_refusal_response(exc: AllFivesError) -> Response:
    """HTTP 400: the engine refused the entry; the error says where and why."""
    return Response({"ok": False, "error": engine_error_json(exc)}, status=400)


def stale_version_response(exc: StaleVersionError) -> Response:
    """HTTP 409: someone else wrote first; here is the match as it stands now."""
    try:
        current: Any = match_state(match=match_get(match_id=exc.match_id))
    except Match.DoesNotExist:
        current = None
    return Response(
        {
            "ok": False,
            "error": {
                "code": "stale_version",
                "message": _(
                    "The match has changed since you loaded it (version %(current)d, not "
                    "%(expected)d). Check the current state and enter again."
                )
                % {"current": exc.current, "expected": exc.expected},
                "version": exc.current,
            },
            "match": current,
        },
        status=status.HTTP_409_CONFLICT,
    )
