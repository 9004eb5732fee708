"""The engine on the scoring phone is the engine on the server: the same corpus — every
scoresheet the engine's hand-made tests replay, and a few hundred simulated matches with
a spoilt copy of each — judged by ``matches.device.device_judge`` in Pyodide (in
Chromium, loaded as the scoring page loads it) and in CPython gives identical verdicts,
refusals word for word (in Indonesian)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from matches.device import device_judge
from matches.messages import message_catalogue
from matches.services.links import table_links_issue
from tests.browser.engine_corpus import hand_made_documents, simulated_documents
from tests.browser.test_offline_scoring import ENGINE_TIMEOUT_MS, PHONE, SHOTS, _table

pytestmark = pytest.mark.browser

SIMULATED_PER_TABLE_SIZE = 70  # 210 matches, and 210 spoilt copies
BATCH = 40


def _cpython(documents: list[str]) -> list[Any]:
    with translation.override("id"):
        catalogue = message_catalogue()
    return [json.loads(json.dumps(device_judge(json.loads(d), {}, catalogue))) for d in documents]


def _pyodide(page: Any, documents: list[str]) -> list[Any]:
    """Each document judged on the page, passed as its JSON text."""
    verdicts: list[Any] = []
    for start in range(0, len(documents), BATCH):
        verdicts.extend(
            page.evaluate(
                "async (documents) => {"
                " const out = [];"
                " for (const d of documents) {"
                "   out.push(await window.kelipatanEngine.judge(d, {})); }"
                " return out; }",
                documents[start : start + BATCH],
            )
        )
    return verdicts


def test_pyodide_and_cpython_give_identical_verdicts_on_the_engine_corpus(
    browser: Any, live_server: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # given the corpus: the hand-made cases and the simulated matches
    hand_made = hand_made_documents()
    simulated = simulated_documents(SIMULATED_PER_TABLE_SIZE)
    corpus = [json.dumps(document) for document in hand_made + simulated]
    assert len(hand_made) > 100
    # and a scoring page whose engine has arrived
    link = table_links_issue(table=_table(), user=None)[0]
    context = browser.new_context(viewport=PHONE, is_mobile=True, locale="id-ID")
    page = context.new_page()
    page.goto(live_server.url + reverse("matches:table_link", args=[link.key]))
    page.wait_for_function(
        "() => document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS
    )
    # when both engines judge every document
    expected = _cpython(corpus)
    got = _pyodide(page, corpus)
    # then every verdict is the same, refusals included, word for word
    refused = sum(1 for v in expected if not v["ok"])
    print(
        f"\nengine corpus: {len(hand_made)} hand-made documents, {len(simulated)} simulated"
        f" ({refused} refused in all); Pyodide and CPython agree on "
        f"{sum(a == b for a, b in zip(expected, got, strict=True))}"
    )
    mismatches = [i for i, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b]
    assert mismatches == [], json.dumps(
        [corpus[mismatches[0]], expected[mismatches[0]], got[mismatches[0]]]
    )[:3000]
    assert refused > SIMULATED_PER_TABLE_SIZE  # the spoilt copies are refused
    assert any(v["ok"] for v in expected)
    context.close()
