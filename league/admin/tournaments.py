"""Tournaments and their entries in the organisers' admin; entries are created and
deleted through the registration services, so their members and rules always hold.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from import_export import fields, resources
from import_export.admin import ImportExportModelAdmin
from import_export.widgets import BooleanWidget, ForeignKeyWidget

from league.admin.base import HistoryAdmin, TournamentScopedAdmin, formset_save, instance_adopt
from league.admin.fields import PlacingPointsField, TiebreakOrderField
from league.imports import CsvImportForm
from league.models import (
    Entry,
    Partnership,
    Player,
    Tournament,
)
from league.selectors import (
    club_can_manage,
    club_can_register,
    clubs_registering_for,
    tournaments_managed_by,
    user_is_organiser,
    user_is_superuser,
)
from league.services.clubs import ownership_check
from league.services.records import entry_delete, record_update, tournament_update
from league.services.registration import (
    entry_check,
    entry_create,
    entry_withdraw,
)
from league.services.rounds import (
    tournament_duplicate,
)


class EntryResource(resources.ModelResource):
    """Entries in a CSV file (tournament, player or partnership by slug, seed). A new
    row is registered by ``entry_create`` — its members follow, and a player already in
    the tournament is that row's error; an existing row changes its seed only. Withdrawal
    is the "Withdraw" action, never a column."""

    tournament = fields.Field(
        column_name="tournament",
        attribute="tournament",
        widget=ForeignKeyWidget(Tournament, field="slug"),
    )
    player = fields.Field(
        column_name="player", attribute="player", widget=ForeignKeyWidget(Player, field="slug")
    )
    partnership = fields.Field(
        column_name="partnership",
        attribute="partnership",
        widget=ForeignKeyWidget(Partnership, field="slug"),
    )
    #: 1 or 0, as the file has it: the same in every language (never Python's "False").
    is_withdrawn = fields.Field(
        column_name="is_withdrawn", attribute="is_withdrawn", readonly=True, widget=BooleanWidget()
    )

    class Meta:
        model = Entry
        fields = ("id", "tournament", "player", "partnership", "seed", "is_withdrawn")
        import_id_fields = ("tournament", "player", "partnership")
        clean_model_instances = True
        use_transactions = True

    def __init__(self, *, user: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.user = user

    def before_import(self, dataset: Any, **kwargs: Any) -> None:
        # A file of players needs no partnership column, and one of partnerships no player.
        for column in ("player", "partnership"):
            if column not in (dataset.headers or []):
                dataset.append_col([""] * len(dataset), header=column)

    def before_save_instance(self, instance: Entry, row: Any, **kwargs: Any) -> None:
        managed = tournaments_managed_by(user=self.user) if self.user is not None else None
        if managed is not None and not managed.filter(pk=instance.tournament_id).exists():
            raise ValidationError(
                _("You do not run the tournament %(t)s.") % {"t": instance.tournament}
            )

    def do_instance_save(self, instance: Entry, is_create: bool) -> None:
        if is_create:
            saved = entry_create(
                tournament=instance.tournament,
                player=instance.player,
                partnership=instance.partnership,
                seed=instance.seed,
            )
        else:
            saved = record_update(
                instance=Entry.objects.get(pk=instance.pk), fields={"seed": instance.seed}
            )
        instance_adopt(instance, saved)


class EntryForm(forms.ModelForm):  # type: ignore[type-arg]
    """An entry as ``entry_create`` takes it: who plays is chosen once, when registering
    (their seats and members follow from it), and checked by the service's rules here so a
    refusal shows on the entry's own row."""

    IDENTITY = ("tournament", "player", "partnership")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            for name in self.IDENTITY:
                if name in self.fields:
                    self.fields[name].disabled = True

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.instance.pk is None and not self.errors:
            tournament = cleaned.get("tournament")
            if tournament is None and self.instance.tournament_id is not None:
                tournament = self.instance.tournament
            if tournament is not None:
                try:
                    entry_check(
                        tournament=tournament,
                        player=cleaned.get("player"),
                        partnership=cleaned.get("partnership"),
                    )
                except ValidationError as exc:
                    # Shown at the field naming who plays, where the organiser chose them.
                    field = "partnership" if cleaned.get("partnership") else "player"
                    if field in self.fields:
                        self.add_error(field, exc.messages)
                    else:
                        raise ValidationError(exc.messages) from exc
        return cleaned


def _entry_create(form: forms.ModelForm, tournament: Tournament) -> Entry:  # type: ignore[type-arg]
    data = form.cleaned_data
    entry = entry_create(
        tournament=tournament,
        player=data.get("player"),
        partnership=data.get("partnership"),
        seed=data.get("seed"),
    )
    if "is_checked_in" in data and data["is_checked_in"] != entry.is_checked_in:
        entry = record_update(instance=entry, fields={"is_checked_in": data["is_checked_in"]})
    return entry


