"""Token authentication for programs, against hashed keys (``league.models.ApiToken``).

Programs send ``Authorization: Token <key>`` (``Bearer <key>`` is accepted too, for
tools that only speak bearer tokens). Requests with a token are not subject to CSRF
(there is no cookie to ride on); the site's own pages use the session instead, and
DRF's ``SessionAuthentication`` enforces CSRF on every write made with the session.
Failed attempts are counted per client address and, past a limit, answered 429
(``league.api.throttling``), so that keys cannot be guessed at the request rate.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from league.api.throttling import token_guessing_check, token_guessing_record
from league.models import ApiToken
from league.services.tokens import api_token_use

KEYWORDS = (b"token", b"bearer")


class ApiTokenAuthentication(BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        token_guessing_check(request._request)
        if len(parts) != 2:
            token_guessing_record(request._request)
            raise exceptions.AuthenticationFailed(
                _("Invalid token header: give the key after the word Token."),
                code="bad_token_header",
            )
        try:
            key = parts[1].decode("ascii")
        except UnicodeError as exc:
            token_guessing_record(request._request)
            raise exceptions.AuthenticationFailed(_("Invalid token."), code="bad_token") from exc
        token = api_token_use(key=key)
        if token is None or not token.user.is_active:
            token_guessing_record(request._request)
            raise exceptions.AuthenticationFailed(_("Invalid or revoked token."), code="bad_token")
        return (token.user, token)

    def authenticate_header(self, request: Request) -> str:
        return self.keyword
