"""Tally entry: a hand written as the traditional score sheet (docs/scoresheet.md "Tally hand").

A tally hand gives the scoring plays in order (``[seat, points]``), how the
hand ended (``{"domino": seat}``, ``{"blocked": true}`` or ``{"target": true}``)
and each seat's remaining pips or tiles (``left``). The engine adds the plays
one event at a time (R22), then derives the end-of-hand points itself (R18-R20);
end-of-hand points are never typed in. Without the tiles it refuses figures
that cannot be right:

- a play scores 0 or 5, 10, … 35 (``bad_points``, R12). Which play was the
  lead is not recorded, so the lead's own limit (5 or 10) cannot be checked;
- ``{"target": true}`` needs a side to reach its target during the hand, and
  the play that reaches it must be the last entry (``match_over`` otherwise,
  as for any later entry); when a domino or block is recorded instead but a
  play reached the target, that play must be the domino's last tile (same
  seat) — the hand is then reported as ``target``, without settlement (R17);
- remaining pips (**Decisions**): whole numbers from 0; the seat that went out
  holds nothing; every other seat holds at least one tile, and since only
  [0|0] weighs nothing, at most one seat may be at 0; tiles listed appear
  once. Domino: the winner laid at least its dealt tiles, so the others hold
  at most 28 - hand size tiles, and together at most what the heaviest of
  those could carry. Blocked: every tile showing an open end's pips is on the
  table, so some pip value v is absent from all hands and the hands carry at
  most 168 - (7v + 21) pips (147 at most).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from allfives.entry import parse_left
from allfives.errors import AllFivesError, engine_error
from allfives.match import MatchState
from allfives.reports import HandReport, PlayReport
from allfives.rules import side_of
from allfives.settlement import Settlement, settle_blocked, settle_domino
from allfives.tiles import HAS, LABEL, TOTAL_PIPS, heaviest_pips, mask_pips, tiles_in

__all__ = ["PLAY_SCORES", "replay_tally_hand", "tally_left_pips"]

#: R12: what a single play can score.
PLAY_SCORES: Final = frozenset(range(0, 40, 5))


def _disagrees(
    seat: int, given: int | list[str], detail_code: str, **params: object
) -> AllFivesError:
    """``left_disagrees`` for `seat`, which gave `given` (pips, or tile labels)."""
    text = f"{given} pips" if isinstance(given, int) else " ".join(given) or "no tile"
    return engine_error(
        "left_disagrees",
        seat=seat,
        given=text,
        given_value=given,
        detail_code=detail_code,
        **params,
    )


def tally_left_pips(
    entries: Mapping[int, tuple[bool, int]],
    *,
    players: int,
    hand_size: int,
    went_out: int | None,
) -> list[int | None]:
    """Check tally-mode remaining figures (see the module docstring) and return the
    pips per seat (None where not given); `went_out` is None for a blocked hand."""
    pips: list[int | None] = [None] * players
    listed = 0
    zero_seat = -1
    for seat in sorted(entries):
        is_tiles, value = entries[seat]
        given: int | list[str] = [LABEL[t] for t in tiles_in(value)] if is_tiles else value
        if is_tiles:
            if value & listed:
                raise _disagrees(seat, given, "listed_two_seats")
            listed |= value
            held = mask_pips(value)
        else:
            held = value
        if seat == went_out:
            if held or (is_tiles and value):
                raise _disagrees(seat, given, "went_out_holds")
        else:
            if is_tiles and not value:
                raise _disagrees(seat, given, "only_out_empty")
            if held < 0:
                raise _disagrees(seat, given, "negative")
            if held == 0:
                if zero_seat >= 0:
                    raise _disagrees(seat, given, "zero_twice", other=zero_seat)
                zero_seat = seat
        pips[seat] = held
    if went_out is not None:
        most_tiles = 28 - hand_size
        limit = heaviest_pips(most_tiles)
        why, why_params = "others_at_most", {"most": most_tiles, "limit": limit}
    else:
        values = 0
        for t in tiles_in(listed):
            values |= HAS[t]
        missing = [v for v in range(7) if not values >> v & 1]
        if not missing:
            seat = max(entries)
            raise _disagrees(seat, [LABEL[t] for t in tiles_in(listed)], "value_on_table")
        most_tiles = 21
        limit = TOTAL_PIPS - (7 * missing[0] + 21)
        why, why_params = "blocked_at_most", {"limit": limit}
    total = 0
    count = 0
    for seat in sorted(entries):
        if seat == went_out:
            continue  # holds nothing
        is_tiles, value = entries[seat]
        total += pips[seat] or 0
        count += value.bit_count() if is_tiles else 1  # a figure is at least one tile
        if total > limit or count > most_tiles:
            raise _disagrees(seat, pips[seat] or 0, why, **why_params)
    return pips


def replay_tally_hand(hand: Mapping[str, object], match: MatchState, leader: int) -> HandReport:
    """Replay one tally hand into `match` and report it."""
    players = match.players
    scores = hand.get("scores")
    if not isinstance(scores, list | tuple):
        raise engine_error("bad_format", detail_code="scores_not_list")
    plays: list[PlayReport] = []
    over = False
    for index, entry in enumerate(scores):
        try:
            if over:
                raise engine_error("match_over")
            if not isinstance(entry, list | tuple) or len(entry) != 2:
                raise engine_error("bad_format", detail_code="score_not_pair", value=repr(entry))
            seat, points = entry
            if type(seat) is not int or not 0 <= seat < players:
                raise engine_error("bad_format", detail_code="not_a_seat", value=repr(seat))
            if type(points) is not int or points not in PLAY_SCORES:
                raise engine_error("bad_points", seat=seat, points=points)
            plays.append(PlayReport(None, seat, None, points))
            if points and match.score_play(seat, points):
                over = True
        except AllFivesError as error:
            raise error.located(move=index) from None
    end = hand.get("end")
    if not isinstance(end, Mapping) or len(end) != 1:
        raise engine_error(
            "bad_format",
            detail_code="end_shape",
        )
    ((kind, value),) = end.items()
    went_out: int | None = None
    if kind == "domino":
        if type(value) is not int or not 0 <= value < players:
            raise engine_error("bad_format", detail_code="not_a_seat", value=repr(value))
        went_out = value
    elif kind not in ("blocked", "target") or value is not True:
        raise engine_error("bad_format", detail_code="end_kind", value=f"{kind!r}: {value!r}")
    entries = parse_left(hand.get("left"), players)
    hand_size = match.rules.hand_size(players)
    totals_before = _hand_points(plays, players)
    if over:
        if went_out is not None and plays[-1].seat != went_out:
            raise engine_error("match_over")  # the domino came after the target was reached
        match.end_hand(None)
        return HandReport(plays, "target", [], {}, totals_before, leader, "tally")
    if kind == "target":
        raise engine_error("target_not_reached")
    pips = tally_left_pips(entries, players=players, hand_size=hand_size, went_out=went_out)
    settlement = _settle(pips, players, went_out, match)
    match.settle(settlement)
    match.end_hand(went_out)
    points = totals_before
    for side, bonus in settlement.bonus_x2.items():
        points[side] += bonus
    return HandReport(
        plays,
        settlement.end,
        list(settlement.hand_winner),
        dict(settlement.bonus_x2),
        points,
        leader,
        "tally",
    )


def _settle(
    pips: list[int | None], players: int, went_out: int | None, match: MatchState
) -> Settlement:
    needed = (
        range(players)
        if went_out is None
        else [s for s in range(players) if side_of(s, players) != side_of(went_out, players)]
    )
    for seat in needed:
        if pips[seat] is None:
            raise engine_error("left_missing", seat=seat)
    if went_out is not None:
        return settle_domino(winner=went_out, pips=pips, players=players)
    return settle_blocked(
        pips=[p or 0 for p in pips], players=players, award=match.rules.blocked_award
    )


def _hand_points(plays: list[PlayReport], players: int) -> dict[int, int]:
    points = dict.fromkeys(range(2 if players == 4 else players), 0)
    for play in plays:
        points[side_of(play.seat, players)] += 2 * play.points
    return points
