"""Storing the engine's verdict: the one place where hands and totals are written.

Callers (``hands``, ``lifecycle``) decide what the match's list of hand entries
becomes; this module has the engine judge that list and, only if it replays
cleanly, stores every hand's verdict, its events, the match's totals and status,
and hands the table's result to ``league`` when the match is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone

from allfives import side_of, sides_of
from league.services.results import (
    SideOutcome,
    table_result_clear,
    table_result_record,
    table_status_set,
)
from matches.models import Hand, HandEvent, Match, TableLink
from matches.selectors import scoresheet_document
from matches.services.replay import HandVerdict, MatchVerdict, document_judge

type AnyUser = AbstractBaseUser | AnonymousUser | None


def user_or_none(user: AnyUser) -> Any:
    """The user to record as the author of a change (None for the system or anonymous)."""
    return user if user is not None and user.is_authenticated else None


def match_judge(*, match: Match, entries: Sequence[Mapping[str, Any]]) -> MatchVerdict:
    """The engine's verdict on the match with these hands (raises ``AllFivesError``)."""
    return document_judge(
        scoresheet_document(
            players=match.player_count,
            rules=match.rules,
            hands=[dict(e) for e in entries],
            time_called_after=match.time_called_after,
        )
    )


def _events(hand: Hand, verdict: HandVerdict) -> list[HandEvent]:
    entry = hand.entry
    events: list[HandEvent] = []
    if verdict.mode == "tiles":
        scored = {int(p["move"]): p for p in verdict.plays if isinstance(p, dict) and "move" in p}
        for index, move in enumerate(entry.get("moves", [])):
            play = scored.get(index, {})
            if "play" in move:
                kind, tile = HandEvent.Kind.PLAY, str(move["play"])
            elif "draw" in move:
                kind, tile = HandEvent.Kind.DRAW, str(move["draw"] or "")
            else:
                kind, tile = HandEvent.Kind.PASS, ""
            events.append(
                HandEvent(
                    hand=hand,
                    index=index,
                    seat=int(move["seat"]),
                    kind=kind,
                    tile=tile,
                    end=str(move.get("end") or "") if kind == HandEvent.Kind.PLAY else "",
                    count=play.get("count"),
                    points=int(play.get("points", 0) or 0),
                )
            )
    else:
        for index, (seat, points) in enumerate(entry.get("scores", [])):
            events.append(
                HandEvent(
                    hand=hand,
                    index=index,
                    seat=int(seat),
                    kind=HandEvent.Kind.SCORE,
                    points=int(points),
                )
            )
    return events


def _hand_fields(
    number: int, entry: Mapping[str, Any], verdict: HandVerdict, totals_x2: dict[str, int]
) -> dict[str, Any]:
    return {
        "number": number,
        "mode": verdict.mode,
        "entry": dict(entry),
        "leader": verdict.leader,
        "end": verdict.end,
        "hand_winner": verdict.hand_winner,
        "points_x2": verdict.points_x2,
        "bonus_x2": verdict.bonus_x2,
        "totals_x2": totals_x2,
        "plays": verdict.plays,
        "next_leader": verdict.next_leader,
    }


