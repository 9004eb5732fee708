"""The round's pairing panel in a real browser (Debian's Chromium through Playwright,
against the live test server, under the site's Content-Security-Policy): while a pairing
is queued the progress bar polls through htmx, and when the task has finished the page
reloads by itself and shows the tables with their costs. Screenshot in
``artifacts/pairing/``."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.roles import ORGANISERS_GROUP
from league.services.rounds import round_create
from pairing.services.progress import round_pair_progress_record
from pairing.tasks import round_pair_task
from tests.conftest import ARTIFACTS
from tests.factories import UserFactory
from tests.pairing.conftest import tournament_with_entries

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_progress_bar_polls_then_the_page_shows_the_paired_tables(
    browser: Any, live_server: Any
) -> None:
    # Given an organiser whose draft round is queued for pairing
    tournament = tournament_with_entries(6)
    organiser = UserFactory(username="penyelenggara", is_staff=True)
    organiser.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    tournament.organisers.add(organiser)
    round = round_create(tournament=tournament)
    round_pair_progress_record(round_id=round.pk, state="queued")
    client = Client()
    client.force_login(organiser)
    context = browser.new_context()
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security" in m.text else None)
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if "/pairing/progress/" in r.url else None)
    # When they open the round's page
    with translation.override("en"):  # the English admin, whose text the test reads
        url = reverse("admin:league_round_change", args=[round.pk])
    page.goto(live_server.url + url)
    # Then the bar is there and htmx polls for progress
    page.wait_for_selector("#pairing-progress")
    with page.expect_request(lambda r: "/pairing/progress/" in r.url):
        pass
    assert page.locator(".pairing-tables").count() == 0
    # And when the task has paired the round, the page reloads and shows the tables
    round_pair_task.delay(round.pk, 5)
    page.wait_for_selector(".pairing-tables", timeout=15_000)
    assert page.locator(".pairing-tables tbody tr").count() == 3
    assert "Quality report" in page.content()
    assert polls, "htmx never asked for the progress"
    assert blocked == []
    (ARTIFACTS / "pairing").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "pairing" / "round-panel.png"), full_page=True)
    context.close()
