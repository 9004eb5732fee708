"""How every admin of the league saves: through the services that hold the rules, with a
service's refusal shown as the form's error (the whole save rolled back), and the
scoping of what an organiser sees and changes — always as ``league.policy`` answers:
the tournaments they run, and the rows of the clubs they organise.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin
from simple_history.template_utils import HistoricalRecordContextHelper

from league.hooks import tiebreak_choices
from league.models import (
    Club,
    Entry,
    Round,
    RuleSet,
    Season,
    Table,
    Tournament,
)
from league.selectors import (
    clubs_organised_by,
    clubs_registering_for,
    rule_sets_usable_by,
    seasons_usable_by,
    tournaments_managed_by,
    user_is_superuser,
)
from league.services.clubs import ownership_check

_SERVICE_ERRORS = "_league_admin_service_errors"


def instance_adopt(obj: Model, saved: Model) -> None:
    """Make the admin's unsaved ``obj`` the row a service saved (the admin goes on with it:
    its inlines, its log entry, its redirect)."""
    for field in obj._meta.concrete_fields:
        setattr(obj, field.attname, getattr(saved, field.attname))
    obj._state.adding = False
    obj._state.db = saved._state.db


def formset_save(
    formset: Any,
    *,
    create: Any,
    update: Any,
    delete: Any,
) -> None:
    """Save an inline formset row by row through services instead of ``formset.save()``:
    ``create(form)`` and ``update(form)`` return the saved row, ``delete(obj)`` removes one.
    Fills in what ``formset.save()`` would have, for the admin's change message."""
    formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
    for form in formset.initial_forms:
        obj = form.instance
        if formset.can_delete and formset._should_delete_form(form):
            delete(obj)
            formset.deleted_objects.append(obj)
        elif form.has_changed():
            formset.changed_objects.append((update(form), form.changed_data))
    for form in formset.extra_forms:
        if not form.has_changed() or (formset.can_delete and formset._should_delete_form(form)):
            continue
        formset.new_objects.append(create(form))


#: Django's blank choice ("- Select an option -") is not in its Indonesian catalogue yet;
#: naming it here puts it in ours, which also translates it in every form's select.
BLANK_CHOICE = [("", _("- Select an option -"))]


class ServiceSavedAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """An admin whose saves and deletions go through the league services.

    A service refuses with ``ValidationError`` only once the admin is saving, after the
    forms were valid; the whole save is then rolled back and the form shown again with the
    refusal as its error, in the user's language, instead of a server error.
    """

    def get_action_choices(
        self, request: HttpRequest, default_choices: Any = BLANK_CHOICE, *args: Any, **kwargs: Any
    ) -> list[tuple[str, str]]:
        return super().get_action_choices(request, default_choices, *args, **kwargs)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if request.method != "POST":
            return super().changeform_view(request, object_id, form_url, extra_context)
        try:
            with transaction.atomic():
                return super().changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as exc:
            setattr(request, _SERVICE_ERRORS, exc.messages)
            return super().changeform_view(request, object_id, form_url, extra_context)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form_class = super().get_form(request, obj, change=change, **kwargs)
        refusals: list[str] = getattr(request, _SERVICE_ERRORS, None) or []
        if not refusals:
            return form_class

        class Refused(form_class):  # type: ignore[misc,valid-type]
            def clean(self) -> Any:
                cleaned = super().clean()
                for message in refusals:
                    self.add_error(None, message)
                return cleaned

        return Refused

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        try:
            with transaction.atomic():
                return super().delete_view(request, object_id, extra_context)
        except ValidationError as exc:
            self.message_user(request, "; ".join(exc.messages), messages.ERROR)
            opts = self.model._meta
            return HttpResponseRedirect(
                reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[object_id])
            )

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            try:
                with transaction.atomic():
                    self.delete_model(request, obj)
            except ValidationError as exc:
                self.message_user(request, f"{obj}: {'; '.join(exc.messages)}", messages.ERROR)


#: Bookkeeping columns whose change says nothing to people (every save moves them).
HISTORY_SILENT_FIELDS = frozenset({"updated_at", "created_at", "cost", "quality"})


class HistoryChanges(HistoricalRecordContextHelper):
    """What changed in one version, in people's words: a choice by its label, yes/no for
    a box, "—" for nothing, lists without brackets, a seat counted from 1, a tiebreak by
    its name; bookkeeping fields left out."""

    def context_for_delta_changes(self, delta: Any) -> list[dict[str, Any]]:
        kept = [c for c in delta.changes if c.field not in HISTORY_SILENT_FIELDS]
        return super().context_for_delta_changes(dataclasses.replace(delta, changes=kept))  # type: ignore[no-any-return]

    def prepare_delta_change_value(self, change: Any, value: Any) -> Any:
        value = super().prepare_delta_change_value(change, value)
        field = self.model._meta.get_field(change.field)
        if value is None or value == "" or value == []:
            return "—"
        if getattr(field, "choices", None):
            return str(dict(field.flatchoices).get(value, value))
        if isinstance(value, bool):
            return str(_("yes") if value else _("no"))
        if change.field == "tiebreaks" and isinstance(value, list):
            labels = dict(tiebreak_choices())
            return ", ".join(labels.get(str(v), str(v)) for v in value)
        if self.model._meta.model_name == "seat" and change.field == "number":
            return str(int(value) + 1)  # stored from 0; people count seats from 1
        if isinstance(value, list):
            return ", ".join(_number(v) for v in value)
        return value


def _number(value: Any) -> str:
    """A number as people write it (4, not 4.0; 1,5 in Indonesian); anything else as is."""
    if isinstance(value, float) and not isinstance(value, bool):
        return str(int(value)) if value.is_integer() else number_format(value, use_l10n=True)
    return str(value)


