"""Asking for a round to be paired: the one way the API and the admin start a pairing run.

``round_pair_request`` checks the round can be paired, marks its progress queued and
enqueues ``round_pair_task`` once the request's transaction commits, in the language of
whoever asked; if the broker refuses the task the progress says so instead of "queued"
for ever. It lives apart from the pairing itself because it imports the task module,
which imports ``pairing.services.pairing``.
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league.dispatch import task_enqueue_on_commit
from league.models import Round
from pairing.services.checks import round_pairable_check
from pairing.services.progress import round_pair_progress_record
from pairing.tasks import round_pair_task


def round_pair_queue(*, round: Round) -> None:
    """Check that a round can be paired now and mark it queued."""
    round_pairable_check(round=round)
    round_pair_progress_record(round_id=round.pk, state="queued")


def round_pair_unqueued(*, round_id: int) -> None:
    """Record that the pairing task could not be sent (the broker is down), so the
    progress does not say "queued" for ever."""
    round_pair_progress_record(
        round_id=round_id,
        state="failed",
        message=_("The task queue could not be reached; please try again shortly."),
    )


def round_pair_request(*, round: Round, seed: int | None = None) -> None:
    """Queue pairing ``round`` with ``seed`` (None: the recorded one); raises
    ``ValidationError`` when the round cannot be paired."""
    round_pair_queue(round=round)
    round_id = round.pk
    task_enqueue_on_commit(
        round_pair_task,
        round_id,
        seed,
        language=get_language(),
        on_failure=lambda: round_pair_unqueued(round_id=round_id),
    )
