"""App configuration for ``league``."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("League")

    def ready(self) -> None:
        from league.roles import roles_ensure

        post_migrate.connect(roles_ensure, sender=self, dispatch_uid="league_roles_ensure")
