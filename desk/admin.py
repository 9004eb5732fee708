"""The desk's doors in the organisers' admin: a "Tournament desk" button on each
tournament's change page, and the tournaments' desks listed on the admin's index, where
an organiser lands after signing in.

``desk`` sits above ``league``: it extends the league's ``TournamentAdmin`` with a
template and registers the result in its place, as ``pairing`` does for rounds.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from league import admin as league_admin
from league.models import Tournament


class DeskTournamentAdmin(league_admin.TournamentAdmin):
    """The league's tournament admin with a link to the tournament's desk."""

    change_form_template: ClassVar[str | None] = "admin/desk/tournament/change_form.html"

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> HttpResponse:
        # The desk's template extends whatever change form the league's admin uses.
        context["desk_parent_template"] = (
            league_admin.TournamentAdmin.change_form_template or "admin/change_form.html"
        )
        return super().render_change_form(request, context, *args, **kwargs)


admin.site.unregister(Tournament)
admin.site.register(Tournament, DeskTournamentAdmin)
admin.site.index_template = "admin/desk/index.html"
