"""API tokens in the admin: created and revoked through the token services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from league.models import (
    ApiToken,
)
from league.selectors import user_is_superuser
from league.services.tokens import api_token_create, api_token_revoke


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Tokens for programs. Creating one shows its key once (in the confirmation
    message); only the hash is stored. Staff who are not superusers see their own."""

    list_display = ["name", "user", "key_prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "user__username", "key_prefix"]
    readonly_fields = ["key_prefix", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ApiToken]:
        qs = super().get_queryset(request).select_related("user")
        return qs if user_is_superuser(user=request.user) else qs.filter(user=request.user)

    def get_fields(self, request: HttpRequest, obj: ApiToken | None = None) -> Any:
        if obj is None:
            return ["user", "name"] if user_is_superuser(user=request.user) else ["name"]
        return ["user", "name", *self.readonly_fields]

    def get_readonly_fields(self, request: HttpRequest, obj: ApiToken | None = None) -> list[str]:
        return [*self.readonly_fields, "user", "name"] if obj is not None else []

    def save_model(self, request: HttpRequest, obj: ApiToken, form: Any, change: bool) -> None:
        if change:
            return  # a token is never edited: revoke it and create another
        user = obj.user if user_is_superuser(user=request.user) and obj.user_id else request.user
        assert user.is_authenticated  # the admin only serves signed-in staff
        issued = api_token_create(user=user, name=obj.name)
        obj.pk, obj.user = issued.token.pk, issued.token.user
        obj.key_prefix, obj.created_at = issued.token.key_prefix, issued.token.created_at
        self.message_user(
            request,
            _("Token %(name)s created. Copy its key now, it will not be shown again: %(key)s")
            % {"name": obj.name, "key": issued.key},
            messages.WARNING,
        )

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        for token in queryset:
            api_token_revoke(token=token)
        self.message_user(request, _("Tokens revoked."), messages.SUCCESS)
