"""The organisers' admin panel.

Organisers (staff users in the "Organisers" group) see and change only the
tournaments they organise and what hangs off them; superusers see everything.
Forms, inlines and actions call the league services; they hold no rules of their own.
One module per concept; importing this package registers them all.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

admin.site.site_header = _("Kelipatan — organisers")
admin.site.site_title = _("Kelipatan")
admin.site.index_title = _("Clubs, seasons and tournaments")

from league.admin.competitions import DivisionAdmin, RuleSetAdmin, SeasonAdmin  # noqa: E402
from league.admin.people import PartnershipAdmin, PlayerAdmin  # noqa: E402
from league.admin.rounds import RoundAdmin, TableAdmin, TableResultAdmin  # noqa: E402
from league.admin.tokens import ApiTokenAdmin  # noqa: E402
from league.admin.tournaments import EntryAdmin, TournamentAdmin  # noqa: E402

__all__ = [
    "ApiTokenAdmin",
    "DivisionAdmin",
    "EntryAdmin",
    "PartnershipAdmin",
    "PlayerAdmin",
    "RoundAdmin",
    "RuleSetAdmin",
    "SeasonAdmin",
    "TableAdmin",
    "TableResultAdmin",
    "TournamentAdmin",
]
