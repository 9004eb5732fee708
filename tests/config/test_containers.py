"""The Dockerfile and docker-compose.yml, checked without a Docker engine: hadolint and
a parse of what each must hold (non-root user, health checks, the processes and their
commands)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text()
    text = re.sub(r"\\\n", " ", text)  # join continuation lines
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_hadolint_passes_with_warnings_as_failures() -> None:
    hadolint = shutil.which("hadolint") or str(ROOT / ".venv" / "bin" / "hadolint")
    result = subprocess.run(
        [hadolint, "--failure-threshold", "warning", str(ROOT / "Dockerfile")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_image_is_python_312_or_newer_slim() -> None:
    base = next(rest for word, rest in _instructions() if word == "FROM")
    match = re.match(r"python:(\d+)\.(\d+)-slim", base)
    assert match, base
    assert (int(match[1]), int(match[2])) >= (3, 12)


def test_image_runs_as_a_non_root_user() -> None:
    users = [rest for word, rest in _instructions() if word == "USER"]
    assert users, "no USER instruction"
    assert users[-1].split(":")[0] not in {"root", "0"}


def test_image_installs_pinned_requirements_and_collects_static() -> None:
    runs = " ".join(rest for word, rest in _instructions() if word == "RUN")
    assert "pip install" in runs and "-r requirements.txt" in runs
    assert "collectstatic --noinput" in runs
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            assert "==" in line, f"unpinned requirement: {line}"


def test_image_has_a_healthcheck_and_an_exec_form_gunicorn_cmd() -> None:
    instructions = _instructions()
    health = [rest for word, rest in instructions if word == "HEALTHCHECK"]
    assert health and "/healthz" in health[-1]
    cmd = [rest for word, rest in instructions if word == "CMD"][-1]
    argv = json.loads(cmd)  # exec form is a JSON array
    assert argv[0] == "gunicorn"
    assert "config.wsgi:application" in argv


def test_compose_has_web_worker_beat_database_and_redis() -> None:
    services = _compose()["services"]
    assert set(services) >= {"web", "worker", "beat", "db", "redis"}
    assert "gunicorn" in " ".join(services["web"]["command"])
    assert services["worker"]["command"][:4] == ["celery", "-A", "config.celery_app", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config.celery_app", "beat"]


@pytest.mark.parametrize("name", ["web", "worker", "db", "redis"])
def test_compose_services_have_health_checks(name: str) -> None:
    service = _compose()["services"][name]
    assert service["healthcheck"]["test"]


def test_compose_app_services_wait_for_healthy_database_and_redis() -> None:
    services = _compose()["services"]
    for name in ("web", "worker", "beat"):
        depends = services[name]["depends_on"]
        assert depends["db"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"
        assert services[name]["environment"]["DATABASE_URL"].startswith("postgres://")
        assert services[name]["environment"]["REDIS_URL"].startswith("redis://")


def test_compose_keeps_the_database_in_a_volume() -> None:
    compose = _compose()
    assert "pgdata" in compose["volumes"]
    assert any(v.startswith("pgdata:") for v in compose["services"]["db"]["volumes"])
