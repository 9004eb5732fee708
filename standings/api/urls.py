"""API routes of standings (included at ``/api/``): read-only JSON per tournament,
season and division."""

from django.urls import URLPattern, URLResolver, path

from standings.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "tournaments/<slug:slug>/standings/",
        views.TournamentStandingsView.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "seasons/<slug:slug>/standings/",
        views.SeasonStandingsView.as_view(),
        name="api-season-standings",
    ),
    path(
        "seasons/<slug:slug>/divisions/<int:division_id>/standings/",
        views.DivisionStandingsView.as_view(),
        name="api-division-standings",
    ),
]
