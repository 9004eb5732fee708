"""App configuration for ``desk``: the organiser's tournament desk and the projector view."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DeskConfig(AppConfig):
    name = "desk"
    verbose_name = _("Tournament desk")
