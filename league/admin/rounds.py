"""Rounds, tables, seats and table results in the organisers' admin, each written
through its service (targets by player count, draft-only seat changes, results that
mark the standings stale); a round's status moves only by the publish and close
actions.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import NoReverseMatch, path, reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from league.admin.base import HistoryAdmin, TournamentScopedAdmin, formset_save, instance_adopt
from league.admin.results import result_without_hands_view
from league.models import (
    Entry,
    Round,
    Seat,
    Table,
    TableResult,
    TableResultSide,
)
from league.selectors import tournaments_managed_by, user_is_superuser
from league.services.records import record_update, round_delete, table_delete
from league.services.results import SideOutcome, table_result_clear, table_result_record
from league.services.rounds import (
    round_close,
    round_create,
    round_publish,
    seat_delete,
    seat_set,
    table_add,
    table_update,
)


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
class RoundAdmin(TournamentScopedAdmin, HistoryAdmin):
    list_display = ["__str__", "tournament", "number", "stage", "status", "starts_at"]
    list_filter = ["status", "stage", "tournament"]
    search_fields = ["tournament__name"]
    inlines = [TableInline]
    actions = ["publish", "close"]
    # The quality report is the pairing's, shown readable by its panel, never as a field.
    exclude = ["quality"]

    def delete_model(self, request: HttpRequest, obj: Round) -> None:
        """The delete page and the list's delete action both go through the service,
        which deletes a draft round only."""
        round_delete(round=obj)

    def get_exclude(self, request: HttpRequest, obj: Round | None = None) -> Any:
        # A new round has no entries of its own to give byes to yet.
        excluded = list(super().get_exclude(request, obj) or [])
        return excluded if obj is not None else [*excluded, "byes"]

    def get_form(
        self, request: HttpRequest, obj: Round | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form_class = super().get_form(request, obj, change=change, **kwargs)
        byes = form_class.base_fields.get("byes")
        if obj is not None and byes is not None:
            # Byes go to the round's own entries, not every tournament's the organiser runs.
            byes.queryset = Entry.objects.filter(tournament_id=obj.tournament_id).select_related(
                "player", "partnership"
            )
            byes.label = capfirst(_("Byes"))
        return form_class

    def get_readonly_fields(self, request: HttpRequest, obj: Round | None = None) -> Any:
        # The status moves only by the "Publish" and "Close" actions, whose services check
        # the round is ready; a round's place in its tournament is fixed when it is created.
        # The clock moves only by its services (league.services.clock, matches.services.clock).
        # A knockout round is made by the bracket's services (the desk's "Start the knockout"
        # and "next round"), never by choosing its stage here.
        clock = ["clock_started_at", "time_called_at"]
        fixed = (
            ["status", "stage", *clock]
            if obj is None
            else ["status", "stage", *clock, "tournament", "number", "table_cards"]
        )
        return [*super().get_readonly_fields(request, obj), *fixed]

    @admin.display(description=_("table cards and scoring links"))
    def table_cards(self, obj: Round) -> str:
        # Score entry serves the cards and keeps the links; they are reached by URL name,
        # so the league does not import it.
        if obj.status != Round.Status.PUBLISHED:
            return str(_("Once the round is published: every table card with its QR codes."))
        try:
            cards = reverse("matches:round_cards", args=[obj.tournament.slug, obj.number])
            links = reverse("admin:matches_tablelink_changelist")
        except NoReverseMatch:
            return "—"
        return format_html(
            '<a href="{}">{}</a> · <a href="{}?table__round__id__exact={}">{}</a>',
            cards,
            _("Table cards with scoring codes (PDF)"),
            links,
            obj.pk,
            _("Revoke or reissue table links"),
        )

    def save_model(self, request: HttpRequest, obj: Round, form: Any, change: bool) -> None:
        if change:
            instance_adopt(obj, record_update(instance=obj, fields={}))
            return
        round_ = round_create(tournament=obj.tournament, number=obj.number)
        fields: dict[str, Any] = {"starts_at": obj.starts_at}
        if obj.pairing_seed is not None:
            fields["pairing_seed"] = obj.pairing_seed
        instance_adopt(obj, record_update(instance=round_, fields=fields))

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Table:
            super().save_formset(request, form, formset, change)
            return
        formset_save(
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


class SeatForm(forms.ModelForm):  # type: ignore[type-arg]
    """A seat as people count them, 1 to 4; stored from 0 (``Seat.number``)."""

    number = forms.IntegerField(label=_("seat"), min_value=1, max_value=4)

    class Meta:
        model = Seat
        fields = ["number", "entry", "player"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial["number"] = self.instance.number + 1

    def clean_number(self) -> int:
        return int(self.cleaned_data["number"]) - 1


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    form = SeatForm
    extra = 0
    max_num = 4
    # Entries and players are found by name, never typed as database ids.
    autocomplete_fields = ["entry", "player"]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        # An organiser seats entries of their own tournaments only.
        if db_field.name == "entry" and not user_is_superuser(user=request.user):
            kwargs["queryset"] = Entry.objects.filter(
                tournament__in=tournaments_managed_by(user=request.user)
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class TableResultSideInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TableResultSide
    extra = 0
    max_num = 3


@admin.register(Table)
class TableAdmin(TournamentScopedAdmin, HistoryAdmin):
    tournament_path = "round__tournament"
    list_display = ["__str__", "round", "number", "player_count", "target", "status"]
    list_filter = ["status", "player_count", "round__tournament"]
    search_fields = ["round__tournament__name", "seats__player__name"]
    inlines = [SeatInline]
    actions = ["result_without_hands"]

    def delete_model(self, request: HttpRequest, obj: Table) -> None:
        """Through the service, which deletes the tables of a draft round only."""
        table_delete(table=obj)

    def get_urls(self) -> list[Any]:
        extra = [
            path(
                "<int:table_id>/result-without-hands/",
                self.admin_site.admin_view(partial(result_without_hands_view, self)),
                name="league_table_result_without_hands",
            )
        ]
        return [*extra, *super().get_urls()]

    @admin.action(description=_("Record a walkover or an agreed score"))
    def result_without_hands(self, request: HttpRequest, queryset: QuerySet[Table]) -> Any:
        if queryset.count() != 1:
            self.message_user(request, _("Choose one table."), messages.WARNING)
            return None
        table = queryset.get()
        return HttpResponseRedirect(
            reverse("admin:league_table_result_without_hands", args=[table.pk])
        )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).select_related("round__tournament")

    exclude = ["cost"]

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> Any:
        # The target follows the player count, the status the match, the cost the pairing.
        fixed = (
            ["target", "status"]
            if obj is None
            else [
                "round",
                "target",
                "status",
                "why",
                "result_without_hands_link",
            ]
        )
        return [*super().get_readonly_fields(request, obj), *fixed]

    @admin.display(description=_("why this table"))
    def why(self, obj: Table) -> str:
        cost = obj.cost or {}
        if not cost:
            return "—"
        parts = [
            (_("Score gap"), cost.get("score_gap")),
            (_("Rematches"), cost.get("rematches")),
            (_("Partner repeats"), cost.get("partner_repeats")),
            (_("Opponent repeats"), cost.get("opponent_repeats")),
        ]
        return " · ".join(f"{label}: {value}" for label, value in parts if value is not None)

    @admin.display(description=_("Result without hands"))
    def result_without_hands_link(self, obj: Table) -> str:
        url = reverse("admin:league_table_result_without_hands", args=[obj.pk])
        return format_html(
            '<a href="{}" data-testid="result-without-hands-link">{}</a>',
            url,
            _("Record a walkover or an agreed score"),
        )

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        if change:
            instance_adopt(obj, _table_update(form))
        else:
            instance_adopt(
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

        formset_save(
            formset,
            create=seat,
            update=lambda f: seat(f, Seat.objects.get(pk=f.instance.pk)),
            delete=lambda s: seat_delete(
                seat=Seat.objects.select_related("table__round").get(pk=s.pk)
            ),
        )


@admin.register(TableResult)
class TableResultAdmin(TournamentScopedAdmin, HistoryAdmin):
    """A table's result, corrected by hand. Saved by ``table_result_record`` (the table is
    marked finished and standings and ratings hear of it); deleted by ``table_result_clear``."""

    tournament_path = "table__round__tournament"
    list_display = ["table", "finished_at", "hands_count", "is_tie", "kind"]
    list_filter = ["is_tie", "kind", "table__round__tournament"]
    search_fields = ["table__round__tournament__name"]
    inlines = [TableResultSideInline]

    def get_readonly_fields(self, request: HttpRequest, obj: TableResult | None = None) -> Any:
        # The kind is set by the services that record it (results without hands).
        fixed = ["kind"] if obj is None else ["table", "kind"]
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
            kind=obj.kind,
            user=request.user,
        )
        instance_adopt(obj, result)

    def delete_model(self, request: HttpRequest, obj: TableResult) -> None:
        table_result_clear(table_id=obj.table_id)
