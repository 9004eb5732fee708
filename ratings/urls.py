"""Rating leaderboards, all time and per season."""

from django.urls import URLPattern, URLResolver, path

from ratings import views

app_name = "ratings"

urlpatterns: list[URLPattern | URLResolver] = [
    path("ratings/", views.leaderboard, name="leaderboard"),
    path("seasons/<slug:slug>/ratings/", views.season_leaderboard, name="season_leaderboard"),
]
