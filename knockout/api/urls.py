"""API routes of the knockout (included at ``/api/``): a tournament's brackets."""

from django.urls import URLPattern, URLResolver, path

from knockout.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "tournaments/<slug:slug>/knockout/",
        views.TournamentBracketView.as_view(),
        name="api-tournament-bracket",
    ),
]
