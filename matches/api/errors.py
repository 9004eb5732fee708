"""One error shape for the whole API.

Rule errors from the engine keep the SCORESHEET.md shape
``{"ok": false, "error": {"hand", "move", "code", "rule", "message"}}`` with HTTP 400;
every other 4xx (validation, authentication, permission, not found, conflict,
throttling) uses the same envelope ``{"ok": false, "error": {"code", "message", ...}}``
so that clients handle one shape. Messages are in the request's language.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from allfives import AllFivesError
from matches.messages import engine_error_json
from matches.models import Match
from matches.selectors import match_get, match_state
from matches.services.concurrency import StaleVersionError


def _stale(exc: StaleVersionError) -> Response:
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


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = gettext_lazy("The request conflicts with the current state of the data.")
    default_code = "conflict"


def _first_message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    if isinstance(detail, dict) and detail:
        return _first_message(next(iter(detail.values())))
    return str(detail)


def _codes(detail: Any) -> Any:
    if isinstance(detail, list):
        return [_codes(d) for d in detail]
    if isinstance(detail, dict):
        return {k: _codes(v) for k, v in detail.items()}
    return getattr(detail, "code", "invalid")


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: map engine, Django and DRF errors to one envelope."""
    if isinstance(exc, StaleVersionError):
        return _stale(exc)
    if isinstance(exc, AllFivesError):
        return Response({"ok": False, "error": engine_error_json(exc)}, status=400)
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            exc = exceptions.ValidationError(
                {field: [str(m) for m in msgs] for field, msgs in exc.message_dict.items()}
            )
        else:
            exc = exceptions.ValidationError(
                [str(m) for m in exc.messages], code=getattr(exc, "code", None) or "invalid"
            )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, ProtectedError | RestrictedError | IntegrityError):
        # A row still in use, or a write racing another one to a unique value.
        exc = Conflict()
    elif isinstance(exc, DataError):
        # A value the database cannot hold (e.g. a number out of range) is bad input.
        exc = exceptions.ValidationError(_("A value is out of range."), code="out_of_range")
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    detail = exc.detail
    codes = exc.get_codes()
    if isinstance(codes, list) and len(codes) == 1 and isinstance(codes[0], str):
        codes = codes[0]  # one service ValidationError: keep its code
    error: dict[str, Any] = {
        "code": codes if isinstance(codes, str) else exc.default_code,
        "message": _first_message(detail),
    }
    if isinstance(detail, dict | list) and response.status_code == status.HTTP_400_BAD_REQUEST:
        error["fields"] = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        error["field_codes"] = _codes(detail)
    extra = getattr(exc, "extra", None)
    if isinstance(extra, dict):
        error.update(extra)
    response.data = {"ok": False, "error": error}
    return response
