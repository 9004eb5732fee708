"""App configuration for ``entrants``: it tells players their tables when a round is
published, and says which rounds seat checked-in entries only."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EntrantsConfig(AppConfig):
    name = "entrants"
    verbose_name = _("Sign-up and check-in")

    def ready(self) -> None:
        from entrants.selectors import round_is_checked_in_only
        from entrants.services.announce import round_published_notify
        from league.hooks import checked_in_only_provider_set, round_published_listener_add

        round_published_listener_add("entrants", round_published_notify)
        checked_in_only_provider_set(round_is_checked_in_only)
