"""The Organisers group may run sign-up: its settings, the applications, the mail to
players and the rounds' day pages (which rows, per tournament, ``league.selectors``)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ORGANISER_PERMISSIONS = {
    "signup": ("view", "add", "change"),
    "application": ("view", "change"),
    "notification": ("view", "change"),
    "roundday": ("view", "change"),
}


def grant(apps, schema_editor):
    entrants = apps.get_app_config("entrants")
    saved = getattr(entrants, "models_module", None)
    entrants.models_module = saved or True  # create_permissions skips apps without models
    create_permissions(entrants, apps=apps, verbosity=0)
    entrants.models_module = saved
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    organisers, _ = Group.objects.get_or_create(name="Organisers")
    codenames = [f"{a}_{m}" for m, actions in ORGANISER_PERMISSIONS.items() for a in actions]
    organisers.permissions.add(
        *Permission.objects.filter(content_type__app_label="entrants", codename__in=codenames)
    )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group in Group.objects.filter(name="Organisers"):
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="entrants")
        )


class Migration(migrations.Migration):
    dependencies = [
        ("entrants", "0001_signup_applications_links_mail"),
        ("league", "0007_roles"),
    ]
    operations = [migrations.RunPython(grant, revoke)]
