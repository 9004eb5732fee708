"""Standings pages and CSV exports of tournaments, seasons and divisions."""

from django.urls import URLPattern, URLResolver, path

from standings import views

app_name = "standings"

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "tournaments/<slug:slug>/standings/",
        views.tournament_standings,
        name="tournament_standings",
    ),
    path(
        "tournaments/<slug:slug>/standings.csv",
        views.tournament_standings_csv,
        name="tournament_standings_csv",
    ),
    path("seasons/<slug:slug>/standings/", views.season_standings, name="season_standings"),
    path(
        "seasons/<slug:slug>/standings.csv",
        views.season_standings_csv,
        name="season_standings_csv",
    ),
    path(
        "seasons/<slug:slug>/divisions/<int:division_id>/standings/",
        views.division_standings,
        name="division_standings",
    ),
    path(
        "seasons/<slug:slug>/divisions/<int:division_id>/standings.csv",
        views.division_standings_csv,
        name="division_standings_csv",
    ),
]
