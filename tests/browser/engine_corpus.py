"""The corpus the engine on the device is compared on: the hand-made cases of the
engine's own tests, and simulated matches each with a spoilt copy the engine refuses.

The hand-made cases are gathered by running the engine's tests with this module as a
pytest plugin (``-p tests.browser.engine_corpus``): with ``KELIPATAN_RECORD_REPLAYS``
naming a file, every scoresheet document handed to ``allfives.replay`` (directly, or
through ``check``, the doctests and the docs) is written there once, as JSON. The tests'
own outcomes do not matter to the recording.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from allfives import Rules, simulate_matches

RECORD_ENV = "KELIPATAN_RECORD_REPLAYS"
ROOT = Path(__file__).resolve().parents[2]
#: The engine's tests whose documents are made by hand (the random playouts, property
#: tests and simulations are left out: the simulated matches below stand for them).
HAND_MADE = [
    "tests/allfives/test_engine_errors.py",
    "tests/allfives/test_engine_scoresheet.py",
    "tests/allfives/test_engine_entry_modes.py",
    "tests/allfives/test_engine_settlement.py",
    "tests/allfives/test_engine_match.py",
    "tests/allfives/test_engine_rule_set.py",
    "tests/allfives/test_engine_scored_moves.py",
    "tests/allfives/test_engine_game_facts.py",
    "tests/allfives/test_engine_dealt_replay.py",
    "tests/allfives/test_engine_docs.py",
]
MAX_DOCUMENT = 200_000  # characters of JSON


def pytest_configure(config: Any) -> None:
    """As a plugin: record every document ``allfives.replay`` is given."""
    path = os.environ.get(RECORD_ENV)
    if not path:
        return
    import allfives
    import allfives.scoresheet as scoresheet

    original = scoresheet.replay
    seen: set[str] = set()
    out = open(path, "a", encoding="utf-8")  # noqa: SIM115 (open for the whole run)

    @functools.wraps(original)
    def recording(document: object) -> Any:
        try:
            text = json.dumps(document, sort_keys=True)
        except (TypeError, ValueError):
            text = None
        if text is not None and len(text) < MAX_DOCUMENT and text not in seen:
            seen.add(text)
            out.write(text + "\n")
            out.flush()
        return original(document)

    scoresheet.replay = recording  # type: ignore[assignment]
    allfives.replay = recording  # type: ignore[assignment]


def hand_made_documents() -> list[Any]:
    """Every document the engine's hand-made tests replay, each once."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "replays.jsonl"
        env = {**os.environ, RECORD_ENV: str(path)}
        env.pop("DJANGO_SETTINGS_MODULE", None)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-n",
                "0",
                "-p",
                "no:cacheprovider",
                "-p",
                "tests.browser.engine_corpus",
                *HAND_MADE,
            ],
            cwd=ROOT,
            env=env,
            check=False,
            capture_output=True,
        )
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in dict.fromkeys(lines)]


def _spoilt(document: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The document with one move of its first hand left out (the engine refuses it)."""
    spoilt = copy.deepcopy(document)
    moves = spoilt["hands"][0]["moves"]
    del moves[rng.randrange(len(moves))]
    return spoilt


def simulated_documents(per_table_size: int) -> list[Any]:
    """Simulated matches at tables of two, three and four, each with a spoilt copy."""
    documents: list[Any] = []
    rng = random.Random("corpus")  # nosec B311: a test corpus, not cryptography
    for players in (2, 3, 4):
        for simulated in simulate_matches(
            players=players, matches=per_table_size, seed=f"corpus-{players}", rules=Rules()
        ):
            document = json.loads(json.dumps(simulated.document))
            documents.extend([document, _spoilt(document, rng)])
    return documents
