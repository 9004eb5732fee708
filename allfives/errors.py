"""Errors the engine raises for scoresheets and moves that break the rules.

Every error is an `AllFivesError`, a `ValueError` carrying a stable `code`, the
docs/rules.md `rule` it enforces (None for a document that is simply not the
docs/scoresheet.md format), a `message` for people and the `params` the message was
built from, so that a UI can translate it from the code alone. The message
templates and rule numbers live in one table, `ERRORS`, keyed by code.

Families (subclasses, to catch one kind): `FormatError` (not the format),
`IllegalMoveError` (a move the rules forbid), `ScoreError` (an impossible
figure) and `MatchError` (the match as a whole: order of hands, end). The one
error that "should never happen", ``internal_error``, is only ever returned by
`check` (which must not raise) for an engine bug or a misbehaving object.
`replay` fills in `hand` and `move` (indices into the scoresheet) as the error
travels out.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

__all__ = [
    "DETAILS",
    "ERRORS",
    "AllFivesError",
    "ErrorSpec",
    "FormatError",
    "IllegalMoveError",
    "MatchError",
    "ScoreError",
    "engine_error",
]


class ErrorSpec(NamedTuple):
    """What one error code means: its family, docs/rules.md number and message template.

    `variants` are further templates for the same code, chosen by the error's
    ``variant`` param (one refusal, worded for what the record said: a tile that
    does not match the end named, or, with no end named, no open end at all).
    """

    family: str
    rule: str | None
    template: str
    variants: Mapping[str, str] = MappingProxyType({})

    def template_for(self, variant: object) -> str:
        """The template for the ``variant`` param (None: the main one)."""
        return self.template if variant is None else self.variants[str(variant)]


#: The one table of error codes. Templates are `str.format` strings over `params`.
ERRORS: Final[Mapping[str, ErrorSpec]] = {
    # The document is not a scoresheet.
    "bad_format": ErrorSpec("format", None, "{detail}"),
    "bad_players": ErrorSpec(
        "format", "R2", "{players} players: All Fives is played by two, three or four"
    ),
    "bad_deal": ErrorSpec("format", "R3", "the deal is wrong: {detail}"),
    # Moves the rules forbid.
    "not_your_turn": ErrorSpec("move", "R2", "seat {seat} moves, but it is seat {turn}'s turn"),
    "tile_already_played": ErrorSpec("move", "R1", "{tile} has already been played"),
    "tile_not_in_hand": ErrorSpec("move", "R3", "seat {seat} does not hold {tile} ({where})"),
    "tile_not_in_boneyard": ErrorSpec(
        "move", "R3", "seat {seat} draws {tile}, which is not in the boneyard ({where})"
    ),
    "tile_does_not_match": ErrorSpec(
        "move",
        "R7",
        "{tile} does not match the {end_name} end ({pips})",
        MappingProxyType({"no_end": "{tile} fits no open end ({ends})"}),
    ),
    "ambiguous_end": ErrorSpec("move", "R7", "{tile} fits the {end_names} ends; say which one"),
    "lead_has_no_end": ErrorSpec("move", "R6", "the lead {tile} starts the line and takes no end"),
    "branch_not_open": ErrorSpec(
        "move",
        "R10",
        "{tile} cannot go on the {end_name} branch; it opens only once both "
        "straight sides of the spinner hold a tile",
    ),
    "must_play": ErrorSpec("move", "R13", "seat {seat} draws but can lay {tile}"),
    "must_play_drawn_tile": ErrorSpec(
        "move", "R14", "seat {seat} must lay the tile just drawn, {tile}, at once"
    ),
    "drew_past_playable": ErrorSpec(
        "move", "R14", "seat {seat} draws again after drawing {tile}, which can be laid"
    ),
    "boneyard_empty": ErrorSpec("move", "R14", "seat {seat} draws from an empty boneyard"),
    "illegal_pass": ErrorSpec("move", "R15", "seat {seat} may not pass: {reason}"),
    "hand_over": ErrorSpec("move", "R16", "seat {seat} moves after the hand is over ({end})"),
    "hand_incomplete": ErrorSpec(
        "move",
        "R16",
        "the hand stops before it is over: nobody went out, it is not blocked and no side "
        "reached its target",
    ),
    # Figures that cannot be right.
    "bad_points": ErrorSpec(
        "score", "R12", "seat {seat} scores {points}: a play scores 0 or 5, 10, … 35"
    ),
    "left_missing": ErrorSpec(
        "score", "R18", "the remaining tiles or pips of seat {seat} are needed to settle the hand"
    ),
    "left_disagrees": ErrorSpec("score", "R1", "remaining {given}: {detail}"),
    "target_not_reached": ErrorSpec(
        "score", "R22", "the hand is said to end at the target, but no side reached it"
    ),
    # The match as a whole.
    "match_over": ErrorSpec("match", "R22", "the match was already won; nothing may follow"),
    "internal_error": ErrorSpec(
        "internal", None, "the engine could not judge this document ({detail})"
    ),
    "wrong_leader": ErrorSpec(
        "match", "R21", "seat {leader} leads, but seat {expected} went out and must lead"
    ),
    "time_called": ErrorSpec(
        "match", "R24", "time was called after hand {after}; no further hand may be played"
    ),
}


#: The detail of a ``bad_format``, ``bad_deal``, ``left_disagrees`` or ``internal_error``
#: by its stable ``detail_code`` (a param of the error, with the params it is built from),
#: so that a UI translates the detail too. Templates are `str.format` strings.
DETAILS: Final[Mapping[str, str]] = {
    # bad_format: the document's shape.
    "not_object": "a scoresheet is a JSON object",
    "wrong_format": "the format must be 'allfives/1', not {value}",
    "hands_not_list": "'hands' must be a list",
    "too_deep": "the document is nested too deeply",
    "hand_not_object": "a hand must be an object",
    "leader_not_seat": "the leader must be a seat, not {value}",
    "moves_or_scores": "a hand has either 'moves' (tile by tile) or 'scores' (tally)",
    "moves_not_list": "'moves' must be a list",
    "move_not_object": "a move must be an object, not {value}",
    "move_seat": "a move's seat must be 0 to {last}, not {value}",
    "move_kind": "a move has exactly one of 'play', 'draw' and 'pass'",
    "not_a_tile": "{value} is not a tile: write it as two pips 0-6, e.g. '3-6'",
    "not_an_end": "{value} is not an end (W, E, N or S)",
    "pass_true": "a pass is written 'pass': true",
    "play_needs_tile": "a play needs a tile",
    "no_half": "{tile} has no half {value}",
    "draw_no_end": "a draw takes no end",
    "pass_no_tile": "a pass takes no tile and no end",
    "not_a_move": "{value} is not a move (play, draw or pass)",
    "seat_not_at_table": "seat {other} is not at the table",
    "draw_unnamed": "seat {other} draws without naming the tile: with a deal every draw must "
    "say which tile was drawn",
    "scores_not_list": "'scores' must be a list of [seat, points]",
    "score_not_pair": "{value} is not [seat, points]",
    "not_a_seat": "{value} is not a seat",
    "end_shape": '\'end\' must be {{"domino": seat}}, {{"blocked": true}} or {{"target": true}}',
    "end_kind": "{value} is not a way to end",
    "left_not_object": "'left' must be an object keyed by seat",
    "left_not_tile": "left: {value} is not a tile",
    "left_twice": "left: seat {other} is given twice",
    "left_value": "left: {value} must be a whole number of pips or a list of tiles",
    "placing": "placing {value} is not among {table}",
    "bad_rules": "rules: {why}",
    "time_not_limited": "'time_called_after' needs a rule set with a round clock ('time_limit')",
    "time_after": "'time_called_after' must be a whole number of hands from 1, not {value}",
    "bad_layout": "{value} is not a layout: {why}",
    "unreadable": "{why}",
    # bad_deal
    "deal_per_seat": "it must give one hand per seat ({players})",
    "dealt_twice": "{tile} is dealt twice",
    "deal_size": "seat {other} has {count} tiles; {players} players get {size} each",
    "deal_not_list": "seat {other}'s hand must be a list of tiles",
    # left_disagrees: the remaining tiles or pips given cannot be right.
    "deal_leaves": "the deal leaves it {tiles}",
    "tiles_carry": "its tiles carry {pips} pips",
    "holds_count": "it holds {count} tile(s)",
    "on_table": "{tile} is on the table",
    "drew": "it drew {tile}",
    "in_other_hand": "{tile} is in another seat's hand",
    "listed_other": "{tile} is listed for another seat too",
    "would_fit": "{tile} would fit, yet all passed",
    "listed_twice": "{tile} is listed twice",
    "pips_range": "its {count} tile(s) can carry only {low} to {high} pips",
    "together": "the seats given hold {total} pips together, but the tiles not on the table "
    "allow {low} to {high}",
    "listed_two_seats": "a tile is listed for two seats",
    "went_out_holds": "it went out, so it holds no tile",
    "only_out_empty": "only the player who went out holds no tile",
    "negative": "a pip total is a whole number from 0",
    "zero_twice": "seat {other} is at 0 too, and only [0|0] weighs 0",
    "value_on_table": "in a blocked hand one pip value is wholly on the table",
    "others_at_most": "the others hold at most {most} tiles, at most {limit} pips",
    "blocked_at_most": "in a blocked hand the hands carry at most {limit} pips",
    # internal_error
    "engine_bug": "{kind}: {why}",
}


class AllFivesError(ValueError):
    """A scoresheet or move breaks a rule (or is not the format).

    >>> error = AllFivesError("not_your_turn", seat=2, turn=1)
    >>> error.code, error.rule, error.message
    ('not_your_turn', 'R2', "seat 2 moves, but it is seat 1's turn")
    >>> error.to_json()["rule"]
    'R2'
    """

    code: str
    rule: str | None
    message: str
    hand: int | None
    move: int | None
    seat: int | None
    params: dict[str, object]

    def __init__(
        self,
        code: str,
        *,
        seat: int | None = None,
        hand: int | None = None,
        move: int | None = None,
        **params: object,
    ) -> None:
        self._fill(code, seat, hand, move, params)

    def _fill(
        self,
        code: str,
        seat: int | None,
        hand: int | None,
        move: int | None,
        params: dict[str, object],
    ) -> None:
        spec = ERRORS[code]
        if seat is not None:
            params["seat"] = seat
        self.code = code
        self.rule = spec.rule
        self.params = params
        template = spec.template_for(params.get("variant"))
        message = template.format_map(params)
        if seat is not None and "{seat}" not in template:
            message = f"seat {seat}: {message}"  # the seat as context, when known
        self.message = message
        self.hand = hand
        self.move = move
        self.seat = seat
        self.args = (self.message,)

    def __str__(self) -> str:
        return self.message

    def located(self, *, hand: int | None = None, move: int | None = None) -> AllFivesError:
        """Fill in the scoresheet position where it is not known yet; returns self."""
        if self.hand is None:
            self.hand = hand
        if self.move is None:
            self.move = move
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.code, self.seat, self.hand, self.move, self.params))

    def to_json(self) -> dict[str, object]:
        """The docs/scoresheet.md error object."""
        return {
            "hand": self.hand,
            "move": self.move,
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
        }


class FormatError(AllFivesError):
    """The document is not the docs/scoresheet.md format (code ``bad_format`` and kin)."""


class IllegalMoveError(AllFivesError):
    """A move the rules forbid (R1-R16)."""


class ScoreError(AllFivesError):
    """A score or remaining-pip figure that cannot be right."""


class MatchError(AllFivesError):
    """The match as a whole: a hand after the match is won, the wrong leader."""


def _rebuild(
    cls: type[AllFivesError],
    code: str,
    seat: int | None,
    hand: int | None,
    move: int | None,
    params: dict[str, object],
) -> AllFivesError:
    error = cls.__new__(cls)
    error._fill(code, seat, hand, move, dict(params))
    return error


_FAMILIES: Final[dict[str, type[AllFivesError]]] = {
    "internal": AllFivesError,
    "format": FormatError,
    "move": IllegalMoveError,
    "score": ScoreError,
    "match": MatchError,
}


def engine_error(
    code: str, *, seat: int | None = None, detail_code: str | None = None, **params: object
) -> AllFivesError:
    """Build the error for `code`, as an instance of its family's subclass; a
    `detail_code` (a `DETAILS` key) builds its ``detail`` from the params.

    >>> type(engine_error("match_over")).__name__
    'MatchError'
    >>> engine_error("bad_format", detail_code="not_a_seat", value="4").message
    '4 is not a seat'
    """
    if detail_code is not None:
        params["detail_code"] = detail_code
        params["detail"] = DETAILS[detail_code].format_map(params)
    error = _FAMILIES[ERRORS[code].family].__new__(_FAMILIES[ERRORS[code].family])
    error._fill(code, seat, None, None, params)
    return error
