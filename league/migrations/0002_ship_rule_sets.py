"""Ship the two rule sets every club starts with (RULES.md R3, R4, R20)."""

from django.db import migrations

RULE_SETS = [
    {
        "name": "Pagat",
        "description": "The main form of All Fives recorded by Pagat: 250 with two players, "
        "200 with three or four; a blocked hand pays the opponents' pips.",
        "target_2": 250,
        "target_3": 200,
        "target_4": 200,
        "blocked_award": "opponents",
    },
    {
        "name": "Seed tutorial",
        "description": "The house rules of the how-to-play tutorial: 150 for every player "
        "count; a blocked hand pays the difference in pips.",
        "target_2": 150,
        "target_3": 150,
        "target_4": 150,
        "blocked_award": "difference",
    },
]


def create(apps, schema_editor):
    RuleSet = apps.get_model("league", "RuleSet")
    for fields in RULE_SETS:
        RuleSet.objects.get_or_create(
            name=fields["name"],
            defaults={**fields, "hand_size_2": 9, "hand_size_3": 7, "hand_size_4": 5},
        )


def remove(apps, schema_editor):
    RuleSet = apps.get_model("league", "RuleSet")
    RuleSet.objects.filter(name__in=[r["name"] for r in RULE_SETS], tournaments=None, seasons=None).delete()


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]
    operations = [migrations.RunPython(create, remove)]
