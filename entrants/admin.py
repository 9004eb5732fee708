"""Sign-up, applications, the mail to players and the rounds on the day, in the
organisers' admin, scoped like the league's to the tournaments an organiser runs.

Actions call the services (approve, decline, the waiting list, check-in, a new player
link, mail retried); the round's day page shows who has not checked in, the presence
rule for pairing, and the WhatsApp text and share link of every table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from entrants.messages import round_texts
from entrants.models import Application, Notification, RoundDay, RoundPresence, SignUp
from entrants.selectors import round_missing
from entrants.services.announce import notifications_retry
from entrants.services.applications import (
    application_approve,
    application_decline,
    entrant_check_in,
    player_link_reissue,
    signup_save,
    waiting_list_promote,
)
from entrants.services.presence import round_presence_set
from league.admin.base import TournamentScopedAdmin
from league.models import Round


@admin.register(SignUp)
class SignUpAdmin(TournamentScopedAdmin):
    list_display = ("tournament", "is_open", "opens_at", "closes_at", "cap", "has_waiting_list")
    list_filter = ("is_open",)

    def save_model(self, request: HttpRequest, obj: SignUp, form: Any, change: bool) -> None:
        signup_save(signup=obj)


@admin.register(Application)
class ApplicationAdmin(TournamentScopedAdmin):
    list_display = (
        "name",
        "partner_name",
        "shown_as",
        "tournament",
        "status",
        "player",
        "checked_in",
        "created_at",
    )
    list_filter = ("status", "tournament")
    search_fields = ("name", "nickname", "partner_name", "email", "phone")
    actions = ["approve", "decline", "promote", "check_in", "check_out", "new_link"]
    readonly_fields = (
        "tournament",
        "status",
        "entry",
        "player",
        "partner",
        "language",
        "created_at",
        "decided_at",
        "decided_by",
    )
    fields = (
        "tournament",
        "status",
        ("name", "nickname", "listed_as"),
        ("email", "phone", "may_email"),
        "club_name",
        ("partner_name", "partner_nickname", "partner_listed_as"),
        ("player", "partner"),
        "entry",
        "language",
        ("created_at", "decided_at", "decided_by"),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players apply from the tournament's page

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # What the player gave is theirs: the organiser decides, through the actions.
        return [f.name for f in Application._meta.concrete_fields if f.name != "id"]

    @admin.display(description=_("listed as"))
    def shown_as(self, obj: Application) -> str:
        if obj.partner_name:
            return f"{obj.public_name} & {obj.partner_public_name}"
        return obj.public_name

    @admin.display(description=_("checked in"), boolean=True)
    def checked_in(self, obj: Application) -> bool | None:
        return None if obj.entry is None else obj.entry.is_checked_in

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Application],
        service: Callable[[Application], Any],
        done: str,
    ) -> None:
        for application in queryset.select_related("entry", "tournament"):
            try:
                with transaction.atomic():
                    service(application)
            except ValidationError as exc:
                self.message_user(
                    request, f"{application}: {'; '.join(exc.messages)}", messages.ERROR
                )
            else:
                self.message_user(request, f"{application}: {done}", messages.SUCCESS)

    @admin.action(description=_("Approve the selected applications"), permissions=["change"])
    def approve(self, request: HttpRequest, queryset: QuerySet[Application]) -> None:
        self._each(
            request,
            queryset,
            lambda a: application_approve(application=a, user=request.user),
            gettext("approved"),
        )

    @admin.action(description=_("Decline the selected applications"), permissions=["change"])
    def decline(self, request: HttpRequest, queryset: QuerySet[Application]) -> None:
        self._each(
            request,
            queryset,
            lambda a: application_decline(application=a, user=request.user),
            gettext("declined"),
        )

    @admin.action(
        description=_("Move the waiting list up to the free places"), permissions=["change"]
    )
    def promote(self, request: HttpRequest, queryset: QuerySet[Application]) -> None:
        tournaments = {a.tournament for a in queryset.select_related("tournament")}
        moved = sum(len(waiting_list_promote(tournament=t)) for t in tournaments)
        self.message_user(
            request,
            gettext("%(n)d applications moved from the waiting list.") % {"n": moved},
            messages.SUCCESS,
        )

    @admin.action(description=_("Check the selected players in"), permissions=["change"])
    def check_in(self, request: HttpRequest, queryset: QuerySet[Application]) -> None:
        self._each(
            request,
            queryset,
            lambda a: entrant_check_in(application=a, checked_in=True),
            gettext("checked in"),
        )

    @admin.action(description=_("Mark the selected players not checked in"), permissions=["change"])
    def check_out(self, request: HttpRequest, queryset: QuerySet[Application]) -> None:
        self._each(
            request,
            queryset,
            lambda a: entrant_check_in(application=a, checked_in=False),
            gettext("not checked in"),
        )

    @admin.action(
        description=_("Replace the player link (lost or shared) and show the new one"),
        permissions=["change"],
    )
    def new_link(self, request: HttpRequest, queryset: QuerySet[Application]) -> None:
        for application in queryset:
            key = player_link_reissue(application=application)
            url = request.build_absolute_uri(reverse("entrants:player", kwargs={"key": key}))
            self.message_user(
                request,
                format_html("{}: {} <code>{}</code>", application, gettext("new player link"), url),
                messages.SUCCESS,
            )


@admin.register(Notification)
class NotificationAdmin(TournamentScopedAdmin):
    tournament_path = "round__tournament"
    list_display = ("application", "round", "email", "status", "attempts_count", "last_error")
    list_filter = ("status",)
    actions = ["retry"]
    readonly_fields = (
        "round",
        "application",
        "email",
        "status",
        "attempts_count",
        "last_error",
        "created_at",
        "sent_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Send the selected failed mail again"), permissions=["change"])
    def retry(self, request: HttpRequest, queryset: QuerySet[Notification]) -> None:
        count = notifications_retry(notifications=queryset)
        self.message_user(
            request,
            gettext("%(n)d mail queued again.") % {"n": count},
            messages.SUCCESS,
        )


@admin.register(RoundDay)
class RoundDayAdmin(TournamentScopedAdmin):
    """A round's day page instead of a change form: who is missing, the presence rule,
    and the WhatsApp texts of its tables."""

    list_display = ("__str__", "status", "day_page")
    list_filter = ("status", "tournament")
    list_display_links = None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("on the day"))
    def day_page(self, obj: RoundDay) -> str:
        url = reverse("admin:entrants_roundday_change", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, gettext("Check-in and WhatsApp"))

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        round = self.get_object(request, object_id)
        if round is None or not self.has_view_permission(request, round):
            raise Http404(gettext("This round does not exist, or is not yours to run."))
        if request.method == "POST":
            if not self.has_change_permission(request, round):
                raise PermissionDenied
            try:
                round_presence_set(
                    round=round, checked_in_only=request.POST.get("checked_in_only") == "1"
                )
            except ValidationError as exc:
                self.message_user(request, "; ".join(exc.messages), messages.ERROR)
            else:
                self.message_user(request, gettext("The presence rule is saved."), messages.SUCCESS)
            return HttpResponseRedirect(request.path)
        presence = RoundPresence.objects.filter(round=round).first()
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": str(round),
            "round": round,
            "is_draft": round.status == Round.Status.DRAFT,
            "checked_in_only": presence is not None and presence.is_checked_in_only,
            "missing": round_missing(round=round),
            "texts": round_texts(round=round) if round.status != Round.Status.DRAFT else [],
            "applications_url": reverse("admin:entrants_application_changelist")
            + f"?tournament__id__exact={round.tournament_id}",
            "notifications_url": reverse("admin:entrants_notification_changelist"),
        }
        return render(request, "admin/entrants/roundday/day.html", context)
