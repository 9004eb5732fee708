"""Organisers set up their clubs' competitions without the superuser: the Organisers
group may add, change and delete seasons, divisions and rule sets, change its clubs and
manage their members. Which rows is decided by ``league.policy`` (the club's own; the
shipped rule sets stay read-only).
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = {
    "ruleset": ("add", "change", "delete"),
    "season": ("add", "change", "delete"),
    "division": ("add", "change", "delete"),
    "club": ("view", "change"),
    "membership": ("view", "add", "change", "delete"),
}


def _codenames():
    return [f"{a}_{m}" for m, actions in PERMISSIONS.items() for a in actions]


def forwards(apps, schema_editor):
    league = apps.get_app_config("league")
    saved = getattr(league, "models_module", None)
    league.models_module = saved or True
    create_permissions(league, apps=apps, verbosity=0)
    league.models_module = saved
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    organisers, _ = Group.objects.get_or_create(name="Organisers")
    organisers.permissions.add(
        *Permission.objects.filter(content_type__app_label="league", codename__in=_codenames())
    )
    # A club organiser (none is made from existing data) uses the admin as before.
    User = apps.get_model("auth", "User")
    Membership = apps.get_model("league", "Membership")
    ids = Membership.objects.filter(role="organiser").values_list("user_id", flat=True)
    for user in User.objects.filter(pk__in=list(ids)).exclude(groups=organisers):
        user.groups.add(organisers)


def backwards(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="Organisers").first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="league", codename__in=_codenames())
        )


class Migration(migrations.Migration):
    dependencies = [("league", "0010_klub_utama")]
    operations = [migrations.RunPython(forwards, backwards)]
