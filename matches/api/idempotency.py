"""``Idempotency-Key`` for the API's writes: a resend gets the first response.

A phone on a flaky network resends a request whose response it never saw. With the
header, the first successful response is stored with the write, in the same
transaction, under (key, user, endpoint); a resend returns it and records nothing
again. Two copies racing each other end the same way: the loser's write is rolled
back (stale version, or the key's unique constraint) and it returns the winner's
response. The same key with a different body is refused (HTTP 422).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import APIException, ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from matches.models import IdempotentRequest
from matches.selectors import idempotent_request_get
from matches.services.idempotency import idempotent_request_store

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 200

type Handler = Callable[..., Response]


def _digest(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(f"{request.query_params.urlencode()}\n{body}".encode()).hexdigest()


class IdempotencyKeyReused(APIException):
    status_code = 422
    default_code = "idempotency_key_reused"
    default_detail = gettext_lazy("This Idempotency-Key was already used for another request.")


def _replayed(stored: IdempotentRequest, digest: str) -> Response:
    if stored.request_hash != digest:
        raise IdempotencyKeyReused  # the API's error envelope answers it
    response = Response(stored.body, status=stored.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def idempotent(handler: Handler) -> Handler:
    """Make an API view method honour the ``Idempotency-Key`` header."""

    @wraps(handler)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER, "").strip()
        if not key or not request.user.is_authenticated:
            return handler(view, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            raise ParseError(_("The Idempotency-Key is too long."), code="bad_idempotency_key")
        endpoint = f"{request.method} {request.path}"
        digest = _digest(request)
        found = idempotent_request_get(key=key, user_id=request.user.pk, endpoint=endpoint)
        if found is not None:
            return _replayed(found, digest)
        try:
            with transaction.atomic():
                response = handler(view, request, *args, **kwargs)
                if 200 <= response.status_code < 300:
                    idempotent_request_store(
                        key=key,
                        user=request.user,
                        endpoint=endpoint,
                        request_hash=digest,
                        status_code=response.status_code,
                        body=response.data,
                    )
        except Exception:
            # A copy of this request may have won the race (stale version, or the
            # key's unique constraint): answer as it did.
            found = idempotent_request_get(key=key, user_id=request.user.pk, endpoint=endpoint)
            if found is not None:
                return _replayed(found, digest)
            raise
        return response

    return wrapper
