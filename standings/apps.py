"""App configuration for ``standings``: it listens to the league's table results."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StandingsConfig(AppConfig):
    name = "standings"
    verbose_name = _("Standings")

    def ready(self) -> None:
        from league.hooks import (
            ranking_listener_add,
            result_listener_add,
            tiebreak_choices_set,
            tiebreaks_validator_set,
        )
        from standings.services.requests import (
            standings_ranking_listener,
            standings_result_listener,
        )
        from standings.tiebreaks import tiebreak_choices_list, tiebreaks_validate

        result_listener_add("standings", standings_result_listener)
        ranking_listener_add("standings", standings_ranking_listener)
        tiebreaks_validator_set(tiebreaks_validate)
        tiebreak_choices_set(tiebreak_choices_list)
