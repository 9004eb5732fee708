"""The Organisers and Scorekeepers groups with the model permissions an organiser needs.

Created here (not in a post_migrate hook) so that they are ordinary data: test
databases serialise and restore them like any other row. Which *rows* an
organiser may touch is decided per tournament (``league.selectors``).
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ORGANISER_PERMISSIONS = {
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
}


def create(apps, schema_editor):
    # Permissions are normally made after the last migration; make the league's now.
    league = apps.get_app_config("league")
    saved = getattr(league, "models_module", None)
    league.models_module = saved or True  # create_permissions skips apps without models
    create_permissions(league, apps=apps, verbosity=0)
    league.models_module = saved

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    organisers, _ = Group.objects.get_or_create(name="Organisers")
    Group.objects.get_or_create(name="Scorekeepers")
    codenames = [f"{a}_{m}" for m, actions in ORGANISER_PERMISSIONS.items() for a in actions]
    organisers.permissions.add(
        *Permission.objects.filter(content_type__app_label="league", codename__in=codenames)
    )


def remove(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(
        name__in=["Organisers", "Scorekeepers"]
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0006_ratings_lean_indexes"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create, remove)]
