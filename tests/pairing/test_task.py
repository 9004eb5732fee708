"""round_pair_task: progress recorded as the pairing goes, the outcome, and failures."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from league.services.rounds import round_create, round_publish
from pairing.services.pairing import round_pair
from pairing.services.progress import _progress_key, round_pair_progress
from pairing.tasks import round_pair_task
from tests.pairing.conftest import seating, tournament_with_entries

pytestmark = pytest.mark.django_db


def test_progress_goes_forward_and_ends_complete() -> None:
    # Given a draft round of nine players (four tables and a bye)
    round = round_create(tournament=tournament_with_entries(9))
    calls: list[tuple[int, int]] = []
    # When it is paired with a progress callback
    round_pair(round=round, seed=1, progress=lambda done, total: calls.append((done, total)))
    # Then progress never goes back, and ends with every step done
    fractions = [done / total for done, total in calls]
    assert fractions == sorted(fractions)
    assert calls[-1] == (11, 11)
    assert len(calls) >= 4


def test_task_stores_its_progress_and_returns_the_quality_report() -> None:
    # Given a draft round of six
    round = round_create(tournament=tournament_with_entries(6))
    # When the task runs (eagerly here)
    result = round_pair_task.delay(round.pk, 4).get()
    # Then the round is paired, its progress is complete and the report comes back
    assert len(seating(round)) == 3
    assert round_pair_progress(round_id=round.pk) == {
        "state": "done",
        "done": 8,
        "total": 8,
        "message": "",
    }
    assert result["table_count"] == 3


def test_task_records_the_reason_when_the_round_cannot_be_paired() -> None:
    # Given a round that is already published
    tournament = tournament_with_entries(4)
    round = round_create(tournament=tournament)
    round_pair(round=round, seed=1)
    round_publish(round=round)
    # When the task is run for it
    result = round_pair_task.delay(round.pk, None, "en").get()
    # Then nothing changes, and the progress says why in the asker's language
    progress = round_pair_progress(round_id=round.pk)
    assert progress["state"] == "failed"
    assert "draft" in progress["message"]
    assert result == {"error": progress["message"]}


def test_progress_of_a_round_never_paired_is_idle() -> None:
    round = round_create(tournament=tournament_with_entries(2))
    assert round_pair_progress(round_id=round.pk)["state"] == "idle"


@pytest.mark.real_cache
def test_progress_is_kept_in_the_configured_cache() -> None:
    # Given the project's cache (Redis when REDIS_URL is set, else local memory)
    round = round_create(tournament=tournament_with_entries(4))
    try:
        # When the task pairs a round
        round_pair_task.delay(round.pk, 2).get()
        # Then the progress is readable straight from that cache
        assert cache.get(_progress_key(round.pk))["state"] == "done"
    finally:
        cache.delete(_progress_key(round.pk))
