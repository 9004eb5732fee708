"""Results without hands in the organisers' admin: a form on a table ("Record a walkover",
"Agreed score") that calls the services of ``league.services.results``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.models import Table
from league.policy import tournament_can_manage
from league.selectors import table_side_names
from league.services.results import (
    table_agreed_record,
    table_double_forfeit_record,
    table_forfeit_record,
)

KIND_CHOICES = [
    ("forfeit", _("Walkover: the side present wins")),
    ("double_forfeit", _("Double walkover: every side loses")),
    ("agreed", _("Agreed final score, without hands")),
]


class ResultWithoutHandsForm(forms.Form):
    """The kind of result, the side present (walkover) or each side's total (agreed)."""

    kind = forms.ChoiceField(label=_("Result"), choices=KIND_CHOICES, widget=forms.RadioSelect)
    present = forms.TypedChoiceField(
        label=_("Side present (wins by walkover)"), coerce=int, required=False
    )
    replace_hands = forms.BooleanField(
        label=_("Replace the hands recorded at this table (they stay in the history)"),
        required=False,
    )

    def __init__(self, *args: Any, table: Table, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = table_side_names(table=table)
        present: Any = self.fields["present"]
        present.choices = [("", "—"), *self.names.items()]
        for side, name in self.names.items():
            self.fields[f"total_{side}"] = forms.IntegerField(
                label=_("Agreed total: %(name)s") % {"name": name}, min_value=0, required=False
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("kind")
        if kind == "forfeit" and data.get("present") in (None, ""):
            self.add_error("present", gettext("Choose the side that was present."))
        if kind == "agreed":
            for side in self.names:
                if data.get(f"total_{side}") is None:
                    self.add_error(f"total_{side}", gettext("Give this side's agreed total."))
        return data

    def totals(self) -> dict[int, int]:
        return {side: int(self.cleaned_data[f"total_{side}"]) for side in self.names}


def result_without_hands_view(
    model_admin: admin.ModelAdmin[Table], request: HttpRequest, table_id: int
) -> HttpResponse:
    """The form page; on a valid post, one service records the result."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=table_id)
    if not tournament_can_manage(user=request.user, tournament_id=table.round.tournament_id):
        raise PermissionDenied
    form = ResultWithoutHandsForm(request.POST or None, table=table)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        replace = bool(data.get("replace_hands"))
        try:
            if data["kind"] == "forfeit":
                table_forfeit_record(
                    table_id=table.pk,
                    present_side=data["present"],
                    user=request.user,
                    replace_hands=replace,
                )
            elif data["kind"] == "double_forfeit":
                table_double_forfeit_record(
                    table_id=table.pk, user=request.user, replace_hands=replace
                )
            else:
                table_agreed_record(
                    table_id=table.pk,
                    totals=form.totals(),
                    user=request.user,
                    replace_hands=replace,
                )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            model_admin.message_user(
                request,
                gettext("The result of %(table)s is recorded.") % {"table": table},
                messages.SUCCESS,
            )
            return HttpResponseRedirect(reverse("admin:league_table_change", args=[table.pk]))
    context = {
        **model_admin.admin_site.each_context(request),
        "title": gettext("Result without hands: %(table)s") % {"table": table},
        "form": form,
        "table": table,
        "opts": model_admin.model._meta,
    }
    return TemplateResponse(request, "admin/league/table/result_without_hands.html", context)