def verdict_store(
    *,
    match: Match,
    entries: Sequence[Mapping[str, Any]],
    rows: Sequence[Hand | None],
    verdict: MatchVerdict,
    user: AnyUser,
    reason: str,
    unconfirm: Sequence[int] = (),
    confirmed: bool = False,
    link: TableLink | None = None,
    authored: Sequence[int] = (),
) -> Match:
    """Write the judged hands (``rows[i]`` is hand i+1's stored row, or None to create
    it) and the match's totals; finish the match if the engine says it is over.

    ``authored`` numbers the hands this write entered (a correction): their recorder
    becomes the writer, so the writer can never confirm them. ``link`` is the table link
    the writer used, if any."""
    who = user_or_none(user)
    running = verdict.running_totals_x2()
    for index, (entry, row, hand_verdict) in enumerate(
        zip(entries, rows, verdict.hands, strict=True)
    ):
        fields = _hand_fields(index + 1, entry, hand_verdict, running[index])
        if row is None:
            row = Hand(match=match, recorded_by=who, recorded_via=link, changed_via=link, **fields)
            if confirmed:
                row.confirmed_at, row.confirmed_by = timezone.now(), who
            row._history_user = who  # type: ignore[attr-defined]
            row._change_reason = reason  # type: ignore[attr-defined]
            row.save()
            HandEvent.objects.bulk_create(_events(row, hand_verdict))
            continue
        changed = [name for name, value in fields.items() if getattr(row, name) != value]
        if row.number in unconfirm and row.confirmed_at is not None:
            row.confirmed_at, row.confirmed_by, row.confirmed_via = None, None, None
            changed.append("confirmed_at")
        if row.number in authored:
            row.recorded_by, row.recorded_via, row.disputed_at = who, link, None
            changed.append("recorded_by")
        if not changed:
            continue
        for name in changed:
            if name in fields:
                setattr(row, name, fields[name])
        row.changed_via = link
        row._history_user = who  # type: ignore[attr-defined]
        row._change_reason = reason  # type: ignore[attr-defined]
        row.save()
        if "entry" in changed or "plays" in changed:
            row.events.all().delete()
            HandEvent.objects.bulk_create(_events(row, hand_verdict))
    status_before = match.status
    match.totals_x2 = {
        str(s): verdict.totals_x2.get(str(s), 0) for s in sides_of(match.player_count)
    }
    match.winners = verdict.winners
    match.is_tie = verdict.is_tie
    match.next_leader = verdict.next_leader
    match.hands_count = len(verdict.hands)
    if match.status == Match.Status.SCHEDULED and verdict.hands:
        match_mark_playing(match=match)
    if verdict.finished and _all_confirmed(match, len(verdict.hands)):
        match_mark_finished(match=match)
    elif match.status == Match.Status.FINISHED:
        # Only an organiser's reopen makes a finished match writable, so this is
        # an import replacing a finished match's hands: it is not over any more.
        match.status, match.finished_at = Match.Status.PLAYING, None
        if match.table_id is not None:
            table_result_clear(table_id=match.table_id)
    # The hands' own history records what was entered; the match's history keeps
    # what changes its course (start, end, reopen, import), not every derived total.
    match_save(
        match=match,
        user=user,
        reason=reason,
        history=match.status != status_before or reason not in ROUTINE_WRITES,
    )
    return match


#: Writes whose change to the match row is only derived totals and the version.
ROUTINE_WRITES = frozenset(
    {"recorded", "corrected", "deleted", "confirmed", "restored", "removed for re-entry"}
)


def _all_confirmed(match: Match, hands_count: int) -> bool:
    if not match.requires_confirmation:
        return True
    confirmed = Hand.objects.filter(match=match, confirmed_at__isnull=False).count()
    return confirmed == hands_count


def match_save(*, match: Match, user: AnyUser, reason: str, history: bool = True) -> None:
    """Save the match row (with a history record unless ``history`` is False)."""
    match._history_user = user_or_none(user)  # type: ignore[attr-defined]
    match._change_reason = reason  # type: ignore[attr-defined]
    if history:
        match.save()
        return
    match.skip_history_when_saving = True  # type: ignore[attr-defined]
    try:
        match.save()
    finally:
        del match.skip_history_when_saving  # type: ignore[attr-defined]


def match_mark_playing(*, match: Match) -> None:
    """Mark a match as being played (and its table, for league)."""
    match.status = Match.Status.PLAYING
    match.started_at = match.started_at or timezone.now()
    if match.table_id is not None:
        table_status_set(table_id=match.table_id, status="playing")


def side_outcomes(*, match: Match, hands: Sequence[Hand]) -> list[SideOutcome]:
    """Each side's outcome in plain values, as league records it."""
    players = match.player_count
    totals = {s: match.total_x2(s) for s in sides_of(players)}
    winners = set(match.winners)
    hands_won = dict.fromkeys(totals, 0)
    for hand in hands:
        for side in {side_of(seat, players) for seat in hand.hand_winner}:
            hands_won[side] += 1
    outcomes = []
    for side, points in totals.items():
        if side in winners:
            placing = 1
        else:
            above = sum(1 for other, p in totals.items() if other != side and p > points)
            placing = max(2, 1 + above) if winners else 1 + above
        outcomes.append(
            SideOutcome(
                side=side,
                points_x2=points,
                placing=min(placing, 3),
                hands_won=hands_won[side],
                is_winner=side in winners,
            )
        )
    return outcomes


def match_mark_finished(*, match: Match) -> None:
    """Mark a match as over and hand its table's result to league (plain values)."""
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    if match.table_id is not None:
        table_result_record(
            table_id=match.table_id,
            sides=side_outcomes(match=match, hands=list(match.hands.order_by("number"))),
            hands_count=match.hands_count,
            finished_at=match.finished_at,
            is_tie=match.is_tie,
        )