def _entry_update(form: forms.ModelForm) -> Entry:  # type: ignore[type-arg]
    entry = Entry.objects.get(pk=form.instance.pk)
    editable = ("seed", "is_checked_in")
    return record_update(
        instance=entry, fields={k: form.cleaned_data[k] for k in editable if k in form.cleaned_data}
    )


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    form = EntryForm
    extra = 0
    fields = ["player", "partnership", "seed", "is_withdrawn", "withdrawn_round"]
    # Withdrawal is the "Withdraw" action on entries (entry_withdraw), not a checkbox.
    readonly_fields = ["is_withdrawn", "withdrawn_round"]
    autocomplete_fields = ["player", "partnership"]
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(TournamentScopedAdmin, HistoryAdmin):
    tournament_path = ""
    list_display = ["name", "season", "format", "table_size", "rounds_count", "status"]
    list_filter = ["status", "format", "table_size", "season"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ["organisers", "scorekeepers"]
    inlines = [EntryInline]
    actions = ["duplicate_settings"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "name",
                    "slug",
                    "club",
                    "accepts_visitors",
                    "season",
                    "division",
                    "status",
                    "starts_on",
                    "venue",
                ]
            },
        ),
        (
            _("Format"),
            {"fields": ["format", "table_size", "rounds_count", "rule_set", "allow_byes", "seed"]},
        ),
        (_("Score entry"), {"fields": ["entry_mode", "requires_confirmation"]}),
        (
            _("Standings"),
            {
                "fields": [
                    "points_win",
                    "points_tie",
                    "points_loss",
                    "placing_points_3",
                    "points_bye",
                    "tiebreaks",
                ]
            },
        ),
        (_("People"), {"fields": ["organisers", "scorekeepers"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return super().get_queryset(request).select_related("season")

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        # The JSON lists are arranged and typed as people think of them, never as JSON.
        fields = {"tiebreaks": TiebreakOrderField, "placing_points_3": PlacingPointsField}
        if db_field.name in fields:
            return fields[db_field.name](
                label=capfirst(db_field.verbose_name), help_text=db_field.help_text
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial = super().get_changeform_initial_data(request)
        own = list(clubs_registering_for(user=request.user)[:2])
        if len(own) == 1:
            initial.setdefault("club", str(own[0].pk))
        return initial

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        # A guest organiser of one tournament runs it but cannot move it to another club.
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None and not club_can_manage(user=request.user, club_id=obj.club_id):
            readonly.append("club")
        return readonly

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        # The season's club hosts the tournament; what it points at is the club's own.
        ownership_check(instance=obj)
        if not change and not club_can_register(user=request.user, club_id=obj.club_id):
            raise ValidationError(_("You do not organise this club."), code="club_not_organised")
        if change:
            # Through the service, so that new points or tiebreaks re-rank the standings.
            stored = Tournament.objects.get(pk=obj.pk)
            plain = {
                f.name: getattr(obj, f.name)
                for f in Tournament._meta.concrete_fields
                if f.name in form.changed_data
            }
            instance_adopt(obj, tournament_update(tournament=stored, fields=plain))
            return
        super().save_model(request, obj, form, change)
        if not change and not user_is_superuser(user=request.user):
            # Whoever creates a tournament organises it.
            creator: int = request.user.pk  # type: ignore[assignment]  # staff are signed in
            transaction.on_commit(lambda: obj.organisers.add(creator))

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Entry:
            super().save_formset(request, form, formset, change)
            return
        formset_save(
            formset,
            create=lambda f: _entry_create(f, formset.instance),
            update=_entry_update,
            delete=lambda entry: entry_delete(entry=entry),
        )

    @admin.action(description=_("Duplicate the selected tournaments' settings"))
    def duplicate_settings(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            copy = tournament_duplicate(tournament=tournament)
            self.message_user(request, _("Created %(t)s.") % {"t": copy}, messages.SUCCESS)


@admin.register(Entry)
class EntryAdmin(TournamentScopedAdmin, ImportExportModelAdmin):
    resource_classes = [EntryResource]
    import_form_class = CsvImportForm
    list_display = ["__str__", "tournament", "seed", "is_withdrawn", "withdrawn_round"]
    list_filter = ["is_withdrawn", "tournament"]
    search_fields = ["player__name", "partnership__name", "tournament__name"]
    autocomplete_fields = ["player", "partnership"]
    actions = ["withdraw"]
    form = EntryForm

    def has_export_permission(self, request: HttpRequest) -> bool:
        return user_is_organiser(user=request.user)

    def has_import_permission(self, request: HttpRequest) -> bool:
        return user_is_organiser(user=request.user)

    def get_import_resource_kwargs(self, request: HttpRequest, **kwargs: Any) -> dict[str, Any]:
        user = None if user_is_superuser(user=request.user) else request.user
        return {**super().get_import_resource_kwargs(request, **kwargs), "user": user}

    def get_readonly_fields(self, request: HttpRequest, obj: Entry | None = None) -> Any:
        # Withdrawal is the "Withdraw" action (entry_withdraw), not a checkbox.
        return [*super().get_readonly_fields(request, obj), "is_withdrawn", "withdrawn_round"]

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        if change:
            instance_adopt(obj, _entry_update(form))
        else:
            instance_adopt(obj, _entry_create(form, form.cleaned_data["tournament"]))

    def delete_model(self, request: HttpRequest, obj: Entry) -> None:
        entry_delete(entry=obj)

    @admin.action(description=_("Withdraw the selected entries"))
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        done = 0
        for entry in queryset.select_related("tournament"):
            try:
                entry_withdraw(entry=entry)
            except ValidationError as exc:
                self.message_user(request, "; ".join(exc.messages), messages.WARNING)
            else:
                done += 1
        if done:
            self.message_user(
                request,
                ngettext("%(n)d entry withdrawn.", "%(n)d entries withdrawn.", done) % {"n": done},
                messages.SUCCESS,
            )
