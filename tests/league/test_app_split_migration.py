"""Moving the standings and ratings models out of ``league`` keeps every row.

Given a database holding the demo club (tournaments, rounds, tables, matches, hands,
standings, ratings) on the old layout — the models still in ``league`` — migrating to
the new layout leaves every table's rows exactly as they were, moves the models'
content types (so group permissions stay attached), and the new apps' models read the
rows the old ones held. Runs on SQLite and on PostgreSQL (CI runs the suite on both).
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ratings.models import PlayerRating, RatingEvent
from standings.models import Standings, StandingsRow

pytestmark = pytest.mark.django_db(transaction=True)

#: The last migrations of the old layout, with the new apps not yet migrated.
OLD_LAYOUT = [
    ("league", "0007_roles"),
    ("standings", None),
    ("ratings", None),
    ("matches", "0001_matches_hands_events"),
]
#: The migrations that move the models; later migrations of the new apps come after.
SPLIT = [
    ("league", "0008_standings_and_ratings_move_out"),
    ("standings", "0001_initial"),
    ("ratings", "0001_initial"),
    ("matches", "0001_matches_hands_events"),
]
MOVED = {
    "standings": ("standings", "standingsrow"),
    "ratings": ("playerrating", "partnershiprating", "ratingevent"),
}


def _snapshot() -> dict[str, tuple[int, str]]:
    """Every table's row count and a digest of its rows (django_migrations left out)."""
    tables = sorted(set(connection.introspection.table_names()) - {"django_migrations"})
    found = {}
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")  # noqa: S608
            rows = sorted(repr(tuple(row)) for row in cursor.fetchall())
            found[table] = (len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest())
    return found


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor


@pytest.fixture(autouse=True)
def _back_to_the_latest_layout() -> Any:
    """Whatever the test's outcome, the database ends on every app's latest migration,
    where every later test (and the flush's re-created rows) expects it."""
    yield
    _migrate(list(MigrationExecutor(connection).loader.graph.leaf_nodes()))


def _content_types() -> dict[str, tuple[int, str]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, app_label, model FROM django_content_type")
        return {model: (pk, app) for pk, app, model in cursor.fetchall()}


def test_moving_the_models_to_their_apps_keeps_every_row() -> None:
    # Given the demo club on the new layout, with standings and ratings computed
    call_command("demo", seed=7)
    assert StandingsRow.objects.exists() and RatingEvent.objects.exists()
    counts = {
        "standings": Standings.objects.count(),
        "standingsrow": StandingsRow.objects.count(),
        "playerrating": PlayerRating.objects.count(),
        "ratingevent": RatingEvent.objects.count(),
    }
    new_types = _content_types()
    # Every app's latest migration: the database must end where every other test expects it.
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()

    # When the database is taken back to the old layout
    old = _migrate(OLD_LAYOUT)
    old_apps = old.loader.project_state(OLD_LAYOUT[0:1] + OLD_LAYOUT[3:]).apps

    # Then the old models (still in league) hold the rows, under league's content types
    assert old_apps.get_model("league", "Standings").objects.count() == counts["standings"]
    assert old_apps.get_model("league", "StandingsRow").objects.count() == counts["standingsrow"]
    assert old_apps.get_model("league", "PlayerRating").objects.count() == counts["playerrating"]
    assert old_apps.get_model("league", "RatingEvent").objects.count() == counts["ratingevent"]
    old_types = _content_types()
    for models in MOVED.values():
        for model in models:
            assert old_types[model] == (new_types[model][0], "league")
    before = _snapshot()

    # When it is migrated to the new layout
    _migrate(SPLIT)

    # Then every table holds exactly the rows it held, but for the moved content types
    after = _snapshot()
    assert set(after) == set(before)
    changed = {t for t in before if before[t] != after[t]}
    assert changed == {"django_content_type"}
    assert after["django_content_type"][0] == before["django_content_type"][0]
    # And the moved models' content types (and so their permissions) keep their ids
    moved_types = _content_types()
    for app, models in MOVED.items():
        for model in models:
            assert moved_types[model] == (new_types[model][0], app)
    # And after every later migration, the new apps' models read the same rows
    _migrate(leaves)
    assert not MigrationExecutor(connection).migration_plan(leaves)
    assert Standings.objects.count() == counts["standings"]
    assert StandingsRow.objects.count() == counts["standingsrow"]
    assert PlayerRating.objects.count() == counts["playerrating"]
    assert RatingEvent.objects.count() == counts["ratingevent"]
