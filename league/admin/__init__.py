"""The organisers' admin panel.

Organisers (staff users in the "Organisers" group) see and change only what
``league.policy`` grants them: the rows of the clubs they organise and the tournaments
they run; superusers see everything.
Forms, inlines and actions call the league services; they hold no rules of their own.
One module per concept; importing this package registers them all.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

admin.site.site_header = _("Kelipatan — organisers")
admin.site.site_title = _("Kelipatan")
admin.site.index_title = _("Clubs, seasons and tournaments")

from league.admin.competitions import (  # noqa: E402
    ClubAdmin,
    DivisionAdmin,
    MembershipAdmin,
    RuleSetAdmin,
    SeasonAdmin,
)
from league.admin.people import PartnershipAdmin, PlayerAdmin  # noqa: E402
from league.admin.rounds import RoundAdmin, TableAdmin, TableResultAdmin  # noqa: E402
from league.admin.tokens import ApiTokenAdmin  # noqa: E402
from league.admin.tournaments import EntryAdmin, TournamentAdmin  # noqa: E402

__all__ = [
    "ApiTokenAdmin",
    "ClubAdmin",
    "DivisionAdmin",
    "EntryAdmin",
    "MembershipAdmin",
    "PartnershipAdmin",
    "PlayerAdmin",
    "RoundAdmin",
    "RuleSetAdmin",
    "SeasonAdmin",
    "TableAdmin",
    "TableResultAdmin",
    "TournamentAdmin",
]
