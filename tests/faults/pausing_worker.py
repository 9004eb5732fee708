"""A real Celery worker whose pairing pauses before it stores the draw, so that a fault
test can kill it (SIGKILL) in the middle of a pairing task. Run as a script from the
project folder; ``PAIRING_PAUSE_SECONDS`` says how long it pauses."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import django

django.setup()

from pairing.services import pairing  # noqa: E402

store = pairing.draw_store


def pausing_store(**kwargs: Any) -> None:
    time.sleep(float(os.environ["PAIRING_PAUSE_SECONDS"]))
    store(**kwargs)


pairing.draw_store = pausing_store

from config.celery_app import app  # noqa: E402

app.worker_main(["worker", "--pool=solo", "--loglevel=INFO"])
