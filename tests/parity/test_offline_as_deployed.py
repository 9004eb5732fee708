"""The scoring page reopens with no network on the service as deployed: a phone (Debian's
Chromium, 390 px, Indonesian) opens a table's link on gunicorn with production settings
and the collected static files, the service worker installs and takes the page, the
rules engine arrives, and with the network gone the page and its engine open again from
what the worker kept. Screenshots go to ``artifacts/parity/``."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from matches.services.links import table_links_issue
from tests.browser.test_offline_scoring import ENGINE_TIMEOUT_MS, PHONE
from tests.conftest import ARTIFACTS
from tests.parity.conftest import Service
from tests.parity.test_service_as_deployed import _tournament_with_a_table

pytestmark = [pytest.mark.parity, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "parity"


def _engine_ready(page: Any) -> None:
    page.wait_for_function(
        "() => document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS
    )


def test_the_scoring_page_and_its_engine_reopen_offline_on_the_deployed_service(
    service: Service, browser: Any
) -> None:
    # Given a table's link, opened on a phone as its card's QR code opens it
    _tournament, table = _tournament_with_a_table()
    link = table_links_issue(table=table, user=None)[0]
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="id-ID"
    )
    page = context.new_page()
    page.goto(service.base + reverse("matches:table_link", args=[link.key]))
    page.wait_for_selector('[data-testid="save"]')
    # When the service worker has taken the page and the engine has arrived
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    _engine_ready(page)
    page.reload()  # the worker keeps the page as it passes through it
    page.wait_for_selector('[data-testid="save"]')
    _engine_ready(page)
    page.screenshot(path=str(SHOTS / "01-online.png"), full_page=True)
    # and the network goes away, and the phone reloads the page
    context.set_offline(True)
    page.reload()
    # Then the scoring page opens from what the worker kept, in Indonesian, with the
    # players' names and a working engine
    page.wait_for_selector('[data-testid="save"]')
    _engine_ready(page)
    body = page.locator("body").inner_text()
    assert "Budi Santoso" in body and "Simpan" in body
    page.screenshot(path=str(SHOTS / "02-reopened-offline.png"), full_page=True)
    context.set_offline(False)
    context.close()
