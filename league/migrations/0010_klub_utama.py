"""Give the existing data one club, "Klub Utama": it takes every player, season, club
rule set (not the two shipped ones, which stay shared) and tournament, and every organiser
and scorekeeper (a member of the Organisers or Scorekeepers group, or named on a
tournament) becomes its *member*: the role with no club-wide right, so each keeps exactly
the rights they have today — the tournaments they are named on, the contact details of
the players entered there, registering new players and tournaments. Nobody is made the
club's organiser (that would open every tournament of the club to someone who ran one);
the superuser names the club's organisers. Per-tournament roles and groups are kept. A
database holding nothing gets no club.
"""

from django.db import migrations

SHIPPED_RULE_SETS = ("Pagat", "Seed tutorial")
CLUB = {"name": "Klub Utama", "slug": "klub-utama", "city": ""}


def forwards(apps, schema_editor):
    Club = apps.get_model("league", "Club")
    Membership = apps.get_model("league", "Membership")
    Player = apps.get_model("league", "Player")
    Season = apps.get_model("league", "Season")
    RuleSet = apps.get_model("league", "RuleSet")
    Tournament = apps.get_model("league", "Tournament")
    User = apps.get_model("auth", "User")

    members = (
        set(
            User.objects.filter(groups__name__in=["Organisers", "Scorekeepers"]).values_list(
                "pk", flat=True
            )
        )
        | set(Tournament.organisers.through.objects.values_list("user_id", flat=True))
        | set(Tournament.scorekeepers.through.objects.values_list("user_id", flat=True))
    )
    rule_sets = RuleSet.objects.exclude(name__in=SHIPPED_RULE_SETS)
    if not (
        members
        or Player.objects.exists()
        or Season.objects.exists()
        or Tournament.objects.exists()
        or rule_sets.exists()
    ):
        return
    club, _ = Club.objects.get_or_create(slug=CLUB["slug"], defaults=CLUB)
    Player.objects.filter(home_club__isnull=True).update(home_club=club)
    Season.objects.filter(club__isnull=True).update(club=club)
    Tournament.objects.filter(club__isnull=True).update(club=club)
    rule_sets.filter(club__isnull=True).update(club=club)
    for user_id in sorted(members):
        Membership.objects.get_or_create(user_id=user_id, club=club, defaults={"role": "member"})


def backwards(apps, schema_editor):
    Club = apps.get_model("league", "Club")
    club = Club.objects.filter(slug=CLUB["slug"]).first()
    if club is None:
        return
    for name in ("Player", "Season", "Tournament"):
        field = "home_club" if name == "Player" else "club"
        apps.get_model("league", name).objects.filter(**{field: club}).update(**{field: None})
    apps.get_model("league", "RuleSet").objects.filter(club=club).update(club=None)
    apps.get_model("league", "Membership").objects.filter(club=club).delete()
    club.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0009_clubs"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    operations = [migrations.RunPython(forwards, backwards)]
