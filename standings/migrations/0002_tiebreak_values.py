"""Tiebreak values move from one column per tiebreak to one JSON object by key, so that
a new tiebreak needs no new column.

Existing rows keep their values: they are copied into ``tiebreak_values`` (exact decimal
strings, as the refresh writes them) before the columns go, and copied back on reverse.
The columns without a default get one first, so that reversing can add them back to a
table that has rows.
"""

from decimal import Decimal

from django.db import migrations, models

#: The dropped columns: (tiebreak key, column, stored in half-points).
COLUMNS = (
    ("points_scored", "points_scored_x2", True),
    ("points_difference", "points_difference_x2", True),
    ("target_share", "target_share", False),
    ("head_to_head", "head_to_head", False),
    ("buchholz", "buchholz", False),
    ("median_buchholz", "median_buchholz", False),
    ("sonneborn_berger", "sonneborn_berger", False),
    ("table_mates_strength", "table_mates_strength", False),
    ("hands_won", "hands_won", False),
    ("lot", "lot", False),
)
#: Tiebreaks that stay columns of the record as well.
RECORD = ("match_points", "wins")
BATCH = 1000


def _text(value):
    """A stored number as the refresh writes it: exact and short (7.5, never 7.5000)."""
    if value is None:
        return None
    text = f"{Decimal(value):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def values_fill(apps, schema_editor):
    StandingsRow = apps.get_model("standings", "StandingsRow")
    batch = []
    for row in StandingsRow.objects.order_by("pk").iterator(chunk_size=BATCH):
        values = {key: _text(getattr(row, key)) for key in RECORD}
        for key, column, halves in COLUMNS:
            value = getattr(row, column)
            values[key] = _text(Decimal(value) / 2 if halves else value)
        row.tiebreak_values = values
        batch.append(row)
        if len(batch) == BATCH:
            StandingsRow.objects.bulk_update(batch, ["tiebreak_values"])
            batch = []
    StandingsRow.objects.bulk_update(batch, ["tiebreak_values"])


def values_unfill(apps, schema_editor):
    StandingsRow = apps.get_model("standings", "StandingsRow")
    columns = [column for _key, column, _halves in COLUMNS]
    batch = []
    for row in StandingsRow.objects.order_by("pk").iterator(chunk_size=BATCH):
        for key, column, halves in COLUMNS:
            text = (row.tiebreak_values or {}).get(key)
            if text is None:
                # Only head-to-head may be empty; a tiebreak added since has no column.
                value = None if column == "head_to_head" else 0
            elif halves or column in ("hands_won", "lot"):
                value = int(Decimal(text) * (2 if halves else 1))
            else:
                value = Decimal(text)
            setattr(row, column, value)
        batch.append(row)
        if len(batch) == BATCH:
            StandingsRow.objects.bulk_update(batch, columns)
            batch = []
    StandingsRow.objects.bulk_update(batch, columns)


def _with_default(name, max_digits):
    return migrations.AlterField(
        model_name="standingsrow",
        name=name,
        field=models.DecimalField(
            decimal_places=4, default=Decimal(0), max_digits=max_digits, verbose_name=name
        ),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("standings", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="standingsrow",
            name="tiebreak_values",
            field=models.JSONField(blank=True, default=dict, verbose_name="tiebreak values"),
        ),
        migrations.RunPython(values_fill, values_unfill),
        _with_default("target_share", 7),
        _with_default("buchholz", 14),
        _with_default("median_buchholz", 14),
        _with_default("sonneborn_berger", 14),
        _with_default("table_mates_strength", 12),
        *(
            migrations.RemoveField(model_name="standingsrow", name=column)
            for _key, column, _halves in COLUMNS
        ),
    ]
