"""Players (with the CSV import and export and the bulk registration) and partnerships
in the organisers' admin.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from import_export import resources
from import_export.admin import ImportExportModelAdmin
from simple_history.admin import SimpleHistoryAdmin

from league.imports import CsvImportForm
from league.models import (
    Partnership,
    Player,
    Tournament,
)
from league.selectors import tournaments_managed_by
from league.services.registration import (
    players_register_bulk,
)


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
