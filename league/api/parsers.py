"""Request bodies the API accepts: JSON only, and never more than a size limit.

Django enforces ``DATA_UPLOAD_MAX_MEMORY_SIZE`` on form bodies but DRF reads JSON
from the raw stream, so without this a client could send a body of any size. A
body over the limit is refused with 413 before it is parsed, and pathological JSON
(nesting so deep it exhausts the parser) is a 400, never a server error.
"""

from __future__ import annotations

import codecs
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, parsers, status
from rest_framework.utils import json


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _("The request body is too large.")
    default_code = "too_large"


def max_body_bytes() -> int:
    return int(getattr(settings, "API_MAX_BODY_BYTES", settings.DATA_UPLOAD_MAX_MEMORY_SIZE))


class LimitedJSONParser(parsers.JSONParser):
    """DRF's JSON parser with a size limit and no crash on deeply nested input."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        limit = max_body_bytes()
        request = parser_context.get("request")
        meta = getattr(request, "META", {}) if request is not None else {}
        try:
            declared = int(meta.get("CONTENT_LENGTH") or 0)
        except (TypeError, ValueError):
            declared = 0
        if declared > limit:
            raise RequestTooLarge()
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge()
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            "".encode(encoding)  # only text codecs: a bytes codec could inflate the body
        except (LookupError, UnicodeError) as exc:
            raise exceptions.ParseError(_("Unsupported charset.")) from exc
        try:
            text = codecs.decode(raw, encoding)
            return json.loads(text)  # refuses NaN and Infinity
        except (ValueError, RecursionError) as exc:
            raise exceptions.ParseError(
                _("JSON parse error: %(error)s") % {"error": str(exc)[:200]}
            ) from exc
