"""API routes of the league (included at ``/api/``)."""

from django.urls import URLPattern, URLResolver, include, path
from rest_framework.routers import SimpleRouter

from league.api import pairings, standings, views

router = SimpleRouter()
router.register("rulesets", views.RuleSetViewSet, basename="ruleset")
router.register("seasons", views.SeasonViewSet, basename="season")
router.register("divisions", views.DivisionViewSet, basename="division")
router.register("players", views.PlayerViewSet, basename="player")
router.register("partnerships", views.PartnershipViewSet, basename="partnership")
router.register("tournaments", views.TournamentViewSet, basename="tournament")
router.register("entries", views.EntryViewSet, basename="entry")
router.register("rounds", views.RoundViewSet, basename="round")
router.register("tables", views.TableViewSet, basename="table")

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include(router.urls)),
]

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

# Pairings (issue 7): a round's draw, running its pairing (202) and the progress.
urlpatterns += pairings.urlpatterns
