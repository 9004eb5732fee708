"""The "API tokens" page: a signed-in user creates and revokes the keys their programs use.

A new key is shown once, on the page that answers the creation, and never again (only
its hash is stored); the answer is marked ``no-store`` so no cache keeps it.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from league.models import ApiToken
from league.selectors import api_tokens_of
from league.services.tokens import api_token_create, api_token_revoke


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=80,
        help_text=_("What the token is for, e.g. “WhatsApp bot”."),
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    new_key = None
    if request.method == "POST" and form.is_valid():
        try:
            issued = api_token_create(user=request.user, name=form.cleaned_data["name"])  # type: ignore[arg-type]
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            new_key = issued.key
            form = TokenForm()
    response = render(
        request,
        "league/api_tokens.html",
        {"form": form, "tokens": api_tokens_of(user=request.user), "new_key": new_key},
        status=400 if form.errors else 200,
    )
    return response


@login_required
@require_POST
def api_token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    api_token_revoke(token=token)
    return HttpResponseRedirect(reverse("league:api_tokens"))
