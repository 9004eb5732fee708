"""The scorekeeper's forms: a tally hand and a tile-by-tile hand.

The forms turn what was typed or tapped into a docs/scoresheet.md hand and nothing
more: whether the hand is possible is the engine's to say (the view shows its
reasons at the field they concern, keeping what was typed). Buttons that build the
hand step by step (a scoring play, a tile laid, a draw, a pass, undo) edit the
``scores`` or ``moves`` text, so the page works with plain form posts; htmx only
saves the page reload.

Text forms (also typed by hand): tally scores ``"1:10 3:15"`` (seat:points);
moves one per line, ``"1 3-6"`` (the lead), ``"2 6-6 E"`` (a tile on an end),
``"3 draw 2-4"`` or ``"3 draw"`` (face not seen), ``"4 pass"``. People count seats
from 1 (kursi 1..N), so the text does too; the hand the forms build keeps the
scoresheet's seats from 0 (docs/scoresheet.md).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from matches.selectors import SeatInfo

_SCORE = re.compile(r"^(\d+):(-?\d+)$")
_TILE = re.compile(r"^[0-6]-[0-6]$")
ENDS = ("W", "E", "N", "S")


def seat_parse(text: str, *, seat_count: int) -> int:
    """A seat as a person types it (1..N) → the scoresheet's seat (0..N-1)."""
    seat = int(text)
    if not 1 <= seat <= seat_count:
        raise ValidationError(
            _("Seat %(seat)d does not exist: seats count from 1 to %(count)d.")
            % {"seat": seat, "count": seat_count},
            code="bad_seat",
        )
    return seat - 1


def scores_parse(text: str, *, seat_count: int) -> list[list[int]]:
    """``"1:10 3:15"`` → ``[[0, 10], [2, 15]]``."""
    plays = []
    for token in re.split(r"[\s,;]+", text.strip()):
        if not token:
            continue
        match = _SCORE.match(token)
        if match is None:
            raise ValidationError(
                _("Write each scoring play as seat:points, for example 1:10 (not %(t)s).")
                % {"t": token},
                code="bad_scores",
            )
        plays.append([seat_parse(match.group(1), seat_count=seat_count), int(match.group(2))])
    return plays


def scores_format(plays: list[list[int]]) -> str:
    return " ".join(f"{seat + 1}:{points}" for seat, points in plays)


def move_parse(line: str, *, seat_count: int) -> dict[str, Any]:
    """One line of moves text → a docs/scoresheet.md move."""
    tokens = line.split()
    if len(tokens) < 2 or not tokens[0].isdigit():
        raise ValidationError(
            _("Write a move as: seat tile [end], seat draw [tile], or seat pass (not “%(l)s”).")
            % {"l": line},
            code="bad_moves",
        )
    seat, word = seat_parse(tokens[0], seat_count=seat_count), tokens[1].lower()
    if word == "pass" and len(tokens) == 2:
        return {"seat": seat, "pass": True}
    if word == "draw" and len(tokens) <= 3:
        face = tokens[2] if len(tokens) == 3 else None
        if face is not None and not _TILE.match(face):
            raise ValidationError(
                _("%(t)s is not a tile: write it as two pips 0-6, e.g. 3-6.") % {"t": face},
                code="bad_moves",
            )
        return {"seat": seat, "draw": face}
    if _TILE.match(tokens[1]) and len(tokens) <= 3:
        move: dict[str, Any] = {"seat": seat, "play": tokens[1]}
        if len(tokens) == 3:
            end = tokens[2].upper()
            if end not in ENDS:
                raise ValidationError(
                    _("%(e)s is not an end: W, E, N or S.") % {"e": tokens[2]}, code="bad_moves"
                )
            move["end"] = end
        return move
    raise ValidationError(
        _("Write a move as: seat tile [end], seat draw [tile], or seat pass (not “%(l)s”).")
        % {"l": line},
        code="bad_moves",
    )


def moves_parse(text: str, *, seat_count: int) -> list[dict[str, Any]]:
    return [move_parse(line, seat_count=seat_count) for line in text.splitlines() if line.strip()]


def move_format(move: dict[str, Any]) -> str:
    seat = int(move["seat"]) + 1
    if "play" in move:
        return (
            f"{seat} {move['play']} {move['end']}" if move.get("end") else f"{seat} {move['play']}"
        )
    if "draw" in move:
        return f"{seat} draw {move['draw']}" if move.get("draw") else f"{seat} draw"
    return f"{seat} pass"


