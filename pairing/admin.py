"""Pairing in the organisers' admin: the "Pair this round" action and, on a round's change
page, a panel with the pairing's progress (a ``<progress>`` bar refreshed by htmx), the
quality report, each table's cost breakdown and the warnings about a hand-edited draft.

``pairing`` sits above ``league``: it extends the league's ``RoundAdmin`` with a mixin and
registers the result in its place. Like every admin action it only parses input and
calls the services; the pairing itself runs in ``round_pair_task``, which
``round_pair_request`` enqueues once the request's transaction commits.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from league import admin as league_admin
from league.models import Round
from pairing.services.checks import round_pair_refusal
from pairing.services.progress import round_pair_progress
from pairing.services.readback import round_draw
from pairing.services.requests import round_pair_request

PROGRESS_LABELS = {
    "idle": _("Not paired by the service yet."),
    "queued": _("Queued: waiting for a worker…"),
    "running": _("Pairing…"),
    "done": _("Pairing finished."),
    "failed": _("Pairing failed."),
}

POLL_SECONDS = 1


def _progress_context(round_id: int) -> dict[str, Any]:
    progress = round_pair_progress(round_id=round_id)
    return {
        "progress": progress,
        "progress_label": PROGRESS_LABELS.get(progress["state"], ""),
        "progress_is_active": progress["state"] in ("queued", "running"),
        "progress_url": reverse("admin:league_round_pairing_progress", args=[round_id]),
        "poll_seconds": POLL_SECONDS,
    }


class RoundPairingAdminMixin:
    """Adds pairing to ``RoundAdmin``: list ``"pair"`` among its actions."""

    change_form_template: ClassVar[str | None] = "admin/pairing/round/change_form.html"

    # Provided by ModelAdmin.
    admin_site: Any
    message_user: Any
    get_object: Any
    has_change_permission: Any
    has_view_permission: Any

    def _pair_enqueue(self, request: HttpRequest, round: Round, seed: int | None) -> bool:
        try:
            round_pair_request(round=round, seed=seed)
        except ValidationError as exc:
            self.message_user(request, f"{round}: {'; '.join(exc.messages)}", messages.ERROR)
            return False
        return True

    @admin.action(description=_("Pair the selected rounds (draft rounds outside a knockout)"))
    def pair(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for round in queryset.select_related("tournament"):
            if self._pair_enqueue(request, round, None):
                self.message_user(
                    request,
                    _("%(round)s: pairing started; its page shows the progress.")
                    % {"round": round},
                    messages.SUCCESS,
                )

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<path:object_id>/pairing/progress/",
                self.admin_site.admin_view(self.pairing_progress_view),
                name="league_round_pairing_progress",
            ),
            path(
                "<path:object_id>/pairing/run/",
                self.admin_site.admin_view(self.pairing_run_view),
                name="league_round_pairing_run",
            ),
        ]
        return own + list(super().get_urls())  # type: ignore[misc]

    def _round(self, request: HttpRequest, object_id: str, *, change: bool) -> Round:
        round = self.get_object(request, unquote(object_id))
        if round is None:
            raise Http404
        allowed = self.has_change_permission if change else self.has_view_permission
        if not allowed(request, round):
            raise PermissionDenied
        return round  # type: ignore[no-any-return]

    def pairing_progress_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The progress fragment htmx polls; asks for a reload once a run it watched ends."""
        return require_GET(self._progress)(request, object_id)

    def _progress(self, request: HttpRequest, object_id: str) -> HttpResponse:
        round = self._round(request, object_id, change=False)
        context = _progress_context(round.pk)
        response = render(request, "admin/pairing/round/pairing_progress.html", context)
        if request.headers.get("HX-Request") and not context["progress_is_active"]:
            response["HX-Refresh"] = "true"
        return response

    def pairing_run_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The panel's "Pair this round" button, with an optional seed."""
        return require_POST(self._run_pairing)(request, object_id)

    def _run_pairing(self, request: HttpRequest, object_id: str) -> HttpResponse:
        round = self._round(request, object_id, change=True)
        raw = request.POST.get("seed", "").strip()
        seed: int | None = None
        if raw:
            if not raw.isdigit():
                self.message_user(request, _("The seed is a whole number."), messages.ERROR)
                return HttpResponseRedirect(self._change_url(round))
            seed = int(raw)
        if self._pair_enqueue(request, round, seed):
            self.message_user(request, _("Pairing started."), messages.SUCCESS)
        return HttpResponseRedirect(self._change_url(round))

    @staticmethod
    def _change_url(round: Round) -> str:
        return reverse("admin:league_round_change", args=[round.pk])

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        extra = dict(extra_context or {})
        round = self.get_object(request, unquote(object_id))
        if round is not None and self.has_view_permission(request, round):
            extra.update(_progress_context(round.pk))
            extra["pairing"] = round_draw(round=round)
            refusal = round_pair_refusal(round=round)
            may_change = bool(self.has_change_permission(request, round))
            extra["pairing_can_run"] = refusal is None and may_change
            # A draft the check refuses says why where its button would be.
            is_draft = round.status == Round.Status.DRAFT
            extra["pairing_refusal"] = refusal if is_draft and may_change else None
            extra["pairing_run_url"] = reverse("admin:league_round_pairing_run", args=[round.pk])
        return super().change_view(request, object_id, form_url, extra)  # type: ignore[misc,no-any-return]


# The pairing mixin narrows ``change_form_template`` to a plain template name.
class PairingRoundAdmin(RoundPairingAdminMixin, league_admin.RoundAdmin):  # type: ignore[misc]
    """The league's round admin with the pairing action and panel."""

    actions = ["pair", *league_admin.RoundAdmin.actions]


admin.site.unregister(Round)
admin.site.register(Round, PairingRoundAdmin)
