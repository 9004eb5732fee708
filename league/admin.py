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
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
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
from league.services.registration import entry_withdraw, players_register_bulk
from league.services.rounds import round_close, round_publish, tournament_duplicate
from league.services.tokens import api_token_create, api_token_revoke

admin.site.site_header = _("Kelipatan — organisers")
admin.site.site_title = _("Kelipatan")
admin.site.index_title = _("Clubs, seasons and tournaments")


class TournamentScopedAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
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


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    fields = ["player", "partnership", "seed", "is_withdrawn", "withdrawn_round"]
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


class TableInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Table
    extra = 0
    fields = ["number", "player_count", "target", "status"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(TournamentScopedAdmin, SimpleHistoryAdmin):
    list_display = ["__str__", "tournament", "number", "status", "starts_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name"]
    inlines = [TableInline]
    actions = ["publish", "close"]

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


@admin.register(TableResult)
class TableResultAdmin(TournamentScopedAdmin, SimpleHistoryAdmin):
    tournament_path = "table__round__tournament"
    list_display = ["table", "finished_at", "hands_count", "is_tie"]
    list_filter = ["is_tie", "table__round__tournament"]
    search_fields = ["table__round__tournament__name"]
    inlines = [TableResultSideInline]


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
