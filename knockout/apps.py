"""App configuration for ``knockout``: single-elimination brackets after a Swiss or
round-robin stage, or seeded from ratings."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KnockoutConfig(AppConfig):
    name = "knockout"
    verbose_name = _("Knockout")

    def ready(self) -> None:
        from knockout.selectors import (
            entry_bracket_reasons,
            round_bracket_reasons,
            table_bracket_result_reasons,
        )
        from league.hooks import entry_keeper_add, round_keeper_add, table_result_keeper_add

        entry_keeper_add("knockout", entry_bracket_reasons)
        round_keeper_add("knockout", round_bracket_reasons)
        table_result_keeper_add("knockout", table_bracket_result_reasons)