def moves_format(moves: list[dict[str, Any]]) -> str:
    return "\n".join(move_format(m) for m in moves)


def left_parse(text: str) -> int | list[str] | None:
    """A seat's remaining pips (``"12"``) or tiles (``"5-5 0-1"``); blank is not given."""
    text = text.strip()
    if not text:
        return None
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    tiles = [t for t in re.split(r"[\s,;]+", text) if t]
    if all(_TILE.match(t) for t in tiles):
        return tiles
    raise ValidationError(
        _("Give the remaining pips as a number, or the tiles as 5-5 0-1."), code="bad_left"
    )


class HandForm(forms.Form):
    """What both entry modes share: the version it was based on, the hand's number,
    the leader and each seat's remaining pips or tiles."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    leader = forms.TypedChoiceField(label=_("Leader"), coerce=int, widget=forms.RadioSelect)

    def __init__(self, *args: Any, seats: list[SeatInfo], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        leader = self.fields["leader"]
        assert isinstance(leader, forms.ChoiceField)
        leader.choices = [(s.number, s.name) for s in seats]
        for seat in seats:
            self.fields[f"left_{seat.number}"] = forms.CharField(
                label=_("%(name)s holds") % {"name": seat.name},
                required=False,
                max_length=80,
                widget=forms.TextInput(
                    attrs={"inputmode": "numeric", "autocomplete": "off", "size": 6}
                ),
            )
        self.hand: dict[str, Any] = {}

    def left_fields(self) -> list[forms.BoundField]:
        return [self[f"left_{seat.number}"] for seat in self.seats]

    def _left(self) -> dict[str, Any]:
        left: dict[str, Any] = {}
        for seat in self.seats:
            name = f"left_{seat.number}"
            try:
                value = left_parse(self.cleaned_data.get(name) or "")
            except ValidationError as exc:
                self.add_error(name, exc)
                continue
            if value is not None:
                left[str(seat.number)] = value
        return left


class TallyHandForm(HandForm):
    """A tally hand: the scoring plays, how it ended, the remaining pips."""

    scores = forms.CharField(
        label=_("Scoring plays (seat:points)"),
        required=False,
        max_length=2000,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    end = forms.ChoiceField(label=_("How the hand ended"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, seats: list[SeatInfo], **kwargs: Any) -> None:
        super().__init__(*args, seats=seats, **kwargs)
        self.offer_ends(target=True)

    def offer_ends(self, *, target: bool) -> None:
        """The ends offered: every seat's domino, a block, and — unless ``target`` is
        False, for a hand no play can end (a tie played off) — the target reached."""
        end = self.fields["end"]
        assert isinstance(end, forms.ChoiceField)
        reached = [("target", _("Target reached during the hand"))] if target else []
        end.choices = [
            *((f"domino:{s.number}", _("Domino: %(name)s") % {"name": s.name}) for s in self.seats),
            ("blocked", _("Blocked")),
            *reached,
        ]

    def clean_scores(self) -> list[list[int]]:
        return scores_parse(self.cleaned_data.get("scores") or "", seat_count=len(self.seats))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        end_value = data.get("end")
        if "leader" not in data or end_value is None or "scores" not in data:
            return data
        hand: dict[str, Any] = {"leader": data["leader"], "scores": data["scores"]}
        if end_value.startswith("domino:"):
            hand["end"] = {"domino": int(end_value.split(":")[1])}
        elif end_value == "blocked":
            hand["end"] = {"blocked": True}
        else:
            hand["end"] = {"target": True}
        left = self._left()
        if left and hand["end"] != {"target": True}:
            hand["left"] = left
        self.hand = hand
        return data


class TilesHandForm(HandForm):
    """A tile-by-tile hand: every tile laid (on which end), draws and passes."""

    moves = forms.CharField(
        label=_("Moves"),
        required=False,
        max_length=8000,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "autocomplete": "off"}),
    )
    tile = forms.CharField(
        label=_("Tile"),
        required=False,
        max_length=3,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "placeholder": "3-6", "size": 4, "spellcheck": "false"}
        ),
    )

    def clean_moves(self) -> list[dict[str, Any]]:
        return moves_parse(self.cleaned_data.get("moves") or "", seat_count=len(self.seats))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "leader" not in data or "moves" not in data:
            return data
        hand: dict[str, Any] = {"leader": data["leader"], "moves": data["moves"]}
        left = self._left()
        if left:
            hand["left"] = left
        self.hand = hand
        return data
