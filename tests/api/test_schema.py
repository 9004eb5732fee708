"""The OpenAPI schema: it generates with no warning, documents the error envelope on
every operation, and the running API keeps to it (schemathesis, a bounded number of
generated requests per operation: no server error, every status, content type and
body as documented)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from league.services.tokens import api_token_create
from tests.api.conftest import make_world

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "6"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def test_schema_generates_with_no_warning_or_error() -> None:
    # When the schema is generated as CI does, failing on any warning
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "spectacular",
            "--fail-on-warn",
            "--validate",
            "--file",
            os.devnull,
        ],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    # Then it succeeds with nothing to say
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stderr, result.stderr


@pytest.mark.django_db
def test_every_operation_documents_the_error_envelope(client: Any) -> None:
    # Given the served schema
    schema = client.get("/api/schema/?format=json").json()
    envelope = "#/components/schemas/ErrorEnvelope"
    # Then every operation documents 400, 401, 403, 404 and 429 with the envelope
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            for code in ("400", "401", "403", "404", "429"):
                response = operation["responses"].get(code)
                assert response, f"{method.upper()} {path} does not document {code}"
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref == envelope, (method, path, code)


def _run(schema: Any, *, headers: dict[str, str], methods: set[str]) -> list[str]:
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() not in methods:
            continue

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(headers=headers))
        def exercise(case: Any) -> None:
            # Each request in a savepoint, rolled back: the world stays as seeded and a
            # database error cannot poison the test's transaction.
            with transaction.atomic():
                response = case.call()
                transaction.set_rollback(True)
            case.validate_response(response, checks=CHECKS)

        try:
            exercise()
        except (Exception, BaseExceptionGroup) as exc:  # report every operation
            failures.append(f"{operation.method.upper()} {operation.path}: {exc!s:.1500}")
    return failures


@pytest.fixture
def connections_kept_open() -> Iterator[None]:
    """Calling the WSGI app directly fires request_finished, which would close the
    database connection (and with it the test's transaction); Django's test client
    turns that off the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.django_db
@pytest.mark.usefixtures("connections_kept_open")
def test_api_keeps_to_its_schema_for_generated_requests() -> None:
    # Given a seeded league, the WSGI app, and a superuser's token
    from config.wsgi import application

    world = make_world()
    key = api_token_create(user=world.users["superuser"], name="schemathesis").key
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    # When generated requests hit every operation, anonymously and as a superuser
    failures = _run(schema, headers={}, methods={"GET"})
    failures += _run(
        schema,
        headers={"Authorization": f"Token {key}"},
        methods={"GET", "POST", "PUT", "PATCH", "DELETE"},
    )
    # Then no server error and every response matches the schema
    assert not failures, "\n\n".join(failures)


@pytest.mark.django_db
def test_public_reads_need_no_credentials_in_the_schema_and_writes_do(client: Any) -> None:
    # Given the served schema
    paths = client.get("/api/schema/?format=json").json()["paths"]
    # Then public reads offer the empty requirement, writes and a match's history do not
    assert {} in paths["/api/rulesets/"]["get"]["security"]
    assert {} in paths["/api/tournaments/{id}/"]["get"]["security"]
    assert {} not in paths["/api/rulesets/"]["post"]["security"]
    assert {} not in paths["/api/matches/{match_id}/history"]["get"]["security"]


@pytest.mark.django_db
def test_the_schema_describes_list_and_empty_object_answers(client: Any) -> None:
    # Given the served schema
    schema = client.get("/api/schema/?format=json").json()
    history = schema["paths"]["/api/matches/{match_id}/history"]["get"]["responses"]["200"]
    components = schema["components"]["schemas"]
    # Then a match's history is a list, and a draw's quality and a table's cost may be {}
    assert history["content"]["application/json"]["schema"]["type"] == "array"
    assert not components["Quality"].get("required")
    assert not components["TableCost"].get("required")
    # And field_codes is an object, as every 400 answers it
    assert components["Error"]["properties"]["field_codes"]["type"] == "object"


CONFIG = Path(__file__).with_name("schemathesis.toml")
#: Each role's run is bounded by time (schemathesis stops generating when it is spent)
#: and derandomised: the same cases come in the same order on every run, so a slower
#: machine sees a shorter prefix of the same sequence, never different data.
ALL_CHECKS_SECONDS = os.environ.get("SCHEMATHESIS_ALL_CHECKS_SECONDS", "45")


def _st_run(url: str, workdir: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "schemathesis.cli",
            "--config-file",
            str(CONFIG),
            "--no-color",
            "run",
            f"{url}/api/schema/?format=json",
            "--checks",
            "all",
            "--generation-deterministic",
            "--max-time",
            ALL_CHECKS_SECONDS,
            "--workers",
            "1",  # the live server is one thread on one database connection
            *options,
        ],
        # Its own directory: schemathesis keeps a cache of past failures in the working
        # directory and replays them, which would make one run depend on the last.
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=int(ALL_CHECKS_SECONDS) * 3 + 60,
    )


@pytest.mark.parametrize("role", ["anonymous", "organiser_own"])
def test_api_passes_every_schemathesis_check_against_a_live_server(
    live_server: Any, role: str, tmp_path: Path
) -> None:
    # Given a seeded league behind a live server, and the role's credentials
    world = make_world()
    if role == "anonymous":
        options = ["--include-method", "GET"]  # anonymous writes: the access matrix
    else:
        key = api_token_create(user=world.users[role], name="schemathesis").key
        options = ["--header", f"Authorization: Token {key}"]
    # When schemathesis runs every check against it, for a bounded time
    result = _st_run(live_server.url, tmp_path, *options)
    # Then it tested operations and reports no failure at all
    report = result.stdout[-20000:] + result.stderr[-3000:]
    assert result.returncode == 0, report
    assert "Tested:" in result.stdout, report
    print(result.stdout[-1500:])  # the summary: phases, cases, time (pytest -s shows it)
