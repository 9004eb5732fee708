"""Health probes: /healthz answers while the process lives; /readyz checks the database
and, when a broker is configured, the broker."""

from __future__ import annotations

import pytest
from django.test import Client

from config.celery_app import app as celery_app


@pytest.mark.django_db
def test_healthz_answers_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_reports_database_and_eager_broker(client: Client) -> None:
    response = client.get("/readyz")
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["broker"] == {"ok": True, "mode": "eager"}


@pytest.mark.django_db
def test_readyz_is_unavailable_when_the_broker_is_down(
    client: Client, settings, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["broker"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True
