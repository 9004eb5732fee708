"""The organisers' admin panel.

Organisers (staff users in the "Organisers" group) see and change only the
tournaments they organise and what hangs off them; superusers see everything.
Actions call the league services; they hold no rules of their own.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from import_export import fields, resources
from import_export.admin import ImportExportModelAdmin
from import_export.widgets import ForeignKeyWidget
from simple_history.admin import SimpleHistoryAdmin

from league.imports import CsvImportForm
from league.models import (
    ApiToken,
    Division,
    Entry,
    EntryMember,
    Partnership,
    Player,
    Round,
    RuleSet,
    Season,
    Seat,
    Table,
    TableResult,
    TableResultSide,
    Tournament,
)
from league.selectors import tournaments_managed_by, user_is_superuser
from league.services.records import entry_delete, record_update, table_delete
from league.services.registration import (
    entry_check,
    entry_create,
    entry_withdraw,
    players_register_bulk,
)
from league.services.results import SideOutcome, table_result_clear, table_result_record
from league.services.rounds import (
    round_close,
    round_create,
    round_publish,
    seat_delete,
    seat_set,
    table_add,
    table_update,
    tournament_duplicate,
)
from league.services.tokens import api_token_create, api_token_revoke

admin.site.site_header = _("Kelipatan — organisers")
admin.site.site_title = _("Kelipatan")
admin.site.index_title = _("Clubs, seasons and tournaments")


# --- Saving through the services ----------------------------------------------------------

_SERVICE_ERRORS = "_league_admin_service_errors"


def _adopt(obj: Model, saved: Model) -> None:
    """Make the admin's unsaved ``obj`` the row a service saved (the admin goes on with it:
    its inlines, its log entry, its redirect)."""
    for field in obj._meta.concrete_fields:
        setattr(obj, field.attname, getattr(saved, field.attname))
    obj._state.adding = False
    obj._state.db = saved._state.db


def _formset_save(
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


class ServiceSavedAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """An admin whose saves and deletions go through the league services.

    A service refuses with ``ValidationError`` only once the admin is saving, after the
    forms were valid; the whole save is then rolled back and the form shown again with the
    refusal as its error, in the user's language, instead of a server error.
    """

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


# --- Players and partnerships ------------------------------------------------------------


class PlayerResource(resources.ModelResource):
    class Meta:
        model = Player
        fields = ("id", "name", "nickname", "club", "slug", "email", "phone", "is_active")
        import_id_fields = ("slug",)
        skip_unchanged = True
        report_skipped = True
        clean_model_instances = True

    def before_import(self, dataset: Any, **kwargs: Any) -> None:
        # A file may leave the slug out: it is derived from name and nickname.
        if "slug" not in (dataset.headers or []):
            names = dataset["name"] if "name" in dataset.headers else [""] * len(dataset)
            nicks = dataset["nickname"] if "nickname" in dataset.headers else [""] * len(dataset)
            dataset.append_col(
                [
                    slugify(f"{n or ''} {k or ''}".strip())
                    for n, k in zip(names, nicks, strict=True)
                ],
                header="slug",
            )


class RegisterPlayersForm(forms.Form):
    tournament = forms.ModelChoiceField(queryset=Tournament.objects.none(), label=_("Tournament"))

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = tournaments_managed_by(user=user).exclude(
            status=Tournament.Status.FINISHED
        )


@admin.register(Player)
class PlayerAdmin(ImportExportModelAdmin, SimpleHistoryAdmin):
    resource_classes = [PlayerResource]
    import_form_class = CsvImportForm
    list_display = ["name", "nickname", "club", "is_active", "created_at"]
    list_filter = ["is_active", "club"]
    search_fields = ["name", "nickname", "club", "slug"]
    prepopulated_fields = {"slug": ("name",)}
    actions = ["register_in_tournament"]

    @admin.action(description=_("Register the selected players in a tournament"))
    def register_in_tournament(
        self, request: HttpRequest, queryset: QuerySet[Player]
    ) -> HttpResponse | None:
        if "apply" in request.POST:
            form = RegisterPlayersForm(request.POST, user=request.user)
            if form.is_valid():
                tournament = form.cleaned_data["tournament"]
                try:
                    entries = players_register_bulk(tournament=tournament, players=queryset)
                except ValidationError as exc:
                    self.message_user(request, "; ".join(exc.messages), messages.ERROR)
                    return None
                self.message_user(
                    request,
                    ngettext(
                        "%(n)d player registered in %(t)s.",
                        "%(n)d players registered in %(t)s.",
                        len(entries),
                    )
                    % {"n": len(entries), "t": tournament},
                    messages.SUCCESS,
                )
                return None
        else:
            form = RegisterPlayersForm(user=request.user)
        return TemplateResponse(
            request,
            "admin/league/register_players.html",
            {
                **self.admin_site.each_context(request),
                "title": _("Register players in a tournament"),
                "form": form,
                "players": queryset,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            },
        )


@admin.register(Partnership)
class PartnershipAdmin(SimpleHistoryAdmin):
    list_display = ["name", "player_a", "player_b", "is_active"]
    list_filter = ["is_active", "seasons"]
    search_fields = ["name", "player_a__name", "player_b__name"]
    autocomplete_fields = ["player_a", "player_b"]
    filter_horizontal = ["seasons"]
    prepopulated_fields = {"slug": ("name",)}


# --- Rules, seasons, divisions -----------------------------------------------------------


@admin.register(RuleSet)
class RuleSetAdmin(SimpleHistoryAdmin):
    list_display = ["name", "target_2", "target_3", "target_4", "blocked_award"]
    search_fields = ["name"]
    fieldsets = [
        (None, {"fields": ["name", "description", "blocked_award"]}),
        (_("Targets"), {"fields": ["target_2", "target_3", "target_4"]}),
        (_("Tiles dealt"), {"fields": ["hand_size_2", "hand_size_3", "hand_size_4"]}),
    ]


class DivisionInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Division
    extra = 0


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "starts_on", "ends_on", "rule_set", "status"]
    list_filter = ["status", "rule_set"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ("name",)}
    inlines = [DivisionInline]


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "season", "order", "promotion_count", "relegation_count"]
    list_filter = ["season"]
    search_fields = ["name", "season__name"]


# --- Tournaments, entries ----------------------------------------------------------------


class EntryResource(resources.ModelResource):
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

    class Meta:
        model = Entry
        fields = ("id", "tournament", "player", "partnership", "seed", "is_withdrawn")
        import_id_fields = ("tournament", "player", "partnership")
        clean_model_instances = True
        use_transactions = True

    def after_save_instance(self, instance: Entry, row: Any, **kwargs: Any) -> None:
        members = (
            list(instance.partnership.players)
            if instance.partnership is not None
            else [instance.player]
        )
        for player in members:
            EntryMember.objects.get_or_create(
                entry=instance, player=player, tournament=instance.tournament
            )


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
class TournamentAdmin(TournamentScopedAdmin, SimpleHistoryAdmin):
    tournament_path = ""
    list_display = ["name", "season", "format", "table_size", "rounds_count", "status"]
    list_filter = ["status", "format", "table_size", "season"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ["organisers", "scorekeepers"]
    inlines = [EntryInline]
    actions = ["duplicate_settings"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "season", "division", "status", "starts_on", "venue"]}),
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

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change and not user_is_superuser(user=request.user):
            # Whoever creates a tournament organises it.
            creator: int = request.user.pk  # type: ignore[assignment]  # staff are signed in
            transaction.on_commit(lambda: obj.organisers.add(creator))

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Entry:
            super().save_formset(request, form, formset, change)
            return
        _formset_save(
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

    def get_readonly_fields(self, request: HttpRequest, obj: Entry | None = None) -> Any:
        # Withdrawal is the "Withdraw" action (entry_withdraw), not a checkbox.
        return [*super().get_readonly_fields(request, obj), "is_withdrawn", "withdrawn_round"]

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        if change:
            _adopt(obj, _entry_update(form))
        else:
            _adopt(obj, _entry_create(form, form.cleaned_data["tournament"]))

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


# --- Rounds, tables, seats, results ------------------------------------------------------


def _table_fresh(table: Table) -> Table:
    """The table as stored (the admin's copy already carries the form's values)."""
    return Table.objects.select_related("round__tournament").get(pk=table.pk)


def _table_update(form: forms.ModelForm) -> Table:  # type: ignore[type-arg]
    table = _table_fresh(form.instance)
    data = form.cleaned_data
    return table_update(
        table=table,
        number=data.get("number", table.number),
        player_count=data.get("player_count", table.player_count),
    )


class TableInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Table
    extra = 0
    fields = ["number", "player_count", "target", "status"]
    # The target follows the player count (table_add/table_update); the status follows
    # the match (score entry).
    readonly_fields = ["target", "status"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(TournamentScopedAdmin, SimpleHistoryAdmin):
    list_display = ["__str__", "tournament", "number", "status", "starts_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name"]
    inlines = [TableInline]
    actions = ["publish", "close"]

    def get_readonly_fields(self, request: HttpRequest, obj: Round | None = None) -> Any:
        # The status moves only by the "Publish" and "Close" actions, whose services check
        # the round is ready; a round's place in its tournament is fixed when it is created.
        fixed = ["status"] if obj is None else ["status", "tournament", "number"]
        return [*super().get_readonly_fields(request, obj), *fixed]

    def save_model(self, request: HttpRequest, obj: Round, form: Any, change: bool) -> None:
        if change:
            _adopt(obj, record_update(instance=obj, fields={}))
            return
        round_ = round_create(tournament=obj.tournament, number=obj.number)
        fields: dict[str, Any] = {"starts_at": obj.starts_at}
        if obj.pairing_seed is not None:
            fields["pairing_seed"] = obj.pairing_seed
        _adopt(obj, record_update(instance=round_, fields=fields))

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Table:
            super().save_formset(request, form, formset, change)
            return
        _formset_save(
            formset,
            create=lambda f: table_add(
                round=formset.instance,
                number=f.cleaned_data["number"],
                player_count=f.cleaned_data["player_count"],
            ),
            update=_table_update,
            delete=lambda table: table_delete(table=_table_fresh(table)),
        )

    def _run(
        self, request: HttpRequest, queryset: QuerySet[Round], service: Any, done_msg: str
    ) -> None:
        for round_ in queryset.select_related("tournament"):
            try:
                service(round=round_)
            except ValidationError as exc:
                self.message_user(request, f"{round_}: {'; '.join(exc.messages)}", messages.ERROR)
            else:
                self.message_user(request, f"{round_}: {done_msg}", messages.SUCCESS)

    @admin.action(description=_("Publish the selected rounds"))
    def publish(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._run(request, queryset, round_publish, str(_("published")))

    @admin.action(description=_("Close the selected rounds"))
    def close(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._run(request, queryset, round_close, str(_("closed")))


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    max_num = 4
    autocomplete_fields = ["player"]
    raw_id_fields = ["entry"]


class TableResultSideInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TableResultSide
    extra = 0
    max_num = 3


@admin.register(Table)
class TableAdmin(TournamentScopedAdmin, SimpleHistoryAdmin):
    tournament_path = "round__tournament"
    list_display = ["__str__", "round", "number", "player_count", "target", "status"]
    list_filter = ["status", "player_count", "round__tournament"]
    search_fields = ["round__tournament__name", "seats__player__name"]
    inlines = [SeatInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).select_related("round__tournament")

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> Any:
        # The target follows the player count, the status the match, the cost the pairing.
        fixed = (
            ["target", "status", "cost"] if obj is None else ["round", "target", "status", "cost"]
        )
        return [*super().get_readonly_fields(request, obj), *fixed]

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        if change:
            _adopt(obj, _table_update(form))
        else:
            _adopt(
                obj, table_add(round=obj.round, number=obj.number, player_count=obj.player_count)
            )

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Seat:
            super().save_formset(request, form, formset, change)
            return
        table = _table_fresh(formset.instance)

        def seat(f: forms.ModelForm, current: Seat | None = None) -> Seat:  # type: ignore[type-arg]
            data = f.cleaned_data
            return seat_set(
                table=table,
                number=data["number"],
                entry=data["entry"],
                player=data["player"],
                seat=current,
            )

        _formset_save(
            formset,
            create=seat,
            update=lambda f: seat(f, Seat.objects.get(pk=f.instance.pk)),
            delete=lambda s: seat_delete(
                seat=Seat.objects.select_related("table__round").get(pk=s.pk)
            ),
        )


@admin.register(TableResult)
class TableResultAdmin(TournamentScopedAdmin, SimpleHistoryAdmin):
    """A table's result, corrected by hand. Saved by ``table_result_record`` (the table is
    marked finished and standings and ratings hear of it); deleted by ``table_result_clear``."""

    tournament_path = "table__round__tournament"
    list_display = ["table", "finished_at", "hands_count", "is_tie"]
    list_filter = ["is_tie", "table__round__tournament"]
    search_fields = ["table__round__tournament__name"]
    inlines = [TableResultSideInline]

    def get_readonly_fields(self, request: HttpRequest, obj: TableResult | None = None) -> Any:
        fixed = [] if obj is None else ["table"]
        return [*super().get_readonly_fields(request, obj), *fixed]

    def save_model(self, request: HttpRequest, obj: TableResult, form: Any, change: bool) -> None:
        pass  # the result and its sides are written together, in save_related

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        obj: TableResult = form.instance
        sides: list[SideOutcome] = []
        for formset in formsets:
            if formset.model is not TableResultSide:
                continue
            for f in formset.forms:
                data = f.cleaned_data
                if not data or data.get("DELETE"):
                    continue
                sides.append(
                    SideOutcome(
                        side=data["side"],
                        points_x2=data["points_x2"],
                        placing=data["placing"],
                        hands_won=data.get("hands_won") or 0,
                        is_winner=bool(data.get("is_winner")),
                    )
                )
            formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        result = table_result_record(
            table_id=obj.table_id,
            sides=sides,
            hands_count=obj.hands_count,
            finished_at=obj.finished_at,
            is_tie=obj.is_tie,
        )
        _adopt(obj, result)

    def delete_model(self, request: HttpRequest, obj: TableResult) -> None:
        table_result_clear(table_id=obj.table_id)


# --- API tokens (issue 9) -----------------------------------------------------------------


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
