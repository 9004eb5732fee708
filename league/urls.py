"""Public pages of the league."""

from django.urls import URLPattern, URLResolver, path

from league import api_tokens, views
from league.ratings import views as ratings_views
from league.standings import views as standings_views

app_name = "league"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<slug:slug>/", views.tournament, name="tournament"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/live/",
        views.round_live,
        name="round_live",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/tables/<int:table>/card.pdf",
        views.table_card,
        name="table_card",
    ),
    path("seasons/<slug:slug>/", views.season, name="season"),
    path("players/<slug:slug>/", views.player, name="player"),
    path("partnerships/<slug:slug>/", views.partnership, name="partnership"),
]

# Standings (issue 6): pages and CSV export of tournaments, seasons and divisions.
urlpatterns += [
    path(
        "tournaments/<slug:slug>/standings/",
        standings_views.tournament_standings,
        name="tournament_standings",
    ),
    path(
        "tournaments/<slug:slug>/standings.csv",
        standings_views.tournament_standings_csv,
        name="tournament_standings_csv",
    ),
    path(
        "seasons/<slug:slug>/standings/", standings_views.season_standings, name="season_standings"
    ),
    path(
        "seasons/<slug:slug>/standings.csv",
        standings_views.season_standings_csv,
        name="season_standings_csv",
    ),
    path(
        "seasons/<slug:slug>/divisions/<int:division_id>/standings/",
        standings_views.division_standings,
        name="division_standings",
    ),
    path(
        "seasons/<slug:slug>/divisions/<int:division_id>/standings.csv",
        standings_views.division_standings_csv,
        name="division_standings_csv",
    ),
]

# API tokens (issue 9): a signed-in user's keys for programs.
urlpatterns += [
    path("account/api-tokens/", api_tokens.api_tokens, name="api_tokens"),
    path(
        "account/api-tokens/<int:token_id>/revoke/",
        api_tokens.api_token_revoke_view,
        name="api_token_revoke",
    ),
]

# Ratings (issue 10): leaderboards, all time and per season.
urlpatterns += [
    path("ratings/", ratings_views.leaderboard, name="ratings"),
    path("seasons/<slug:slug>/ratings/", ratings_views.season_leaderboard, name="season_ratings"),
]
