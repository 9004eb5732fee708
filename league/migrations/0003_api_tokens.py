import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0002_ship_rule_sets"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=80, verbose_name="name")),
                ("key_prefix", models.CharField(editable=False, max_length=12, verbose_name="key starts with")),
                ("key_hash", models.CharField(editable=False, max_length=64, unique=True, verbose_name="key hash (SHA-256)")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created at")),
                ("last_used_at", models.DateTimeField(blank=True, editable=False, null=True, verbose_name="last used at")),
                ("revoked_at", models.DateTimeField(blank=True, editable=False, null=True, verbose_name="revoked at")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "API token",
                "verbose_name_plural": "API tokens",
                "ordering": ["-created_at", "-id"],
            },
        ),
    ]
