"""App configuration for ``knockout``: single-elimination brackets after a Swiss or
round-robin stage, or seeded from ratings."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KnockoutConfig(AppConfig):
    name = "knockout"
    verbose_name = _("Knockout")
