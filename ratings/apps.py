"""App configuration for ``ratings``: it listens to the league's table results."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from league.hooks import result_listener_add
        from ratings.services.scheduling import ratings_result_listener

        result_listener_add("ratings", ratings_result_listener)
