"""The service as deployed, over HTTP: every static file it collected answers under its
hashed name, the scoring page's service worker and offline files answer, a table's link
scores a match whose standings the Celery worker then computes, and the projector, the
public pages and the API answer from the same processes.

A phone (Debian's Chromium, 390 px, Indonesian) then opens a table's link, the service
worker installs and takes the page, the rules engine arrives, and with the network gone
the page and its engine open again from what the worker kept (screenshots in
``artifacts/parity/``).

The settings, the static files and the processes are production's (``conftest.py``
here); a fault here is one a club would meet on the day.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from django.urls import reverse

from league.models import Tournament
from matches.models import Hand, Match
from matches.services.links import table_links_issue
from tests.browser.test_offline_scoring import ENGINE_TIMEOUT_MS, PHONE
from tests.conftest import ARTIFACTS, COLLECTED_STATIC
from tests.factories import EntryFactory, RoundFactory, SeatFactory, TableFactory, TournamentFactory
from tests.parity.conftest import Service, Visitor

pytestmark = [pytest.mark.parity, pytest.mark.django_db(transaction=True)]

NAMES = ["Budi Santoso", "Ani Lestari", "Siti Rahayu", "Dewi Kusuma"]
#: The three hands of a four-player match to 50 as the scoring page posts them: Budi and
#: Siti (side 1) reach 50 during hand 3.
HANDS = [
    {"leader": "0", "scores": "1:10 2:5", "end": "domino:2"}
    | {"left_0": "7", "left_1": "8", "left_2": "0", "left_3": "6"},
    {"leader": "2", "scores": "3:20 4:5", "end": "domino:1"}
    | {"left_0": "3", "left_1": "0", "left_2": "4", "left_3": "10"},
    {"leader": "1", "scores": "2:5 3:5", "end": "target"},
]
STANDINGS_SECONDS = 30.0


def _tournament_with_a_table() -> tuple[Tournament, Any]:
    tournament = TournamentFactory(
        name="Piala Produksi", table_size=Tournament.TableSize.FOUR, requires_confirmation=False
    )
    table = TableFactory(round=RoundFactory(tournament=tournament), player_count=4, target=50)
    for number, name in enumerate(NAMES):
        SeatFactory(
            table=table, number=number, entry=EntryFactory(tournament=tournament, player__name=name)
        )
    return tournament, table


def _service_worker_config(body: str) -> dict[str, Any]:
    found = re.match(r"const CONFIG = (\{.*?\});\n", body)
    assert found, body[:300]
    return dict(json.loads(found.group(1)))


def test_every_collected_static_file_and_the_offline_files_answer(service: Service) -> None:
    # Given the manifest collectstatic wrote, as the deployed service serves it
    paths = json.loads((COLLECTED_STATIC / "staticfiles.json").read_text())["paths"]
    visitor = Visitor(service.base)
    # When every file is asked for under its hashed name
    failed = {
        hashed: answer.status
        for hashed in paths.values()
        if (answer := visitor.get(f"/static/{hashed}")).status != 200
    }
    # Then each answers 200, the rules engine's WebAssembly compressed for phones
    assert len(paths) > 100
    assert failed == {}
    wasm = next(hashed for name, hashed in paths.items() if name.endswith("pyodide.asm.wasm"))
    compressed = visitor.get(f"/static/{wasm}", headers={"Accept-Encoding": "br, gzip"})
    assert compressed.headers["Content-Encoding"] in {"br", "gzip"}
    # And the service worker answers, naming only files that answer too
    worker = visitor.get("/sw.js")
    assert worker.status == 200, worker.body[:500]
    assert worker.headers["Service-Worker-Allowed"] == "/"
    config = _service_worker_config(worker.body.decode())
    named = [*config["shell"], *config["engine"], config["bundle"]]
    assert all(url.startswith("/static/") for url in [*config["shell"], *config["engine"]])
    assert {url: visitor.get(url).status for url in named} == {url: 200 for url in named}


def test_a_table_link_scores_a_match_and_the_worker_updates_the_standings(
    service: Service,
) -> None:
    # Given a published round's table and the link on its card
    tournament, table = _tournament_with_a_table()
    link = table_links_issue(table=table, user=None)[0]
    phone = Visitor(service.base)
    # When the scorekeeper's phone opens the link, the page and its manifest
    page = phone.get(reverse("matches:table_link", args=[link.key]))
    assert page.status == 200, page.body[:2000]
    assert "Simpan" in page.body.decode()
    match = Match.objects.get(table=table)
    manifest = phone.get(reverse("matches:manifest", args=[match.pk]))
    assert manifest.status == 200
    assert all(phone.get(icon["src"]).status == 200 for icon in manifest.json()["icons"])
    # and sends the match's three hands as the page does
    send = reverse("matches:device_send", args=[match.pk])
    version = 0
    for number, fields in enumerate(HANDS, start=1):
        answer = phone.open(
            "POST",
            send,
            body={
                "key": f"produksi-{number}",
                "fields": {**fields, "number": str(number), "version": str(version)},
                "device": "telepon-meja-1",
                "queued": 0,
            },
            headers={"X-CSRFToken": phone.cookie("csrftoken")},
        )
        assert answer.status == 201, answer.body[:1000]
        version = answer.json()["match"]["version"]
    # Then the hands are stored and the match is over
    assert Hand.objects.filter(match=match).count() == 3
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    # and the worker (not the web process) computes the standings within seconds
    deadline = time.monotonic() + STANDINGS_SECONDS
    while True:
        standings = phone.get(f"/api/tournaments/{tournament.slug}/standings/").json()
        if standings["computed_at"] and not standings["is_stale"]:
            break
        assert time.monotonic() < deadline, service.processes.log("worker")[-3000:]
        time.sleep(0.3)
    assert [row["name"] for row in standings["rows"][:2]] in (
        ["Budi Santoso", "Siti Rahayu"],
        ["Siti Rahayu", "Budi Santoso"],
    )
    assert "standings.standings_refresh" in service.processes.log("worker")
    # And the public pages, the projector and the API show the result
    for path in (
        reverse("standings:tournament_standings", args=[tournament.slug]),
        reverse("matches:public_scoresheet", args=[match.pk]),
        reverse("desk:projector", args=[tournament.slug]),
        reverse("desk:projector_live", args=[tournament.slug]),
    ):
        answer = phone.get(path)
        assert answer.status == 200, (path, answer.body[:500])
        assert "Budi Santoso" in answer.body.decode(), path
    api = phone.get(f"/api/matches/{match.pk}/")
    assert api.status == 200 and api.json()["status"] == "finished"


def test_the_api_documentation_and_the_site_answer_in_both_languages(service: Service) -> None:
    # Given a visitor
    visitor = Visitor(service.base)
    # When they open the home page in Indonesian and in English, and the API's pages
    home_id, home_en = visitor.get("/"), visitor.get("/en/")
    docs, schema = visitor.get("/api/docs/"), visitor.get("/api/schema/?format=json")
    # Then each answers from the deployed processes, with the static files it links
    assert home_id.status == home_en.status == docs.status == schema.status == 200
    assert 'lang="id"' in home_id.body.decode() and 'lang="en"' in home_en.body.decode()
    for page in (home_id, docs):
        linked = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.body.decode())
        assert linked
        assert {url: visitor.get(url).status for url in linked} == {url: 200 for url in linked}
    assert "openapi" in schema.json()


SHOTS = ARTIFACTS / "parity"


def _engine_ready(page: Any) -> None:
    page.wait_for_function(
        "() => document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS
    )


@pytest.mark.browser
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
