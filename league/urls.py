"""Public pages of the league (standings, ratings and matches route their own)."""

from django.urls import URLPattern, URLResolver, path

from league import api_tokens, views

app_name = "league"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<slug:slug>/", views.tournament, name="tournament"),
    path(
        "tournaments/<slug:slug>/results.csv",
        views.tournament_results_csv,
        name="tournament_results_csv",
    ),
    path("tournaments/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/live/",
        views.round_live,
        name="round_live",
    ),
    path("clubs/<slug:slug>/", views.club, name="club"),
    path("seasons/<slug:slug>/", views.season, name="season"),
    path("players/<slug:slug>/", views.player, name="player"),
    path("partnerships/<slug:slug>/", views.partnership, name="partnership"),
]

# A signed-in user's keys for programs.
urlpatterns += [
    path("account/api-tokens/", api_tokens.api_tokens, name="api_tokens"),
    path(
        "account/api-tokens/<int:token_id>/revoke/",
        api_tokens.api_token_revoke_view,
        name="api_token_revoke",
    ),
]
