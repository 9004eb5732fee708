"""Asking for a round to be paired: the one way the API and the admin start a pairing run.

``round_pair_request`` checks the round can be paired, marks its progress queued and
enqueues ``round_pair_task`` once the request's transaction commits, in the language of
whoever asked; if the broker refuses the task the progress says so instead of "queued"
for ever. Each request gets a fresh token (``pairing.models.PairingRequest``) that the
task carries, so that a task answering an earlier request gives up. It lives apart
from the pairing itself because it imports the task module, which imports
``pairing.services.pairing``.
"""

from __future__ import annotations

import uuid

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league.dispatch import task_enqueue_on_commit
from league.models import Round
from pairing.models import PairingRequest
from pairing.services.checks import round_pairable_check
from pairing.services.progress import round_pair_progress, round_pair_progress_record
from pairing.tasks import round_pair_task


def round_pair_queue(*, round: Round) -> str:
    """Check that a round can be paired now, make this the round's latest request and
    mark it queued; returns the request's token."""
    round_pairable_check(round=round)
    token = uuid.uuid4()
    PairingRequest.objects.update_or_create(
        round=round,
        defaults={"token": token, "requested_at": timezone.now(), "answered_at": None},
    )
    round_pair_progress_record(
        round_id=round.pk, state="queued", request=str(token), is_new_request=True
    )
    return str(token)


def round_pair_unqueued(*, round_id: int, request: str | None = None) -> None:
    """Record that the pairing task could not be sent (the broker is down), so the
    progress does not say "queued" for ever. A task that did run (eagerly, in the request)
    and failed has recorded its own cause, which is kept: the queue was reached."""
    if round_pair_progress(round_id=round_id)["state"] != "queued":
        return
    round_pair_progress_record(
        round_id=round_id,
        state="failed",
        message=_("The task queue could not be reached; please try again shortly."),
        request=request,
    )


def round_pair_request(*, round: Round, seed: int | None = None) -> None:
    """Queue pairing ``round`` with ``seed`` (None: the recorded one); raises
    ``ValidationError`` when the round cannot be paired."""
    token = round_pair_queue(round=round)
    round_id = round.pk
    task_enqueue_on_commit(
        round_pair_task,
        round_id,
        seed,
        language=get_language(),
        request=token,
        on_failure=lambda: round_pair_unqueued(round_id=round_id, request=token),
    )
