"""API routes of matches (included at ``/api/``)."""

from django.urls import URLPattern, URLResolver, path

from matches.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("matches/", views.MatchListView.as_view(), name="api-match-list"),
    path("matches/<int:match_id>/", views.MatchView.as_view(), name="api-match"),
    path(
        "matches/<int:match_id>/scoresheet",
        views.MatchScoresheetView.as_view(),
        name="api-match-scoresheet",
    ),
    path(
        "matches/<int:match_id>/history", views.MatchHistoryView.as_view(), name="api-match-history"
    ),
    path("matches/<int:match_id>/hands", views.HandListView.as_view(), name="api-match-hands"),
    path(
        "matches/<int:match_id>/hands/<int:number>",
        views.HandView.as_view(),
        name="api-match-hand",
    ),
    path(
        "matches/<int:match_id>/hands/<int:number>/confirm",
        views.HandConfirmView.as_view(),
        name="api-match-hand-confirm",
    ),
    path("matches/<int:match_id>/start", views.MatchStartView.as_view(), name="api-match-start"),
    path("matches/<int:match_id>/finish", views.MatchFinishView.as_view(), name="api-match-finish"),
    path("matches/<int:match_id>/reopen", views.MatchReopenView.as_view(), name="api-match-reopen"),
    path("matches/<int:match_id>/mode", views.MatchModeView.as_view(), name="api-match-mode"),
]
