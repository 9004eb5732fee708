"""A pairing task answers one request: a late or repeated delivery changes nothing, and
progress that stopped moving reads as failed."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache

from league.models import Seat
from league.services.rounds import round_create
from pairing.models import PairingRequest
from pairing.services.progress import _progress_key, round_pair_progress
from pairing.services.requests import round_pair_queue
from pairing.tasks import round_pair_task
from tests.pairing.conftest import tournament_with_entries

pytestmark = pytest.mark.django_db


def _seats(round_id: int) -> list[tuple[int, int, int]]:
    return list(
        Seat.objects.filter(table__round_id=round_id)
        .order_by("table__number", "number")
        .values_list("table__number", "number", "entry_id")
    )


def test_a_task_for_an_earlier_request_changes_neither_the_draft_nor_the_progress() -> None:
    # Given a round asked to be paired twice, the second request answered with seed 5
    round = round_create(tournament=tournament_with_entries(8))
    first = round_pair_queue(round=round)
    second = round_pair_queue(round=round)
    round_pair_task.delay(round.pk, 5, "en", second).get()
    paired, progress = _seats(round.pk), round_pair_progress(round_id=round.pk)
    # When the first request's task arrives late, with another seed
    result = round_pair_task.delay(round.pk, 3, "en", first).get()
    # Then it gives up: the draft and the progress are the second request's
    assert result == {"superseded": True}
    assert _seats(round.pk) == paired
    assert round_pair_progress(round_id=round.pk) == progress
    round.refresh_from_db()
    assert round.pairing_seed == 5


def test_a_request_is_answered_once_so_a_redelivery_keeps_hand_edits() -> None:
    # Given a paired round whose draft the organiser then edited by hand
    round = round_create(tournament=tournament_with_entries(8))
    token = round_pair_queue(round=round)
    round_pair_task.delay(round.pk, 5, "en", token).get()
    Seat.objects.filter(table__round=round, table__number=1).delete()
    edited = _seats(round.pk)
    # When the same task is delivered again (its worker died before acknowledging it)
    result = round_pair_task.delay(round.pk, 5, "en", token).get()
    # Then the edit stands
    assert result == {"superseded": True}
    assert _seats(round.pk) == edited
    assert PairingRequest.objects.get(round=round).answered_at is not None


def test_progress_that_stopped_moving_reads_as_failed_after_the_visibility_timeout(
    settings,  # type: ignore[no-untyped-def]
) -> None:
    # Given a pairing that was running 2 of 10 when its worker was lost
    settings.CELERY_VISIBILITY_TIMEOUT = 30
    round = round_create(tournament=tournament_with_entries(4))
    round_pair_queue(round=round)
    record = {**cache.get(_progress_key(round.pk)), "state": "running", "done": 2, "total": 10}
    cache.set(_progress_key(round.pk), {**record, "at": time.time() - 10})
    # Then it still reads as running within the timeout
    assert round_pair_progress(round_id=round.pk)["state"] == "running"
    # and as failed, with a message to pair again, once the timeout has passed
    cache.set(_progress_key(round.pk), {**record, "at": time.time() - 31})
    progress = round_pair_progress(round_id=round.pk)
    assert progress["state"] == "failed"
    assert progress["message"]
