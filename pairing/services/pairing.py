"""Pairing a round: the manager between the models and the pure algorithms of
``pairing.algorithms`` (as Tabbycat's draw manager feeds its generators).

``round_pair`` locks the round, clears its old draft, reads the field once
(``pairing.selectors.pairing_field``), hands it to the pure dispatcher
(``pairing.algorithms.dispatch.draw_compute``), turns the algorithms' refusals into
translated validation errors, and stores the draw as a draft
(``pairing.services.store``). ``round_pair_run`` is the body of ``round_pair_task``: it
pairs in the asker's language and records the progress (``pairing.services.progress``).
An organiser may then edit the draft by hand; ``pairing.services.checks`` says what is
wrong with it; ``round_publish`` makes it public.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from league.models import Round, Table, Tournament
from pairing.algorithms.dispatch import ByesRefused, draw_compute
from pairing.algorithms.types import Draw, PairingError
from pairing.selectors import pairing_field
from pairing.services.checks import round_pairable_check
from pairing.services.progress import Progress, round_pair_progress_record
from pairing.services.store import draw_store


def _pairing_error(error: PairingError, tournament: Tournament) -> ValidationError:
    """The organiser's version of why the algorithms refused, translated."""
    if isinstance(error, ByesRefused):
        return ValidationError(
            _(
                "%(n)d entrants cannot all be seated and this tournament does not allow "
                "byes: allow byes, or add or withdraw an entrant."
            )
            % {"n": error.count},
            code="byes_not_allowed",
        )
    if error.code == "partners_need_four":
        return ValidationError(
            _("Rotating partners play at tables of four: set the table size to 4 or 3-4."),
            code="table_size",
        )
    if error.code == "format_not_available":
        return ValidationError(
            _("Automatic pairing for %(format)s at tables of %(size)s is not available yet.")
            % {"format": tournament.get_format_display(), "size": tournament.table_size},
            code="format_not_available",
        )
    messages = {
        "too_few": _("Too few entrants are present to pair this round."),
        "cannot_seat": _("The entrants present cannot be seated at tables of this size."),
        "table_size": _("This table size cannot be paired."),
    }
    message = messages.get(error.code) or _("This round cannot be paired: %(detail)s") % {
        "detail": str(error)
    }
    return ValidationError(message, code=error.code)


def round_pair(*, round: Round, seed: int | None = None, progress: Progress | None = None) -> Draw:
    """Pair a draft round afresh: replace its tables, seats and byes with a new draw.

    ``seed`` defaults to the round's recorded seed (else the tournament's); the same seed
    on the same field gives the same draw. The seed the draw was made with is recorded:
    for a fixed schedule (round robin, whist) that is the tournament's, which places it.
    """
    report = progress or (lambda _done, _total: None)
    report(0, 1)
    with transaction.atomic():
        round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
        round_pairable_check(round=round)
        tournament = round.tournament
        if seed is None:
            seed = round.pairing_seed if round.pairing_seed is not None else tournament.seed
        # The old draft goes first, so its byes and tables are not read back as history.
        Table.objects.filter(round=round).delete()
        round.byes.clear()
        read = pairing_field(round=round)
        total = 2 + len(read.entrants)
        report(1, total)
        try:
            draw = draw_compute(read.field, seed=seed)
        except PairingError as error:
            raise _pairing_error(error, tournament) from error
        report(2, total)
        draw_store(
            round=round, draw=draw, entries=read.entries, progress=report, done=2, total=total
        )
    report(total, total)
    return draw


def round_pair_run(
    *,
    round_id: int,
    seed: int | None = None,
    language: str | None = None,
    on_progress: Progress | None = None,
) -> dict[str, Any]:
    """Pair a round and record the progress as it goes (the task's body): the quality
    report when done, ``{"error": message}`` when the organiser has something to fix.
    Messages are in ``language`` (the language of whoever asked)."""
    with translation.override(language or settings.LANGUAGE_CODE):

        def progress(done: int, total: int) -> None:
            round_pair_progress_record(round_id=round_id, state="running", done=done, total=total)
            if on_progress is not None:
                on_progress(done, total)

        try:
            round = Round.objects.get(pk=round_id)
            draw = round_pair(round=round, seed=seed, progress=progress)
        except Round.DoesNotExist:
            message = _("The round no longer exists.")
        except ValidationError as error:
            message = " ".join(error.messages)
        except Exception:
            round_pair_progress_record(
                round_id=round_id,
                state="failed",
                message=_("Pairing failed unexpectedly; the error has been logged."),
            )
            raise
        else:
            total = 2 + len(draw.seated) + len(draw.byes)
            round_pair_progress_record(round_id=round_id, state="done", done=total, total=total)
            return draw.report.as_dict()
        round_pair_progress_record(round_id=round_id, state="failed", message=message)
        return {"error": message}
