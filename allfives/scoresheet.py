"""Reading and judging a whole scoresheet (docs/scoresheet.md, ``"format": "allfives/1"``).

`replay(document)` walks the parsed JSON of a match hand by hand and move by
move, applying every rule, and returns a `MatchReport`; the first broken rule
raises an `AllFivesError` with ``hand`` and ``move`` filled in. `check(document)`
is the same but never raises: it returns the Output document, or
``{"ok": false, "error": {...}}``.

Decisions taken here (the rest live with the rule they concern):

- ``format`` may be left out (it then means ``allfives/1``); any other value is
  ``bad_format``. Where a document is *stored* (the API's import) it must be given:
  `format_check` with ``required=True``. Unknown fields are ignored, as
  docs/scoresheet.md allows.
- A hand is tile-by-tile when it has ``moves`` and tally when it has
  ``scores``; both or neither is ``bad_format``. Every hand names its
  ``leader``; the first hand and a hand after a block go by lot (any seat), a
  hand after a domino must be led by the seat that went out (``wrong_leader``).
- The match ends at the event that reaches a target (R22): a later move in the
  hand, a later scoring play, or a later hand is ``match_over``. A hand
  whose moves stop before it is over (and before the target) is
  ``hand_incomplete``: a scoresheet records hands played to their end.
- ``left`` is checked whenever it is given, even when not needed (the target
  cut the hand short, or a deal makes it redundant).
- ``time_called_after`` (R24, a rule set with ``time_limit`` only) is the number
  of hands played when time was called, the hand in play included: once that many
  hands are complete and no side has reached its target, the match ends on time;
  a further hand is ``time_called``. Fewer hands leave the match going on (the
  hand in play is still to be recorded).

`went_out(hand, end)` reads from a hand already judged who went out (R16).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from allfives.dealt import check_dealt, replay_dealt_hand
from allfives.entry import parse_left, read_deal
from allfives.errors import AllFivesError, engine_error
from allfives.hand import HandState
from allfives.layout import END_INDEX
from allfives.match import MatchState
from allfives.reports import HandReport, MatchReport
from allfives.rules import PLAYER_COUNTS, Rules, check_players, side_of, sides_of
from allfives.tally import replay_tally_hand
from allfives.tiles import TEXT_INFO

__all__ = ["FORMAT", "check", "format_check", "replay", "went_out"]

#: The format and version this engine reads and writes.
FORMAT: Final = "allfives/1"
_MISSING: Final = object()


def went_out(hand: Mapping[str, object], end: str) -> int | None:
    """The seat that went out in a scoresheet hand that ended `end` (R16), else None.

    Only a ``"domino"`` ends with a seat going out. A tally hand names it
    (``"end": {"domino": seat}``); in a tile-by-tile hand it is the seat that laid
    the last tile, for a domino is the laying of one's last tile. The hand is read
    as written, not judged: `replay` checks it.

    >>> went_out({"scores": [[1, 10]], "end": {"domino": 2}}, "domino")
    2
    >>> moves = [{"seat": 0, "play": "5-5"}, {"seat": 1, "play": "5-0"}, {"seat": 0, "pass": True}]
    >>> went_out({"moves": moves}, "domino"), went_out({"moves": moves}, "blocked")
    (1, None)
    """
    if end != "domino":
        return None
    moves = hand.get("moves")
    if isinstance(moves, list | tuple):
        for move in reversed(moves):
            if isinstance(move, Mapping) and "play" in move:
                seat = move.get("seat")
                return seat if type(seat) is int else None
        return None
    ending = hand.get("end")
    seat = ending.get("domino") if isinstance(ending, Mapping) else None
    return seat if type(seat) is int else None


def _bad(detail_code: str, **params: object) -> AllFivesError:
    return engine_error("bad_format", seat=None, detail_code=detail_code, **params)


def format_check(document: Mapping[str, object], *, required: bool = False) -> None:
    """Raise ``bad_format`` unless the document's ``format`` is exactly `FORMAT`.

    Left out, it means `FORMAT` unless `required` (as for a document to be stored).

    >>> format_check({"players": 2})
    >>> format_check({"players": 2}, required=True)
    Traceback (most recent call last):
    ...
    allfives.errors.FormatError: the format must be 'allfives/1', not missing
    """
    given = document.get("format", _MISSING)
    if given is _MISSING and not required:
        return
    if type(given) is not str or given != FORMAT:
        shown = "missing" if given is _MISSING else repr(given)
        raise _bad("wrong_format", value=shown)


#: Rule sets already read: (a copy of a ``rules`` object made only of plain dicts,
#: strings and ints, its `Rules`); at most 16. Between two such objects ``==`` is
#: exact (no ``1 == 1.0`` or ``1 == True`` can arise), so an equal one reads the same.
_RULES_READ: Final[list[tuple[dict[str, object], Rules]]] = []


def _read_rules(obj: object) -> Rules:
    """`Rules.from_json`, once per distinct ``rules`` object (`Rules` is immutable)."""
    if type(obj) is not dict:
        return Rules.from_json(obj)
    for key, value in obj.items():
        if type(key) is not str:
            return Rules.from_json(obj)
        if type(value) is dict:
            for inner, number in value.items():
                if type(inner) is not str or type(number) is not int:
                    return Rules.from_json(obj)
        elif type(value) is not str and type(value) is not int:
            return Rules.from_json(obj)
    for known, rules in _RULES_READ:
        if known == obj:
            return rules
    rules = Rules.from_json(obj)
    if len(_RULES_READ) >= 16:
        _RULES_READ.clear()
    copied = {key: dict(value) if type(value) is dict else value for key, value in obj.items()}
    _RULES_READ.append((copied, rules))
    return rules


def replay(document: object) -> MatchReport:
    """Replay a scoresheet, raising an `AllFivesError` at the first broken rule.

    >>> report = replay({"players": 2, "hands": [{"leader": 0, "scores": [[0, 10]],
    ...     "end": {"domino": 0}, "left": {"1": 13}}]})
    >>> report.totals_x2, report.next_leader, report.finished
    ({0: 50, 1: 0}, 0, False)
    """
    if not isinstance(document, Mapping):
        raise _bad("not_object")
    format_check(document)
    players = check_players(document.get("players"))
    rules = _read_rules(document.get("rules"))
    hands = document.get("hands")
    if not isinstance(hands, list | tuple):
        raise _bad("hands_not_list")
    time_after = _time_called_after(document, rules)
    match = MatchState(players, rules)
    reports = []
    for index, hand in enumerate(hands):
        try:
            if match.time_called and match.is_over:
                raise engine_error("time_called", after=time_after)
            reports.append(_replay_hand(hand, match))
        except AllFivesError as error:
            raise error.located(hand=index) from None
        if index + 1 == time_after and not match.is_over:
            match.call_time()
    return MatchReport(
        hands=reports,
        totals_x2=match.totals_x2,
        winners=list(match.winners),
        finished=match.is_over,
        next_leader=match.next_leader,
        players=players,
        rules=rules,
        time_called=match.time_called,
        deciding=list(match.deciding),
    )


def _time_called_after(document: Mapping[str, object], rules: Rules) -> int | None:
    """The document's ``time_called_after`` (R24), checked; None when time was not called."""
    after = document.get("time_called_after")
    if after is None:
        return None
    if type(after) is not int or after < 1:
        raise _bad("time_after", value=repr(after))
    if not rules.has_clock:
        raise _bad("time_not_limited")
    return after


