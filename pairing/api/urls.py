"""API routes of pairing (included at ``/api/``): a round's draw, running its pairing
(202) and the progress."""

from django.urls import URLPattern, path

from pairing.api import views

urlpatterns: list[URLPattern] = [
    path(
        "rounds/<int:round_id>/draw/",
        views.RoundPairingViewSet.as_view({"get": "draw"}),
        name="api-round-draw",
    ),
    path(
        "rounds/<int:round_id>/pair/",
        views.RoundPairingViewSet.as_view({"post": "pair"}),
        name="api-round-pair",
    ),
    path(
        "rounds/<int:round_id>/pairing-progress/",
        views.RoundPairingViewSet.as_view({"get": "progress"}),
        name="api-round-pairing-progress",
    ),
]
