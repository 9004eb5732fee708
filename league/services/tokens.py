"""API tokens: issuing, revoking and checking the keys programs send.

A key is ``kel_`` followed by 40 random URL-safe characters. Only its SHA-256 is
stored, so a leaked database does not leak working keys; the key is returned once,
by ``api_token_create``, and cannot be shown again.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import ApiToken

KEY_PREFIX = "kel_"
PREFIX_LENGTH = 12  # what is stored in clear to tell tokens apart: "kel_" + 8 characters
MAX_ACTIVE_TOKENS = 20
# Recording every use would write on every request; once a minute is enough to tell.
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A new token and its key: the only moment the key is known."""

    token: ApiToken
    key: str


def api_token_hash(key: str) -> str:
    """The stored form of a key."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def api_token_create(*, user: AbstractBaseUser, name: str) -> IssuedToken:
    """Issue a token for ``user``; the returned key is shown once and never stored."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": [_("Give the token a name.")]}, code="name_required")
    if len(name) > ApiToken._meta.get_field("name").max_length:  # type: ignore[operator]
        raise ValidationError({"name": [_("The name is too long.")]}, code="name_too_long")
    active = ApiToken.objects.filter(user__pk=user.pk, revoked_at__isnull=True).count()
    if active >= MAX_ACTIVE_TOKENS:
        raise ValidationError(
            _("You have %(n)d active tokens: revoke one first.") % {"n": active},
            code="too_many_tokens",
        )
    key = KEY_PREFIX + secrets.token_urlsafe(30)
    token = ApiToken.objects.create(
        user_id=user.pk, name=name, key_prefix=key[:PREFIX_LENGTH], key_hash=api_token_hash(key)
    )
    return IssuedToken(token=token, key=key)


def api_token_revoke(*, token: ApiToken) -> ApiToken:
    """Revoke a token: it never authenticates again (revoking twice changes nothing)."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def api_token_use(*, key: str) -> ApiToken | None:
    """The active token with this key (its user loaded), noting when it was used; else None."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=api_token_hash(key), revoked_at__isnull=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
