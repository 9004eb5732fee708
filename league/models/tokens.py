"""API tokens: keys for programs, stored hashed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    """A key a program sends as ``Authorization: Token <key>`` (or ``Bearer <key>``).

    Only the key's SHA-256 is stored: the key itself is shown once, when it is
    created, and cannot be read back. ``key_prefix`` (the first characters) lets a
    person tell their tokens apart. A revoked token is kept (for the record) and
    never authenticates again.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=80)
    key_prefix = models.CharField(_("key starts with"), max_length=12, editable=False)
    key_hash = models.CharField(_("key hash (SHA-256)"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.key_prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