def check(document: object) -> dict[str, object]:
    """The docs/scoresheet.md verdict on a parsed document; never raises.

    >>> check({"players": 5, "hands": []})["error"]["code"]
    'bad_players'
    """
    try:
        verdict = _check_dealt(document)
        if verdict is not None:
            return verdict
        return replay(document).to_json(share=True)
    except AllFivesError as error:
        return {"ok": False, "error": error.to_json()}
    except RecursionError:  # a pathologically deep document, not a scoresheet
        return {"ok": False, "error": _bad("too_deep").to_json()}
    except Exception as exc:  # check must not raise; replay() shows the bug itself
        failure = engine_error(
            "internal_error", detail_code="engine_bug", kind=type(exc).__name__, why=str(exc)
        )
        return {"ok": False, "error": failure.to_json()}


def _check_dealt(document: object) -> dict[str, object] | None:
    """`check`'s verdict on a document whose every hand comes with its deal, by
    `allfives.dealt.check_dealt`, or None for `replay` to judge it. Only a document
    that `replay` reads without a doubt gets this far: a dict in this format, with
    a valid player count, rule set and list of hands, that calls no time (R24)."""
    if type(document) is not dict:
        return None
    given = document.get("format", FORMAT)
    players = document.get("players")
    hands = document.get("hands")
    if (
        type(given) is not str
        or given != FORMAT
        or type(players) is not int
        or players not in PLAYER_COUNTS
        or type(hands) is not list
        or document.get("time_called_after") is not None
    ):
        return None
    try:
        rules = _read_rules(document.get("rules"))
        return check_dealt(hands, players, rules)
    except AllFivesError:
        return None  # `replay` names it, with the hand and move where it stands


