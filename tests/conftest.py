"""Shared test configuration. Kept free of Django imports at module level so that
``tests/allfives`` (the engine, no Django) can run with ``-p no:django``."""

from __future__ import annotations

import os
import pathlib

ARTIFACTS = pathlib.Path(__file__).resolve().parent.parent / "artifacts"


def pytest_configure(config: object) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    ARTIFACTS.mkdir(exist_ok=True)
