"""Recording, correcting, deleting and confirming hands.

Each function claims the match's next version (``match_lock``), builds the list of
hand entries the match would have after the change, and stores it only if the
engine replays the whole match cleanly (``verdicts.verdict_store``). A refusal
leaves nothing behind: the transaction, version bump included, is rolled back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from allfives import AllFivesError
from matches.models import Hand, Match, TableLink
from matches.selectors import match_hands
from matches.services.access import scorer_require
from matches.services.concurrency import match_lock
from matches.services.verdicts import (
    AnyUser,
    match_judge,
    match_mark_finished,
    match_save,
    user_or_none,
    verdict_store,
)


def _require_scorer(user: AnyUser, match: Match, link: TableLink | None = None) -> None:
    scorer_require(match=match, user=user, link=link)


def _require_writable(match: Match) -> None:
    if match.status == Match.Status.FINISHED:
        raise ValidationError(
            _("The match is finished; an organiser must reopen it before it can be changed."),
            code="match_finished",
        )


def _entry(hand: object) -> dict[str, Any]:
    if not isinstance(hand, Mapping):
        raise ValidationError(_("A hand is a JSON object."), code="bad_hand")
    return dict(hand)


def hand_entry_mode(hand: Mapping[str, Any]) -> str:
    """The entry mode of a scoresheet hand: tile-by-tile when it lists moves."""
    return "tiles" if "moves" in hand else "tally"


def _require_mode(match: Match, hand: Mapping[str, Any]) -> None:
    if hand_entry_mode(hand) != match.entry_mode:
        raise ValidationError(
            _("This match is scored %(mode)s; switch its entry mode to enter the hand this way.")
            % {"mode": Match.EntryMode(match.entry_mode).label},
            code="wrong_entry_mode",
        )


def _require_number(number: int, hands_count: int, *, existing: bool) -> None:
    if existing:
        if not 1 <= number <= hands_count:
            raise ValidationError(
                _("There is no hand %(n)d in this match.") % {"n": number}, code="no_such_hand"
            )
        return
    if number <= hands_count:
        raise ValidationError(
            _("Hand %(n)d is already recorded; correct it instead.") % {"n": number},
            code="hand_exists",
        )
    if number != hands_count + 1:
        raise ValidationError(
            _("Hands are numbered without gaps: the next hand is %(next)d, not %(n)d.")
            % {"next": hands_count + 1, "n": number},
            code="hand_number_gap",
        )


@transaction.atomic
def hand_record(
    *,
    match: Match,
    number: int,
    hand: Mapping[str, Any],
    version: int,
    user: AnyUser,
    link: TableLink | None = None,
) -> Match:
    """Record the next hand of a match, as entered; the engine judges it."""
    _require_scorer(user, match, link)
    entry = _entry(hand)
    locked = match_lock(match_id=match.pk, version=version)
    rows: list[Hand | None] = list(match_hands(match=locked))
    _require_number(number, len(rows), existing=False)
    _require_mode(locked, entry)
    if locked.requires_confirmation and rows:
        last = rows[-1]
        if last is not None and not last.is_confirmed:
            raise ValidationError(
                _("Hand %(n)d waits for the opponents' confirmation.") % {"n": last.number},
                code="hand_unconfirmed",
            )
    entries = [row.entry for row in rows if row is not None] + [entry]
    verdict = match_judge(match=locked, entries=entries)
    return verdict_store(
        match=locked,
        entries=entries,
        rows=[*rows, None],
        verdict=verdict,
        user=user,
        reason="recorded",
        link=link,
    )


def _remove_rows(rows: list[Hand], user: AnyUser, link: TableLink | None, reason: str) -> None:
    """Delete hand rows (last first), each deletion kept in the history with `reason`."""
    for row in reversed(rows):
        row._history_user = user_or_none(user)  # type: ignore[attr-defined]
        row._change_reason = reason  # type: ignore[attr-defined]
        row.changed_via = link  # the deletion's history row names who deleted it
        row.delete()


@transaction.atomic
def hand_record_replacing(
    *,
    match: Match,
    number: int,
    hand: Mapping[str, Any],
    version: int,
    user: AnyUser,
    link: TableLink | None = None,
) -> Match:
    """Record hand `number` in place of the hands stored from `number` on (another
    device's, when two scored the same match apart): those are removed, kept in the
    history; the engine judges the whole match with the new hand."""
    _require_scorer(user, match, link)
    entry = _entry(hand)
    locked = match_lock(match_id=match.pk, version=version)
    _require_writable(locked)
    rows = match_hands(match=locked)
    if not 1 <= number <= len(rows) + 1:
        _require_number(number, len(rows), existing=False)
    _require_mode(locked, entry)
    kept = rows[: number - 1]
    entries = [row.entry for row in kept] + [entry]
    verdict = match_judge(match=locked, entries=entries)
    _remove_rows(rows[number - 1 :], user, link, "replaced")
    return verdict_store(
        match=locked,
        entries=entries,
        rows=[*kept, None],
        verdict=verdict,
        user=user,
        reason="recorded",
        link=link,
    )


@transaction.atomic
def hand_correct(
    *,
    match: Match,
    number: int,
    hand: Mapping[str, Any],
    version: int,
    user: AnyUser,
    link: TableLink | None = None,
    remove_unfit: bool = False,
) -> Match:
    """Replace an earlier hand's entry; refused if any hand becomes impossible, unless
    `remove_unfit`: then the later hands that no longer fit (the first one the engine
    refuses and every hand after it) are removed for re-entry, kept in the history."""
    _require_scorer(user, match, link)
    entry = _entry(hand)
    locked = match_lock(match_id=match.pk, version=version)
    _require_writable(locked)
    rows = match_hands(match=locked)
    _require_number(number, len(rows), existing=True)
    if hand_entry_mode(entry) != rows[number - 1].mode:
        # A hand may be corrected as it was entered, whatever mode later hands use.
        _require_mode(locked, entry)
    entries = [row.entry for row in rows]
    entries[number - 1] = entry
    try:
        verdict = match_judge(match=locked, entries=entries)
    except AllFivesError as exc:
        if not remove_unfit or exc.hand is None or exc.hand < number:
            raise
        _remove_rows(rows[exc.hand :], user, link, "removed for re-entry")
        rows, entries = rows[: exc.hand], entries[: exc.hand]
        verdict = match_judge(match=locked, entries=entries)
    return verdict_store(
        match=locked,
        entries=entries,
        rows=list(rows),
        verdict=verdict,
        user=user,
        reason="corrected",
        unconfirm=[number],
        link=link,
        authored=[number],
    )


def hands_unfit_after(*, match: Match, number: int, hand: Mapping[str, Any]) -> list[int]:
    """The later hands (numbers) that would no longer fit if hand `number` became
    `hand`: the first the engine refuses and every hand after it; [] if all still fit."""
    rows = match_hands(match=match)
    entries = [row.entry for row in rows]
    if not 1 <= number <= len(entries):
        return []
    entries[number - 1] = dict(hand)
    try:
        match_judge(match=match, entries=entries)
    except AllFivesError as exc:
        if exc.hand is not None and exc.hand >= number:
            return list(range(exc.hand + 1, len(entries) + 1))
    return []


@transaction.atomic
def hand_restore(
    *, match: Match, history_id: int, version: int, user: AnyUser, link: TableLink | None = None
) -> Match:
    """Put a deleted hand back at its number (later hands move down one); the engine
    judges the whole match again, so a hand that no longer fits is refused."""
    _require_scorer(user, match, link)
    locked = match_lock(match_id=match.pk, version=version)
    _require_writable(locked)
    deleted = (
        Hand.history.filter(match_id=locked.pk, history_id=history_id, history_type="-")
        .only("number", "entry")
        .first()
    )
    if deleted is None:
        raise ValidationError(
            _("That deleted hand is not in this match's history."), code="no_such_deleted_hand"
        )
    rows: list[Hand | None] = list(match_hands(match=locked))
    number = min(deleted.number, len(rows) + 1)
    entries = [row.entry for row in rows if row is not None]
    entries.insert(number - 1, dict(deleted.entry))
    rows.insert(number - 1, None)
    verdict = match_judge(match=locked, entries=entries)
    return verdict_store(
        match=locked,
        entries=entries,
        rows=rows,
        verdict=verdict,
        user=user,
        reason="restored",
        unconfirm=range(number, len(rows) + 1),
        link=link,
    )


@transaction.atomic
def hand_delete(
    *, match: Match, number: int, version: int, user: AnyUser, link: TableLink | None = None
) -> Match:
    """Delete a hand; later hands move up one number and the match is replayed."""
    _require_scorer(user, match, link)
    locked = match_lock(match_id=match.pk, version=version)
    _require_writable(locked)
    rows = match_hands(match=locked)
    _require_number(number, len(rows), existing=True)
    removed = rows.pop(number - 1)
    entries = [row.entry for row in rows]
    verdict = match_judge(match=locked, entries=entries)
    removed._history_user = user_or_none(user)  # type: ignore[attr-defined]
    removed._change_reason = "deleted"  # type: ignore[attr-defined]
    removed.changed_via = link  # the deletion's history row names who deleted it
    removed.delete()
    return verdict_store(
        match=locked,
        entries=entries,
        rows=list(rows),
        verdict=verdict,
        user=user,
        reason="deleted",
        unconfirm=range(number, len(rows) + 1),
        link=link,
    )


def _require_other_side(row: Hand, user: AnyUser, link: TableLink | None) -> None:
    """Only the other side confirms (or disputes) a hand: never the link or the account
    that recorded it, nor a link of the recorder's side."""
    if link is not None:
        recorder = row.recorded_via
        mine = recorder is not None and (recorder.pk == link.pk or recorder.side == link.side)
    else:
        mine = (
            user is not None
            and user.is_authenticated
            and row.recorded_via_id is None
            and row.recorded_by_id == user.pk
        )
    if mine:
        raise ValidationError(
            _("Hand %(n)d was recorded by your side: the other side confirms it.")
            % {"n": row.number},
            code="own_hand",
        )


def _confirmable(locked: Match, number: int) -> tuple[list[Hand], Hand]:
    rows = match_hands(match=locked)
    _require_number(number, len(rows), existing=True)
    return rows, rows[number - 1]


@transaction.atomic
def hand_confirm(
    *, match: Match, number: int, version: int, user: AnyUser, link: TableLink | None = None
) -> Match:
    """The other side confirms a hand (when the tournament asks for it); the side that
    recorded it never can. An organiser's confirmation also settles a dispute."""
    _require_scorer(user, match, link)
    locked = match_lock(match_id=match.pk, version=version)
    rows, row = _confirmable(locked, number)
    _require_other_side(row, user, link)
    if row.confirmed_at is None:
        row.confirmed_at = timezone.now()
        row.confirmed_by = user_or_none(user)
        row.confirmed_via = link
        row.changed_via = link
        row.disputed_at = None
        row._history_user = row.confirmed_by  # type: ignore[attr-defined]
        row._change_reason = "confirmed"  # type: ignore[attr-defined]
        row.save(
            update_fields=[
                "confirmed_at",
                "confirmed_by",
                "confirmed_via",
                "changed_via",
                "disputed_at",
                "updated_at",
            ]
        )
    over = bool(locked.winners) and locked.status != Match.Status.FINISHED
    if over and all(r.confirmed_at is not None for r in rows):
        match_mark_finished(match=locked)
    match_save(match=locked, user=user, reason="confirmed", history=locked.is_finished)
    return locked


@transaction.atomic
def hand_dispute(
    *, match: Match, number: int, version: int, user: AnyUser, link: TableLink | None = None
) -> Match:
    """The other side says a hand is wrong: it stays unconfirmed and is flagged for the
    organiser, who corrects it or confirms it as it stands."""
    _require_scorer(user, match, link)
    locked = match_lock(match_id=match.pk, version=version)
    _rows, row = _confirmable(locked, number)
    _require_other_side(row, user, link)
    if row.confirmed_at is not None:
        raise ValidationError(
            _("Hand %(n)d is already confirmed; ask the organiser to correct it.") % {"n": number},
            code="hand_confirmed",
        )
    row.disputed_at = timezone.now()
    row.changed_via = link
    row._history_user = user_or_none(user)  # type: ignore[attr-defined]
    row._change_reason = "disputed"  # type: ignore[attr-defined]
    row.save(update_fields=["disputed_at", "changed_via", "updated_at"])
    match_save(match=locked, user=user, reason="disputed", history=False)
    return locked