def _replay_hand(hand: object, match: MatchState) -> HandReport:
    if match.is_over:
        raise engine_error("match_over")
    if type(hand) is not dict and not isinstance(hand, Mapping):
        raise _bad("hand_not_object")
    leader = hand.get("leader")
    if type(leader) is not int:
        raise _bad("leader_not_seat", value=repr(leader))
    match.start_hand(leader)
    has_moves = "moves" in hand
    if has_moves == ("scores" in hand):
        raise _bad("moves_or_scores")
    if has_moves:
        return _replay_tiles_hand(hand, match, leader)
    return replay_tally_hand(hand, match, leader)


def _replay_tiles_hand(hand: Mapping[str, object], match: MatchState, leader: int) -> HandReport:
    """Replay a tile-by-tile hand; every rule is checked (see `allfives.hand`)."""
    players = match.players
    rules = match.rules
    deal = hand.get("deal")
    masks = None if deal is None else read_deal(deal, players, rules.hand_size(players))
    if masks is not None:
        report = replay_dealt_hand(hand, match, leader, masks)
        if report is not None:
            return report
    state = HandState.from_masks(players, leader, rules, masks)
    moves = hand.get("moves")
    if not isinstance(moves, list | tuple):
        raise _bad("moves_not_list")
    plays: list[tuple[int | None, int, int | None, int]] = []
    points_x2 = [0] * len(sides_of(players))
    layout = state.layout
    play = state.play
    add_play = plays.append
    text_info = TEXT_INFO
    end_index = END_INDEX
    over = False
    for index, move in enumerate(moves):
        try:
            if over:
                raise engine_error("match_over")
            if type(move) is not dict and not isinstance(move, Mapping):
                raise _bad("move_not_object", value=repr(move))
            seat = move.get("seat")
            if type(seat) is not int or not 0 <= seat < players:
                raise _bad("move_seat", last=players - 1, value=repr(seat))
            text = move.get("play", _MISSING)
            if text is not _MISSING:
                if "draw" in move or "pass" in move:
                    raise _bad("move_kind")
                info = text_info.get(text) if type(text) is str else None
                if info is None:
                    raise _bad("not_a_tile", value=repr(text))
                end = move.get("end")
                if end is None:
                    e = None
                else:
                    e = end_index.get(end) if type(end) is str else None
                    if e is None:
                        raise _bad("not_an_end", value=repr(end))
                points = play(seat, info[0], e, info[1])
                add_play((index, seat, layout.count, points))
                if points:
                    points_x2[side_of(seat, players)] += points + points
                    over = match.score_play(seat, points)
                continue
            face = move.get("draw", _MISSING)
            if face is not _MISSING:
                if "pass" in move:
                    raise _bad("move_kind")
                if face is None:
                    state.draw(seat, -1)
                else:
                    info = text_info.get(face) if type(face) is str else None
                    if info is None:
                        raise _bad("not_a_tile", value=repr(face))
                    state.draw(seat, info[0])
            elif "pass" in move:
                if move["pass"] is not True:
                    raise _bad("pass_true")
                state.pass_turn(seat)
            else:
                raise _bad("move_kind")
        except AllFivesError as error:
            raise error.located(move=index) from None
    entries = parse_left(hand.get("left"), players)
    if over:
        if entries:
            state.left_pips(entries)
        match.end_hand(None)
        return HandReport(plays, "target", [], {}, dict(enumerate(points_x2)), leader, "tiles")
    if not state.end_code:
        raise engine_error("hand_incomplete")
    settlement = state.settle_pips(state.left_pips(entries))
    match.settle(settlement)
    match.end_hand(state.went_out)
    for side, bonus in settlement.bonus_x2.items():
        points_x2[side] += bonus
    return HandReport(
        plays,
        settlement.end,
        list(settlement.hand_winner),
        dict(settlement.bonus_x2),
        dict(enumerate(points_x2)),
        leader,
        "tiles",
    )
