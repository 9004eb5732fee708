"""Engine errors in the user's language, naming the players.

The engine (``allfives``) raises errors with a stable ``code`` and the ``params`` its
English message was built from: seats (counted from 0), tiles, figures, and for the
free-text parts a stable ``detail_code`` (``allfives.errors.DETAILS``), ``reason_code``
(a pass), ``where_code`` (where a tile is instead) and ``given_value`` (a remaining
figure). Here each of those codes has a translatable template, so the scorekeeper reads
the engine's whole reason in Indonesian or English, with each seat named by its player
(``{player}`` is the seat the error is about) — or, where no name is known, as the
seat counted from 1, as the site and the table card count them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from allfives import AllFivesError
from matches.wording import END_LETTERS as END_LETTERS
from matches.wording import error_text

#: Translatable templates by engine error code (``str.format`` over the error's params,
#: with ``{player}`` the seat's player and every other seat by its player too), and by
#: ``code/variant`` for a code's other wordings (``allfives.errors.ErrorSpec``).
TEMPLATES: dict[str, Any] = {
    # The document is not a scoresheet.
    "bad_format": _("The scoresheet is not in the allfives/1 format: {detail}"),
    "bad_players": _("{players} players: All Fives is played by two, three or four."),
    "bad_deal": _("The deal is wrong: {detail}"),
    # Moves the rules forbid.
    "not_your_turn": _("{player} moves, but it is {turn}'s turn."),
    "tile_already_played": _("{tile} has already been played."),
    "tile_not_in_hand": _("{player} does not hold {tile}: {where}."),
    "tile_not_in_boneyard": _("{player} draws {tile}, which is not in the boneyard: {where}."),
    "tile_does_not_match": _("{tile} does not match the {end_name} end ({pips})."),
    "tile_does_not_match/no_end": _("{tile} fits no open end ({ends})."),
    "ambiguous_end": _("{tile} fits the {end_names} ends; say which one."),
    "lead_has_no_end": _("The lead {tile} starts the line and takes no end."),
    "branch_not_open": _(
        "{tile} cannot go on the {end_name} branch; it opens only once both "
        "straight sides of the spinner hold a tile."
    ),
    "must_play": _("{player} draws but can lay {tile}."),
    "must_play_drawn_tile": _("{player} must lay the tile just drawn, {tile}, at once."),
    "drew_past_playable": _("{player} draws again after drawing {tile}, which can be laid."),
    "boneyard_empty": _("{player} draws from an empty boneyard."),
    "illegal_pass": _("{player} may not pass: {reason}."),
    "hand_over": _("{player} moves after the hand is over ({end})."),
    "hand_incomplete": _(
        "The hand stops before it is over: nobody went out, it is not blocked and no side "
        "reached its target."
    ),
    # Figures that cannot be right.
    "bad_points": _("{player} scores {points}: a play scores 0 or 5, 10, … 35."),
    "left_missing": _("What {player} still holds (tiles or pips) is needed to settle the hand."),
    "left_disagrees": _("{player} holds {given}? That cannot be: {detail}."),
    "target_not_reached": _("The hand is said to end at the target, but no side reached it."),
    # The match as a whole.
    "match_over": _("The match was already won; nothing may follow."),
    "wrong_leader": _("{leader} leads, but {expected} went out and must lead."),
    "time_called": _("Time was called after hand {after}; no further hand may be played."),
    # An engine bug ("should never happen"), only ever returned by ``check``.
    "internal_error": _("The rules engine could not judge this scoresheet."),
}

#: The engine's ``detail`` by its ``detail_code`` (``allfives.errors.DETAILS``).
DETAILS: dict[str, Any] = {
    # bad_format: the document's shape.
    "not_object": _("a scoresheet is a JSON object"),
    "wrong_format": _("the format must be allfives/1, not {value}"),
    "hands_not_list": _("the hands must be a list"),
    "too_deep": _("the document is nested too deeply"),
    "hand_not_object": _("a hand must be an object"),
    "leader_not_seat": _("the leader must be a seat at the table, not {value}"),
    "moves_or_scores": _("a hand has either moves (tile by tile) or scores (tally)"),
    "moves_not_list": _("the moves must be a list"),
    "move_not_object": _("a move must be an object, not {value}"),
    "move_seat": _("a move's seat must be one at the table, not {value}"),
    "move_kind": _("a move is exactly one of a play, a draw and a pass"),
    "not_a_tile": _("{value} is not a tile: write it as two pips 0-6, e.g. 3-6"),
    "not_an_end": _("{value} is not an end (W, E, N or S)"),
    "pass_true": _("a pass is written as pass: true"),
    "play_needs_tile": _("a play needs a tile"),
    "no_half": _("{tile} has no half {value}"),
    "draw_no_end": _("a draw takes no end"),
    "pass_no_tile": _("a pass takes no tile and no end"),
    "not_a_move": _("{value} is not a move (play, draw or pass)"),
    "seat_not_at_table": _("{other} is not at the table"),
    "draw_unnamed": _(
        "{other} draws without naming the tile: with a deal every draw must say which tile "
        "was drawn"
    ),
    "scores_not_list": _("the scoring plays must be a list of [seat, points]"),
    "score_not_pair": _("{value} is not [seat, points]"),
    "not_a_seat": _("{value} is not a seat at the table"),
    "end_shape": _("the hand must end in a domino, blocked or at the target"),
    "end_kind": _("{value} is not a way for a hand to end"),
    "left_not_object": _("what each seat still holds must be given seat by seat"),
    "left_not_tile": _("{value} is not a tile"),
    "left_twice": _("what {other} still holds is given twice"),
    "left_value": _("{value} must be a whole number of pips or a list of tiles"),
    "placing": _("placing {value} is not among {table}"),
    "bad_rules": _("the tournament's rules cannot be read"),
    "time_not_limited": _("time can be called only under a rule set with a round clock"),
    "time_after": _("the hand after which time was called must be a whole number from 1"),
    "bad_layout": _("{value} is not a layout"),
    "unreadable": _("the file cannot be read as JSON"),
    # bad_deal
    "deal_per_seat": _("it must give one hand per seat ({players})"),
    "dealt_twice": _("{tile} is dealt twice"),
    "deal_size": _("{other} has {count} tiles; {players} players get {size} each"),
    "deal_not_list": _("the hand of {other} must be a list of tiles"),
    # left_disagrees: what the player is said to hold.
    "deal_leaves": _("the deal leaves {player} {tiles}"),
    "tiles_carry": _("the tiles of {player} carry {pips} pips"),
    "holds_count": _("{player} holds {count} tile(s)"),
    "on_table": _("{tile} is on the table"),
    "drew": _("{player} drew {tile}"),
    "in_other_hand": _("{tile} is in another player's hand"),
    "listed_other": _("{tile} is listed for another player too"),
    "would_fit": _("{tile} would fit, yet everyone passed"),
    "listed_twice": _("{tile} is listed twice"),
    "pips_range": _("the {count} tile(s) of {player} can carry only {low} to {high} pips"),
    "together": _(
        "together the players given hold {total} pips, but the tiles not on the table allow "
        "{low} to {high}"
    ),
    "listed_two_seats": _("a tile is listed for two players"),
    "went_out_holds": _("{player} went out (domino), so holds no tile"),
    "only_out_empty": _("only the player who went out holds no tile"),
    "negative": _("a pip total is a whole number from 0"),
    "zero_twice": _("{other} is at 0 too, and only [0|0] weighs 0"),
    "value_on_table": _("in a blocked hand one pip value is wholly on the table"),
    "others_at_most": _("the others hold at most {most} tiles, at most {limit} pips"),
    "blocked_at_most": _("in a blocked hand the hands carry at most {limit} pips"),
    "engine_bug": _("an error in the rules engine"),
}

#: Why a pass is refused, by the error's ``reason_code``.
REASONS: dict[str, Any] = {
    "boneyard_not_empty": _("the boneyard is not empty, so draw"),
    "lead_first": _("the lead must be laid first"),
    "can_play": _("{player} can lay {tile}"),
    "block_impossible": _(
        "{tile} is not on the table, so one of the players who passed holds a tile that fits"
    ),
}

#: Where a tile is instead, by the error's ``where_code``.
WHERE: dict[str, Any] = {
    "held": _("{holder} holds it"),
    "on_table": _("it is already on the table"),
    "boneyard": _("it is in the boneyard"),
    "unseen": _("it is not among the tiles still unseen"),
}

#: How a hand ended (``hand_over``'s ``end``).
HAND_ENDS: dict[str, Any] = {"domino": _("domino"), "blocked": _("blocked")}

#: The engine names ends in English words (``allfives.layout.END_WORDS``) and letters.
END_WORDS: dict[str, Any] = {
    "west": _("west"),
    "east": _("east"),
    "north": _("north"),
    "south": _("south"),
}
#: The ends' initials on buttons and captions: barat/timur/utara/selatan are B/T/U/S.
END_INITIALS: dict[str, Any] = {
    "W": pgettext_lazy("initial of west", "W"),
    "E": pgettext_lazy("initial of east", "E"),
    "N": pgettext_lazy("initial of north", "N"),
    "S": pgettext_lazy("initial of south", "S"),
}


def message_catalogue() -> dict[str, str]:
    """Every template above in the active language, keyed as ``matches.wording`` reads
    them: what the server words its refusals from, and what the scoring page ships to
    the device so an offline refusal reads the same."""
    catalogue: dict[str, str] = {}
    for prefix, table in (
        ("templates", TEMPLATES),
        ("details", DETAILS),
        ("reasons", REASONS),
        ("where", WHERE),
        ("hand_ends", HAND_ENDS),
        ("end_words", END_WORDS),
    ):
        for key, template in table.items():
            catalogue[f"{prefix}:{key}"] = str(template)
    catalogue.update(
        {
            "seat": gettext("seat %(n)d"),
            "and": gettext("%(first)s and %(last)s"),
            "pips": gettext("%(n)d pips"),
            "no_tile": gettext("no tile"),
            "player_message": gettext("%(player)s: %(message)s"),
            "move": gettext("Move %(n)d: %(message)s"),
        }
    )
    return catalogue


def engine_error_message(exc: AllFivesError, names: Mapping[int, str] | None = None) -> str:
    """The error's message in the active language, each seat by its player's name in
    ``names`` (seat → name), else counted from 1."""
    return error_text(exc.code, exc.params, exc.message, names=names, catalogue=message_catalogue())


def engine_error_json(exc: AllFivesError) -> dict[str, Any]:
    """The docs/scoresheet.md error object, with the message translated."""
    body = exc.to_json()
    body["message"] = engine_error_message(exc)
    return body
