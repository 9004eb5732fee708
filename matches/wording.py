"""An engine error put into words from a catalogue of translated templates.

This module uses the standard library only, so the scoring device runs it too: the
server builds the catalogue in the user's language from ``matches.messages`` and
words its refusals here; the engine bundle the device loads into Pyodide carries this
file beside ``allfives``, and the page hands it the same catalogue as JSON, so a hand
refused on the device reads exactly as the server would have put it.

A catalogue maps keys to translated templates: ``templates:<code>`` (and
``templates:<code>/<variant>``), ``details:<detail_code>``, ``reasons:<reason_code>``,
``where:<where_code>``, ``hand_ends:<end>``, ``end_words:<word>``, and the few phrases
``seat`` (``%(n)d``), ``and`` (``%(first)s``, ``%(last)s``), ``pips`` (``%(n)d``),
``no_tile``, ``player_message`` (``%(player)s``, ``%(message)s``) and ``move``
(``%(n)d``, ``%(message)s``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Params that hold a seat (the engine counts seats from 0); ``seat`` becomes ``player``.
SEAT_PARAMS = ("turn", "leader", "expected", "other", "holder")
END_LETTERS = {"W": "west", "E": "east", "N": "north", "S": "south"}

type Catalogue = Mapping[str, str]


class _Params(dict[str, Any]):
    """Format params that leave an unknown placeholder as it was written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _format(template: str, params: Mapping[str, Any]) -> str:
    return template.format_map(_Params(params))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def seat_person(seat: int, names: Mapping[int, str] | None, catalogue: Catalogue) -> str:
    """The player in `seat`, or the seat counted from 1 where no name is known."""
    if names and seat in names:
        return names[seat]
    return catalogue["seat"] % {"n": seat + 1}


def words_and(words: list[str], catalogue: Catalogue) -> str:
    """``a, b and c`` in the catalogue's language."""
    if len(words) < 2:
        return "".join(words)
    return catalogue["and"] % {"first": ", ".join(words[:-1]), "last": words[-1]}


def _end_word(word: str, catalogue: Catalogue) -> str:
    return catalogue.get(f"end_words:{word}", word)


def _params(
    code: str, raw: Mapping[str, Any], names: Mapping[int, str] | None, catalogue: Catalogue
) -> dict[str, Any]:
    """The error's params for people: seats by the player's name, figures and end names
    in the catalogue's language, the free-text parts from their codes."""
    params = dict(raw)
    if _is_int(raw.get("seat")):
        params["player"] = seat_person(raw["seat"], names, catalogue)
    for key in SEAT_PARAMS:
        if _is_int(raw.get(key)):
            params[key] = seat_person(raw[key], names, catalogue)
    if isinstance(raw.get("end_name"), str):
        params["end_name"] = _end_word(raw["end_name"], catalogue)
    if isinstance(raw.get("end_names"), str):
        params["end_names"] = words_and(
            [_end_word(w, catalogue) for w in raw["end_names"].split(" and ")], catalogue
        )
    open_pips = raw.get("open_pips")
    if isinstance(open_pips, Mapping):
        params["ends"] = ", ".join(
            f"{_end_word(END_LETTERS.get(str(end), str(end)), catalogue)} {pips}"
            for end, pips in open_pips.items()
        )
    if code == "hand_over" and isinstance(raw.get("end"), str):
        params["end"] = catalogue.get(f"hand_ends:{raw['end']}", raw["end"])
    given = raw.get("given_value")
    if _is_int(given):
        params["given"] = catalogue["pips"] % {"n": given}
    elif isinstance(given, list):
        params["given"] = " ".join(str(t) for t in given) or catalogue["no_tile"]
    for param, prefix, key in (
        ("where", "where", "where_code"),
        ("reason", "reasons", "reason_code"),
        ("detail", "details", "detail_code"),
    ):
        template = catalogue.get(f"{prefix}:{raw.get(key)}")
        if template is not None:
            params[param] = _format(template, params)
    return params


def error_text(
    code: str,
    params: Mapping[str, Any],
    fallback: str,
    *,
    names: Mapping[int, str] | None,
    catalogue: Catalogue,
) -> str:
    """An engine error (its code and params) in the catalogue's language, each seat by
    its player's name in ``names`` (seat → name); ``fallback`` for an unknown code.

    >>> catalogue = {"templates:boneyard_empty": "{player} menarik dari boneyard kosong.",
    ...              "seat": "kursi %(n)d", "player_message": "%(player)s: %(message)s"}
    >>> error_text("boneyard_empty", {"seat": 1}, "", names={1: "Budi"}, catalogue=catalogue)
    'Budi menarik dari boneyard kosong.'
    """
    variant = params.get("variant")
    template = catalogue.get(
        f"templates:{code}" if variant is None else f"templates:{code}/{variant}"
    )
    if template is None:
        return fallback
    words = _params(code, params, names, catalogue)
    message = _format(template, words)
    if "player" in words and "{player}" not in template:
        # The seat as context, when known: "Budi: [6|6] does not match …".
        message = catalogue["player_message"] % {"player": words["player"], "message": message}
    return message[:1].upper() + message[1:]
