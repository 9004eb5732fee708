"""Public pages of the league."""

from django.urls import URLPattern, URLResolver, path

from league import views

app_name = "league"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
]