class HistoryAdmin(SimpleHistoryAdmin):
    """django-simple-history's history pages, read-only: each version and what changed in
    it, from what to what (``HistoryChanges``). Reverting to an old version is never
    offered, and a POST to a version's page is refused: it would write the old row back
    without the services that guard it (a round's status, a result's listeners)."""

    def get_historical_record_context_helper(
        self, request: HttpRequest, historical_record: Any
    ) -> HistoryChanges:
        return HistoryChanges(self.model, historical_record)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: str,
        version_id: str,
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if request.method != "GET":
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)  # type: ignore[no-any-return]


class ReadOnlyPermissions:
    """An admin (or inline) that only shows rows: no add, change or delete, since every
    change to them goes through their services; open to active staff, whose queryset says
    which rows they see."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)


class TournamentRowsAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Rows of a tournament: a superuser sees all; anyone else the rows of the tournaments
    they run, found through ``tournament_path``."""

    tournament_path = "tournament"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs: QuerySet[Any] = super().get_queryset(request)
        if user_is_superuser(user=request.user):
            return qs
        managed = tournaments_managed_by(user=request.user)
        return qs.filter(**{f"{self.tournament_path}__in": managed})


class TournamentScopedAdmin(ServiceSavedAdmin):
    """Limits an organiser to the rows of the tournaments they organise.

    ``tournament_path`` is the lookup from the model to its tournament (``""`` for
    tournaments themselves).
    """

    tournament_path = "tournament"

    def _managed(self, request: HttpRequest) -> QuerySet[Tournament]:
        return tournaments_managed_by(user=request.user)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs = super().get_queryset(request)
        if user_is_superuser(user=request.user):
            return qs
        lookup = f"{self.tournament_path}__in" if self.tournament_path else "pk__in"
        return qs.filter(**{lookup: self._managed(request).values("pk")})

    def _owns(self, request: HttpRequest, obj: Model | None) -> bool:
        if obj is None or user_is_superuser(user=request.user):
            return True
        tournament: Any = obj
        for part in self.tournament_path.split("__") if self.tournament_path else ():
            tournament = getattr(tournament, part)
        if not isinstance(tournament, Tournament):
            return False
        return self._managed(request).filter(pk=tournament.pk).exists()

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return super().has_view_permission(request, obj) and self._owns(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return super().has_change_permission(request, obj) and self._owns(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return super().has_delete_permission(request, obj) and self._owns(request, obj)

    def _limit_choices(self, db_field: Any, request: HttpRequest, kwargs: dict[str, Any]) -> None:
        # An organiser can only attach rows of their own tournaments (a round's byes, a
        # seat's entry, a table's round …), never see another tournament's in a picker.
        if user_is_superuser(user=request.user):
            return
        club_choices_limit(db_field, request, kwargs, registering=True)
        managed = self._managed(request)
        model = db_field.related_model
        if model is Tournament:
            kwargs["queryset"] = managed
        elif model in (Round, Entry):
            kwargs["queryset"] = model.objects.filter(tournament__in=managed)
        elif model is Table:
            kwargs["queryset"] = Table.objects.filter(round__tournament__in=managed)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        self._limit_choices(db_field, request, kwargs)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        self._limit_choices(db_field, request, kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


def club_choices_limit(
    db_field: Any, request: HttpRequest, kwargs: dict[str, Any], *, registering: bool = False
) -> None:
    """Pickers offer an organiser only their clubs (those they register players and
    tournaments for, when ``registering``), their clubs' seasons, and the rule sets they
    may use (the shared ones and their clubs')."""
    if user_is_superuser(user=request.user):
        return
    model = db_field.related_model
    if model is Club:
        clubs = clubs_registering_for if registering else clubs_organised_by
        kwargs["queryset"] = clubs(user=request.user)
    elif model is Season:
        kwargs["queryset"] = seasons_usable_by(user=request.user)
    elif model is RuleSet:
        kwargs["queryset"] = rule_sets_usable_by(user=request.user)


class ClubScopedAdmin(ServiceSavedAdmin):
    """An admin whose rows belong to clubs: an organiser sees ``view_queryset`` and
    changes or deletes ``change_queryset`` (both ``league.policy`` answers); new rows
    go to the organiser's club; what a row points at must belong to the same club."""

    club_field = "club"
    #: New rows are registrations (players): members who organise may add them too.
    registering = False

    def view_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return self.change_queryset(request)

    def change_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        raise NotImplementedError

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs = super().get_queryset(request)
        if user_is_superuser(user=request.user):
            return qs
        return qs.filter(pk__in=self.view_queryset(request).values("pk"))

    def _in(self, qs: QuerySet[Any], obj: Model | None) -> bool:
        return obj is None or qs.filter(pk=obj.pk).exists()

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return super().has_view_permission(request, obj) and self._in(
            self.view_queryset(request), obj
        )

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return super().has_change_permission(request, obj) and self._in(
            self.change_queryset(request), obj
        )

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return super().has_delete_permission(request, obj) and self._in(
            self.change_queryset(request), obj
        )

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial = super().get_changeform_initial_data(request)
        clubs = clubs_registering_for if self.registering else clubs_organised_by
        own = list(clubs(user=request.user)[:2])
        if self.club_field and len(own) == 1 and not user_is_superuser(user=request.user):
            initial.setdefault(self.club_field, str(own[0].pk))
        return initial

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        club_missing = self.club_field and getattr(obj, f"{self.club_field}_id") is None
        if club_missing and not user_is_superuser(user=request.user):
            raise ValidationError(_("Choose the club this belongs to."), code="club_required")
        ownership_check(instance=obj)
        super().save_model(request, obj, form, change)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        club_choices_limit(db_field, request, kwargs, registering=self.registering)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)
