"""API routes of the league (included at ``/api/``)."""

from django.urls import URLPattern, URLResolver, include, path
from rest_framework.routers import SimpleRouter

from league.api import views

router = SimpleRouter()
router.register("clubs", views.ClubViewSet, basename="club")
router.register("memberships", views.MembershipViewSet, basename="membership")
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
