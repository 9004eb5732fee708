"""The players' pages (included at ``/`` under the language prefix).

Stable names for other apps' links: ``entrants:signup`` (slug), ``entrants:player`` (key).
"""

from django.urls import URLPattern, URLResolver, path

from entrants import views

app_name = "entrants"

urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments/<slug:slug>/sign-up/", views.signup, name="signup"),
    path("tournaments/<slug:slug>/sign-up/done/", views.signup_done, name="signup_done"),
    # The player's private link, short enough to type.
    path("p/<str:key>/", views.player, name="player"),
    path("p/<str:key>/check-in/", views.player_check_in, name="player_check_in"),
    path("p/<str:key>/card/", views.player_card, name="player_card"),
]
