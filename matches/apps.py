"""App configuration for ``matches``: live scores for the league's pages, and the API's
answers to score-entry refusals."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from allfives import AllFivesError
        from league.api.errors import api_error_renderer_add
        from league.hooks import recorded_play_discarder_set, recorded_play_provider_set
        from league.live import table_live_provider_set
        from matches.api.errors import engine_refusal_response, stale_version_response
        from matches.selectors import round_tables_with_hands
        from matches.selectors_public import tables_live_read
        from matches.services.concurrency import StaleVersionError
        from matches.services.lifecycle import table_play_set_aside

        # The league's public pages show live scores without importing matches.
        table_live_provider_set(tables_live_read)
        # Re-pairing never deletes a recorded hand: pairing asks which tables have some.
        recorded_play_provider_set(round_tables_with_hands)
        # A result without hands replaces recorded play only through match_void's history.
        recorded_play_discarder_set(table_play_set_aside)
        # Stale versions first: the more specific answer wins.
        api_error_renderer_add(StaleVersionError, stale_version_response)
        api_error_renderer_add(AllFivesError, engine_refusal_response)
