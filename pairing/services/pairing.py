"""Pairing a round: the manager between the models and the pure algorithms of
``pairing.algorithms`` (as Tabbycat's draw manager feeds its generators).

``round_pair`` locks the round, clears its old draft, reads the field once
(``pairing.selectors.pairing_field``), hands it to the pure dispatcher
(``pairing.algorithms.dispatch.draw_compute``), turns the algorithms' refusals into
translated validation errors, and stores the draw as a draft
(``pairing.services.store``). ``round_pair_run`` is the body of ``round_pair_task``: it
pairs in the asker's language and records the progress (``pairing.services.progress``).
An organiser may then edit the draft by hand; ``pairing.services.checks`` says what is
wrong with it; ``round_publish`` makes it public. A run that answers a request
(``pairing.models.PairingRequest``) pairs only while that request is the round's latest
and unanswered, checked under the round's lock; otherwise it raises
``PairingSuperseded`` and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from league.models import Entry, Round, Table, Tournament
from pairing.algorithms.dispatch import ByesRefused, draw_compute
from pairing.algorithms.types import Draw, PairingError
from pairing.models import PairingRequest
from pairing.selectors import pairing_field
from pairing.services.checks import round_pairable_check
from pairing.services.progress import Progress, ProgressState, round_pair_progress_record
from pairing.services.store import draw_store

logger = logging.getLogger(__name__)


class PairingSuperseded(Exception):
    """The request a pairing run answers is no longer the round's latest unanswered one."""


def _request_claim(*, round: Round, request: str) -> None:
    """Claim the round's latest request for this run (the round is locked): raise
    ``PairingSuperseded`` when a newer request replaced it or it was answered already."""
    claimed = PairingRequest.objects.filter(
        round=round, token=request, answered_at__isnull=True
    ).update(answered_at=timezone.now())
    if not claimed:
        raise PairingSuperseded(request)


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


def _players_once_check(entries: Iterable[Entry]) -> None:
    """Refuse a field where one player plays for two entries (an entry saved without the
    registration service): seating them would put the player at two seats. Said by name,
    so the organiser knows what to fix."""
    seen: dict[int, Entry] = {}
    for entry in entries:
        players = list(entry.partnership.players) if entry.partnership else [entry.player]
        for player in players:
            if player is None:
                continue
            other = seen.get(player.pk)
            if other is not None and other.pk != entry.pk:
                raise ValidationError(
                    _(
                        "%(player)s plays for two entries of this tournament (%(a)s and "
                        "%(b)s). Withdraw or delete one of them, then pair again."
                    )
                    % {"player": player, "a": other.display_name, "b": entry.display_name},
                    code="player_in_two_entries",
                )
            seen[player.pk] = entry


def round_pair(
    *,
    round: Round,
    seed: int | None = None,
    progress: Progress | None = None,
    request: str | None = None,
) -> Draw:
    """Pair a draft round afresh: replace its tables, seats and byes with a new draw.

    ``seed`` defaults to the round's recorded seed (else the tournament's); the same seed
    on the same field gives the same draw. The seed the draw was made with is recorded:
    for a fixed schedule (round robin, whist) that is the tournament's, which places it.
    With ``request`` (a request's token) it pairs only for the round's latest request,
    once: ``PairingSuperseded`` otherwise, before anything is changed or reported.
    """
    report = progress or (lambda _done, _total: None)
    with transaction.atomic():
        round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
        if request is not None:
            # Answered in this transaction: a rollback leaves the request open again.
            _request_claim(round=round, request=request)
        report(0, 1)
        round_pairable_check(round=round)
        tournament = round.tournament
        if seed is None:
            seed = round.pairing_seed if round.pairing_seed is not None else tournament.seed
        # The old draft goes first, so its byes and tables are not read back as history.
        Table.objects.filter(round=round).delete()
        round.byes.clear()
        read = pairing_field(round=round)
        _players_once_check(read.entries.values())
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
    request: str | None = None,
    on_progress: Progress | None = None,
) -> dict[str, Any]:
    """Pair a round and record the progress as it goes (the task's body): the quality
    report when done, ``{"error": message}`` when the organiser has something to fix,
    ``{"superseded": True}`` when ``request`` is no longer the one to answer.
    Messages are in ``language`` (the language of whoever asked)."""
    with translation.override(language or settings.LANGUAGE_CODE):

        def record(state: ProgressState, done: int = 0, total: int = 0, message: str = "") -> None:
            round_pair_progress_record(
                round_id=round_id,
                state=state,
                done=done,
                total=total,
                message=message,
                request=request,
            )

        def progress(done: int, total: int) -> None:
            record("running", done, total)
            if on_progress is not None:
                on_progress(done, total)

        try:
            round = Round.objects.get(pk=round_id)
            draw = round_pair(round=round, seed=seed, progress=progress, request=request)
        except PairingSuperseded:
            # A late or repeated delivery: the newer request's run owns the draft and
            # the progress, so nothing is written.
            logger.info("pairing round %s: request %s was superseded", round_id, request)
            return {"superseded": True}
        except Round.DoesNotExist:
            message = _("The round no longer exists.")
        except ValidationError as error:
            message = " ".join(error.messages)
        except Exception:
            record("failed", message=_("Pairing failed unexpectedly; the error has been logged."))
            raise
        else:
            total = 2 + len(draw.seated) + len(draw.byes)
            record("done", total, total)
            return draw.report.as_dict()
        record("failed", message=message)
        return {"error": message}
