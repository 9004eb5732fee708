"""The standings and ratings models move to apps of their own (``standings``,
``ratings``). Only the migration state changes here: the tables keep their names and
every row; the new apps' first migrations take the models over."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("league", "0007_roles")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="StandingsRow"),
                migrations.DeleteModel(name="Standings"),
                migrations.DeleteModel(name="RatingEvent"),
                migrations.DeleteModel(name="PlayerRating"),
                migrations.DeleteModel(name="PartnershipRating"),
            ],
            database_operations=[],
        ),
    ]
