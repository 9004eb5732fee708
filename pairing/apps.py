"""App configuration for ``pairing``: it checks a drafted round before it is published."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairingConfig(AppConfig):
    name = "pairing"
    verbose_name = _("Pairing")

    def ready(self) -> None:
        from league.hooks import publish_check_add
        from pairing.services.checks import round_draft_blocking_problems

        publish_check_add("pairing", round_draft_blocking_problems)
