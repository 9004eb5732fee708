"""Whatever runs the service's processes starts them again when they exit: the restart
policy of docker-compose.yml and the systemd units in deploy/systemd/, each running the
command the README's "Running at scale" table gives for its process."""

from __future__ import annotations

import configparser
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = ["web", "worker", "beat"]


def _readme_commands() -> dict[str, str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Running at scale", 1)[1].split("\n## ", 1)[0]
    rows = re.finditer(r"^\| (\w+) \| `([^`]+)`", section, re.MULTILINE)
    return {row[1]: row[2] for row in rows}


def _compose_service(name: str) -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    return dict(services[name])


def _unit(process: str) -> configparser.ConfigParser:
    # systemd takes a key more than once (ExecStartPre= steps run in order); the checks
    # here read keys that appear once.
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    path = ROOT / "deploy" / "systemd" / f"kelipatan-{process}.service"
    assert unit.read(path), f"{path} is missing"
    return unit


def test_the_readme_gives_a_command_for_each_process() -> None:
    commands = _readme_commands()
    assert set(commands) >= set(PROCESSES), commands
    assert commands["worker"].startswith("celery -A config.celery_app worker")
    assert commands["beat"].startswith("celery -A config.celery_app beat")
    assert commands["web"].startswith("gunicorn config.wsgi:application")


@pytest.mark.parametrize("process", PROCESSES)
def test_compose_restarts_each_process_running_the_readmes_command(process: str) -> None:
    service = _compose_service(process)
    assert service.get("restart") in {"always", "unless-stopped"}, service
    assert _readme_commands()[process] in " ".join(service["command"])


@pytest.mark.parametrize("process", PROCESSES)
def test_the_systemd_unit_restarts_each_process_running_the_readmes_command(
    process: str,
) -> None:
    unit = _unit(process)
    service = unit["Service"]
    assert service["Restart"] == "always"
    assert 0 < float(service["RestartSec"]) <= 10
    # systemd would otherwise stop restarting a unit that failed five times in 10 s
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"
    argv = shlex.split(service["ExecStart"])
    command = " ".join([Path(argv[0]).name, *argv[1:]])
    assert command.startswith(_readme_commands()[process]), command
    # on production settings, from the project's folder (whose .env the settings read)
    assert "DJANGO_SETTINGS_MODULE=config.settings.production" in shlex.split(
        service["Environment"]
    )
    assert Path(service["WorkingDirectory"]).is_absolute()
    assert service["User"] not in {"root", "0"}
    assert unit["Install"]["WantedBy"] == "multi-user.target"
