"""The Organisers group: the model permissions an organiser needs in the admin.

Which *rows* an organiser may touch is decided per tournament (``league.selectors``);
the group only opens the admin screens. Kept in sync after every ``migrate``.
"""

from __future__ import annotations

from typing import Any

ORGANISERS_GROUP = "Organisers"
SCOREKEEPERS_GROUP = "Scorekeepers"

ORGANISER_PERMISSIONS = {
    "league": {
        "player": ("view", "add", "change"),
        "partnership": ("view", "add", "change"),
        "ruleset": ("view",),
        "season": ("view",),
        "division": ("view",),
        "tournament": ("view", "add", "change"),
        "entry": ("view", "add", "change", "delete"),
        "round": ("view", "add", "change", "delete"),
        "table": ("view", "add", "change", "delete"),
        "seat": ("view", "add", "change", "delete"),
        "tableresult": ("view",),
    },
}


def roles_ensure(**_: Any) -> None:
    """Create or refresh the Organisers and Scorekeepers groups (a post_migrate hook)."""
    from django.contrib.auth.models import Group, Permission

    organisers, _created = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    Group.objects.get_or_create(name=SCOREKEEPERS_GROUP)
    for app_label, models in ORGANISER_PERMISSIONS.items():
        codenames = [f"{action}_{model}" for model, actions in models.items() for action in actions]
        organisers.permissions.add(
            *Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames)
        )
