"""One error shape for the whole API.

Rule errors from the engine keep the docs/scoresheet.md shape
``{"ok": false, "error": {"hand", "move", "code", "rule", "message"}}`` with HTTP 400;
every other 4xx (validation, authentication, permission, not found, conflict,
throttling) uses the same envelope ``{"ok": false, "error": {"code", "message", ...}}``
so that clients handle one shape. Messages are in the request's language. A database
that is down or silent is 503 ``unavailable`` with a Retry-After: ``is_database_away``
is the one place that tells such an error from a bug, for the API and the site's pages
alike (``league.api.views.api_server_error``). What Django answers
before or after DRF (unknown paths, bodies over its own size limit, server errors) is
shaped the same by ``config.urls``' handlers (``league.api.views``).

Every app's API shares this handler; an app whose exceptions need a shape of their own
registers a renderer (``api_error_renderer_add``) in its ``AppConfig.ready``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError, InterfaceError, OperationalError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler

#: Renders one kind of exception as a complete API response (status and envelope).
type ErrorRenderer = Callable[[Any], Response]

_renderers: dict[type[Exception], ErrorRenderer] = {}


def api_error_renderer_add(kind: type[Exception], renderer: ErrorRenderer) -> None:
    """Register how an app's own exceptions answer (``matches``: engine refusals, HTTP 400
    in the scoresheet shape, and stale versions, HTTP 409 with the current match)."""
    _renderers[kind] = renderer


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = gettext_lazy("The request conflicts with the current state of the data.")
    default_code = "conflict"


RETRY_AFTER_SECONDS = 5
"""Seconds a client is told to wait before sending again a request the database missed."""


def is_database_away(error: BaseException | None) -> bool:
    """Whether ``error`` means the database is down, silent or too slow just now.

    Such a request may succeed if sent again shortly (503 with Retry-After), where a bug
    would fail again (500). Connecting refused or timed out, a statement cancelled by its
    timeout, a lost connection: the driver reports each as an ``OperationalError``, or
    as an ``InterfaceError`` when the connection it held was already closed.
    """
    return isinstance(error, OperationalError | InterfaceError)


class DatabaseUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = gettext_lazy("The database is not answering; try again shortly.")
    default_code = "unavailable"
    wait = RETRY_AFTER_SECONDS  # DRF's handler sends it as Retry-After


def database_unavailable() -> JsonResponse:
    """503 in the envelope, for a database that is down (outside DRF's handling too)."""
    response = JsonResponse(
        {
            "ok": False,
            "error": {
                "code": DatabaseUnavailable.default_code,
                "message": str(DatabaseUnavailable.default_detail),
            },
        },
        status=DatabaseUnavailable.status_code,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


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
    for kind, renderer in _renderers.items():
        if isinstance(exc, kind):
            return renderer(exc)
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
    elif is_database_away(exc):
        exc = DatabaseUnavailable()
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
        # Both are objects keyed by field; errors of no one field go under non_field_errors.
        error["fields"] = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        error["field_codes"] = _codes(error["fields"])
    extra = getattr(exc, "extra", None)
    if isinstance(extra, dict):
        error.update(extra)
    response.data = {"ok": False, "error": error}
    request = context.get("request")
    if request is not None:
        # Errors are JSON whatever the view renders otherwise (the schema view's YAML).
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
    return response
