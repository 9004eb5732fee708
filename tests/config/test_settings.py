"""Settings: the embedded default needs nothing set; production refuses unsafe settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEY = "x" * 20 + "-production-secret-key-for-tests-0123456789"


def _import_settings(module: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_secret_key() -> None:
    result = _import_settings("config.settings.production")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_to_start_with_debug_on() -> None:
    result = _import_settings("config.settings.production", SECRET_KEY=GOOD_KEY, DEBUG="true")
    assert result.returncode != 0
    assert "DEBUG must be off" in result.stderr


def test_production_starts_with_a_real_key_and_debug_off() -> None:
    result = _import_settings("config.settings.production", SECRET_KEY=GOOD_KEY)
    assert result.returncode == 0, result.stderr


def test_embedded_default_is_sqlite_and_eager_tasks() -> None:
    code = (
        "import config.settings.local as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.pop("CELERY_BROKER_URL", None)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["django.db.backends.sqlite3", "True"]


def test_languages_are_indonesian_and_english() -> None:
    from django.conf import settings

    assert [code for code, _ in settings.LANGUAGES] == ["id", "en"]
    assert "league.middleware.LocaleByPathOrHeaderMiddleware" in settings.MIDDLEWARE


def test_production_database_settings_apply_conn_max_age_and_timeouts() -> None:
    # Given production settings on PostgreSQL, loaded as a web process loads them
    import json
    import subprocess
    import sys

    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "settings-check-" + "0123456789abcdefghijklmnopqrstuvwxyz" * 2,
        "DATABASE_URL": "postgres://kelipatan@127.0.0.1:5432/kelipatan",
    }
    script = (
        "import json, config.wsgi; from django.conf import settings; "
        "print(json.dumps(settings.DATABASES['default'], default=str))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]),
        capture_output=True,
        text=True,
        check=True,
    )
    database = json.loads(out.stdout.strip().splitlines()[-1])
    # Then persistent connections, a connect timeout and a statement timeout are set
    assert database["CONN_MAX_AGE"] == 60
    assert database["CONN_HEALTH_CHECKS"] is True
    assert database["OPTIONS"]["connect_timeout"] == 3
    assert "statement_timeout=30000" in database["OPTIONS"]["options"]


_WRITER = """
import sys, time, django
django.setup()
from django.db import connection, transaction
role, ready = sys.argv[1], sys.argv[2]
if role == "first":
    with connection.cursor() as c:
        c.execute("CREATE TABLE IF NOT EXISTS t (who TEXT)")
    with transaction.atomic():
        with connection.cursor() as c:
            c.execute("INSERT INTO t VALUES ('first')")
        open(ready, "w").close()
        time.sleep(1.5)
else:
    while not __import__("os").path.exists(ready):
        time.sleep(0.05)
    started = time.monotonic()
    with transaction.atomic():
        with connection.cursor() as c:
            c.execute("INSERT INTO t VALUES ('second')")
    with connection.cursor() as c:
        c.execute("PRAGMA journal_mode")
        mode = c.fetchone()[0]
        c.execute("SELECT who FROM t ORDER BY rowid")
        rows = [r[0] for r in c.fetchall()]
    print(mode, round(time.monotonic() - started, 1), *rows)
"""


def test_embedded_database_makes_a_second_writer_wait_instead_of_failing(
    tmp_path: Path,
) -> None:
    # Given the embedded default on a database file, and a writer holding a transaction
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CELERY_BROKER_URL"}}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings.local",
    )
    ready = str(tmp_path / "ready")

    def start(role: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", _WRITER, role, ready],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    first = start("first")
    # When a second process writes meanwhile
    second = start("second")
    out, err = second.communicate(timeout=60)
    first.communicate(timeout=60)
    # Then it waited for the first to commit and wrote, on a write-ahead log
    assert second.returncode == 0, err
    mode, waited, *rows = out.split()
    assert mode == "wal"
    assert float(waited) >= 1.0
    assert rows == ["first", "second"]
