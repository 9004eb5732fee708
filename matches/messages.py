"""Engine errors in the user's language.

The engine (``allfives``) raises errors with a stable ``code`` and the ``params`` its
English message was built from; here each code has a translatable template, so the
scorekeeper sees the engine's reason in Indonesian or English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from allfives import AllFivesError

#: Translatable templates by engine error code (``str.format`` over the error's params).
#: Codes without a template here fall back to the engine's English message.
TEMPLATES: dict[str, Any] = {
    # The document is not a scoresheet.
    "bad_format": _("The scoresheet is not in the allfives/1 format: {detail}"),
    "bad_players": _("{players} players: All Fives is played by two, three or four."),
    "bad_deal": _("The deal is wrong: {detail}"),
    # Moves the rules forbid.
    "not_your_turn": _("Seat {seat} moves, but it is seat {turn}'s turn."),
    "tile_already_played": _("{tile} has already been played."),
    "tile_not_in_hand": _("Seat {seat} does not hold {tile} ({where})."),
    "tile_not_in_boneyard": _("Seat {seat} draws {tile}, which is not in the boneyard ({where})."),
    "tile_does_not_match": _("{tile} does not match the {end_name} end ({pips})."),
    "tile_fits_no_end": _("{tile} matches no open end ({ends})."),
    "ambiguous_end": _("{tile} fits the {end_names} ends; say which one."),
    "lead_has_no_end": _("The lead {tile} starts the line and takes no end."),
    "branch_not_open": _(
        "{tile} cannot go on the {end_name} branch; it opens only once both "
        "straight sides of the spinner hold a tile."
    ),
    "must_play": _("Seat {seat} draws but can lay {tile}."),
    "must_play_drawn_tile": _("Seat {seat} must lay the tile just drawn, {tile}, at once."),
    "drew_past_playable": _("Seat {seat} draws again after drawing {tile}, which can be laid."),
    "boneyard_empty": _("Seat {seat} draws from an empty boneyard."),
    "illegal_pass": _("Seat {seat} may not pass: {reason}."),
    "hand_over": _("Seat {seat} moves after the hand is over ({end})."),
    "hand_incomplete": _(
        "The hand stops before it is over: nobody went out, it is not blocked and no side "
        "reached its target."
    ),
    # Figures that cannot be right.
    "bad_points": _("Seat {seat} scores {points}: a play scores 0 or 5, 10, … 35."),
    "left_missing": _("The remaining tiles or pips of seat {seat} are needed to settle the hand."),
    "left_disagrees": _("Remaining {given}: {detail}."),
    "target_not_reached": _("The hand is said to end at the target, but no side reached it."),
    # The match as a whole.
    "match_over": _("The match was already won; nothing may follow."),
    "wrong_leader": _("Seat {leader} leads, but seat {expected} went out and must lead."),
    # An engine bug ("should never happen"), only ever returned by ``check``.
    "internal_error": _("The rules engine could not judge this scoresheet ({detail})."),
}


#: The engine names ends in English words (``allfives.layout.END_WORDS``).
END_WORDS: dict[str, Any] = {
    "west": _("west"),
    "east": _("east"),
    "north": _("north"),
    "south": _("south"),
}


#: Params that hold a seat (the engine counts seats from 0).
SEAT_PARAMS = ("seat", "turn", "leader", "expected")


def _params(exc: AllFivesError, names: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The error's params for people: seats by the player's name (or counted from 1, as
    the site and the card count them), end names in the active language."""
    params: dict[str, Any] = dict(exc.params)
    for key in SEAT_PARAMS:
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            params[key] = names[value] if names and value in names else value + 1
    end_name, end_names = params.get("end_name"), params.get("end_names")
    if isinstance(end_name, str):
        params["end_name"] = str(END_WORDS.get(end_name, end_name))
    if isinstance(end_names, str):
        words = [str(END_WORDS.get(w, w)) for w in end_names.split(" and ")]
        params["end_names"] = (
            str(_("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]})
            if len(words) > 1
            else words[0]
        )
    return params


def engine_error_message(exc: AllFivesError, names: Mapping[int, str] | None = None) -> str:
    """The error's message in the active language, seats named by ``names`` if given."""
    template = TEMPLATES.get(exc.code)
    if template is None:
        return exc.message
    try:
        return str(template).format(**_params(exc, names))
    except (KeyError, IndexError, ValueError):
        return exc.message


def engine_error_json(exc: AllFivesError) -> dict[str, Any]:
    """The docs/scoresheet.md error object, with the message translated."""
    body = exc.to_json()
    body["message"] = engine_error_message(exc)
    return body
