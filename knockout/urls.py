"""The public bracket page."""

from django.urls import URLPattern, URLResolver, path

from knockout import views

app_name = "knockout"

urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments/<slug:slug>/knockout/", views.tournament_bracket, name="bracket"),
]
