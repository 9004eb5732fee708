"""App configuration for ``matches``."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        # The league's public pages show live scores without importing matches (league.live).
        from league.live import table_live_provider_set
        from matches.selectors_public import tables_live_read

        table_live_provider_set(tables_live_read)
