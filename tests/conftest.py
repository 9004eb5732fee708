"""Shared test configuration. Kept free of Django imports at module level so that
``tests/allfives`` (the engine, no Django) can run with ``-p no:django``."""

from __future__ import annotations

import os
import pathlib

import pytest

ARTIFACTS = pathlib.Path(__file__).resolve().parent.parent / "artifacts"


def pytest_configure(config: object) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    ARTIFACTS.mkdir(exist_ok=True)


def _is_transactional(request: pytest.FixtureRequest) -> bool:
    if {"live_server", "transactional_db"} & set(request.fixturenames):
        return True
    marker = request.node.get_closest_marker("django_db")
    if marker is None:
        return False
    return bool(marker.kwargs.get("transaction") or (marker.args and marker.args[0]))


@pytest.fixture(autouse=True)
def _shipped_rows(request: pytest.FixtureRequest) -> None:
    """Rows the migrations ship (the two rule sets, the Organisers and Scorekeepers
    groups) for transactional tests too: their database is flushed after each test,
    which deletes migration data. Re-running the migrations' own functions keeps one
    source for those rows (no ``serialized_rollback``, which collides with the
    content types ``flush`` re-creates)."""
    if not _is_transactional(request):
        return
    request.getfixturevalue("transactional_db")
    import importlib

    from django.apps import apps

    for name in ("league.migrations.0002_ship_rule_sets", "league.migrations.0007_roles"):
        importlib.import_module(name).create(apps, None)
