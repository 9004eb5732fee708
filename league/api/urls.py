"""API routes."""

from django.urls import URLPattern, URLResolver, path

from league.api import standings

urlpatterns: list[URLPattern | URLResolver] = []

# Standings (issue 6): read-only JSON per tournament, season and division.
urlpatterns += [
    path(
        "tournaments/<slug:slug>/standings/",
        standings.TournamentStandingsView.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "seasons/<slug:slug>/standings/",
        standings.SeasonStandingsView.as_view(),
        name="api-season-standings",
    ),
    path(
        "seasons/<slug:slug>/divisions/<int:division_id>/standings/",
        standings.DivisionStandingsView.as_view(),
        name="api-division-standings",
    ),
]
