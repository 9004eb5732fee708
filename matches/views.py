"""The scorekeeper's pages: enter a match hand by hand, correct a hand, and the
buttons around it (entry mode, confirm, finish, reopen). Public read-only pages of a
match belong to the league's public site, which reuses our template tags.

Views parse the form, call one service and render; the engine's refusals come back
as ``AllFivesError`` and are shown at the field they concern, in the user's
language, with what was typed kept. Every page works with plain form posts; htmx
(vendored) only swaps the panel instead of reloading the page.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms.utils import ErrorDict
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from allfives import AllFivesError, Rules, Tile, side_of, sides_of, went_out
from league.models import ResultKind, Round, Table, TableResult
from league.services.clock import round_clock_remaining, round_time_limit
from matches.cards import CardLink, round_cards_pdf, table_card_with_links_pdf
from matches.forms import (
    TallyHandForm,
    TilesHandForm,
    moves_format,
    moves_parse,
    scores_format,
    scores_parse,
)
from matches.messages import END_INITIALS, END_LETTERS, END_WORDS, engine_error_message
from matches.models import (
    KEY_ALPHABET,
    KEY_GROUP,
    KEY_LENGTH,
    Hand,
    Match,
    TableLink,
    table_link_key_typed,
)
from matches.selectors import (
    SeatInfo,
    TilesDraft,
    match_can_manage,
    match_can_score,
    match_get,
    match_hands,
    match_history,
    match_playing_off,
    match_seats,
    my_tables,
    table_can_score,
    table_link_get,
    table_link_label,
    tables_disputed,
    tables_offline,
    tiles_draft,
)
from matches.services.access import round_scorable_require
from matches.services.concurrency import StaleVersionError
from matches.services.hands import (
    hand_confirm,
    hand_correct,
    hand_delete,
    hand_dispute,
    hand_record,
    hand_restore,
)
from matches.services.lifecycle import (
    match_finish,
    match_for_table,
    match_mode_set,
    match_reopen,
)
from matches.services.links import round_links_issue, table_link_check, table_links_issue

type HandFormT = TallyHandForm | TilesHandForm

#: Where on the form each engine error belongs.
_FIELD_OF_CODE = {
    "bad_points": "scores",
    "wrong_leader": "leader",
    "target_not_reached": "end",
    "hand_incomplete": "end",
}
_LEFT_CODES = {"left_missing", "left_disagrees"}


class TableClosed(Exception):
    """The table cannot be scored now (its round is a draft or closed, its link revoked);
    the page says why."""

    def __init__(self, message: str, *, status: int = 403) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _closed_page(request: HttpRequest, message: str, *, status: int = 403) -> HttpResponse:
    return render(request, "matches/closed.html", {"message": message}, status=status)


class MatchFinished(Exception):
    """The match behind a table link is finished: its link shows the result, not a
    scoring page."""

    def __init__(self, match: Match, message: str) -> None:
        super().__init__(message)
        self.match = match
        self.message = message


def _finished_page(request: HttpRequest, match: Match, message: str) -> HttpResponse:
    """The finished match as a table link shows it: the winner, the final score, why it
    can no longer be scored and where its scoresheet is."""
    seats = match_seats(match=match)
    sides = [
        {
            "side": side,
            "names": [s.name for s in seats if s.side == side],
            "total_x2": match.total_x2(side),
            "is_winner": side in match.winners,
        }
        for side in sides_of(match.player_count)
    ]
    context = {
        "match": match,
        "message": message,
        "sides": sides,
        "winner_names": [s.name for s in seats if s.side in match.winners],
    }
    return render(request, "matches/finished.html", context)


def _require_open_round(table: Table | None) -> None:
    if table is None:
        return
    kind = TableResult.objects.filter(table=table).values_list("kind", flat=True).first()
    if kind is not None and kind != ResultKind.PLAYED:
        raise TableClosed(
            _("%(result)s: this table's result was recorded by the organiser without hands.")
            % {"result": ResultKind(kind).label},
            status=200,
        )
    try:
        round_scorable_require(round=table.round)
    except ValidationError as exc:
        raise TableClosed(exc.messages[0]) from None


class SignInNeeded(Exception):
    """Neither signed in nor holding a link to this table: off to the sign-in page."""


def _is_htmx(request: HttpRequest) -> bool:
    """Whether htmx asked (it also sends its header again on a redirect it follows)."""
    return request.headers.get("HX-Request") == "true"


def _htmx_redirect(url: str) -> HttpResponse:
    """Tell htmx to load `url` as a whole page instead of swapping a panel in: htmx
    follows an HX-Redirect before it looks at the body or the status."""
    response = HttpResponse()
    response["HX-Redirect"] = url
    return response


def _scoring[**P](view: Callable[P, HttpResponse]) -> Callable[P, HttpResponse]:
    """A scoring page: for signed-in scorekeepers and holders of the table's link; a clear
    page (not an error) when the table cannot be scored now.

    The finished, closed and sign-in pages have no scoring panel for htmx to swap in: to
    htmx (a step or a save, or the page a saved hand redirects to) the answer is an
    HX-Redirect to the same address, which a whole page load shows. Nothing is rendered
    for htmx, so the messages (such as "the match is over") wait for that page."""

    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        request = args[0]
        assert isinstance(request, HttpRequest)
        try:
            return view(*args, **kwargs)
        except (TableClosed, MatchFinished) as exc:
            if _is_htmx(request):
                return _htmx_redirect(request.get_full_path())
            if isinstance(exc, MatchFinished):
                return _finished_page(request, exc.match, exc.message)
            return _closed_page(request, exc.message, status=exc.status)
        except SignInNeeded:
            login = redirect_to_login(request.get_full_path())
            return _htmx_redirect(login["Location"]) if _is_htmx(request) else login

    return wrapper


#: The session remembers the table links opened in this browser: {table id: key}.
SESSION_LINKS = "table_links"


def _session_link(request: HttpRequest, table_id: int | None) -> TableLink | None:
    if table_id is None:
        return None
    key = request.session.get(SESSION_LINKS, {}).get(str(table_id))
    return table_link_get(key=key) if key else None


def _match_for(request: HttpRequest, match_id: int) -> tuple[Match, TableLink | None]:
    """The match and the table link this browser scores it through (None: an account)."""
    try:
        match = match_get(match_id=match_id)
    except Match.DoesNotExist:
        raise Http404 from None
    _require_open_round(match.table)
    link = _session_link(request, match.table_id)
    if link is not None:
        try:
            table_link_check(link=link, match=match)
        except ValidationError as exc:
            if exc.code == "match_finished":
                raise MatchFinished(match, exc.messages[0]) from None
            raise TableClosed(exc.messages[0], status=410) from None
        return match, link
    if not request.user.is_authenticated:
        raise SignInNeeded
    if not match_can_score(user=request.user, match=match):
        raise PermissionDenied
    return match, None


def table_link(request: HttpRequest, key: str) -> HttpResponse:
    """A table's private link (the QR code on its card): remember it in this browser and
    open the table's scoring page, no account needed; a clear page if it no longer works."""
    link = table_link_get(key=key)
    if link is None:
        return _unknown_link_page(request, key)
    match = Match.objects.filter(table_id=link.table_id).first()
    try:
        table_link_check(link=link, match=match)
    except ValidationError as exc:
        if exc.code == "match_finished" and match is not None:
            return _finished_page(request, match, exc.messages[0])
        return _closed_page(request, exc.messages[0], status=410)
    try:
        _require_open_round(link.table)
    except TableClosed as closed:
        return _closed_page(request, closed.message, status=closed.status)
    links = dict(request.session.get(SESSION_LINKS, {}))
    links[str(link.table_id)] = link.key
    request.session[SESSION_LINKS] = links
    return redirect("matches:scorekeeper", match_id=match_for_table(table=link.table).pk)


def _unknown_link_page(request: HttpRequest, typed: str) -> HttpResponse:
    """The page for a link no table has: why, when the typed code is too short or too
    long, and the code again in a box to correct and open."""
    meant = table_link_key_typed(typed)
    if len(meant) != KEY_LENGTH and set(meant) <= set(KEY_ALPHABET):
        message = _(
            "This table link is not known: its code has %(typed)d characters, and a table's "
            "code has %(length)d (%(groups)d groups of %(group)d). Check that no line of the "
            "link on the table's card was left out, and type it again below."
        ) % {
            "typed": len(meant),
            "length": KEY_LENGTH,
            "groups": KEY_LENGTH // KEY_GROUP,
            "group": KEY_GROUP,
        }
    else:
        message = _(
            "This table link is not known. Check that the whole code was scanned, or "
            "that the link was typed as printed on the table's card."
        )
    return render(
        request, "matches/closed.html", {"message": message, "typed_key": typed}, status=404
    )


def table_link_typed(request: HttpRequest) -> HttpResponse:
    """Open the table link whose code was typed in the box of the unknown link's page
    (a whole address pasted there too)."""
    key = request.GET.get("key", "").strip().rstrip("/").rsplit("/", 1)[-1].strip()
    if not key:
        return _unknown_link_page(request, "")
    return redirect("matches:table_link", key=key)


def _ends_fitted(form: HandFormT, match: Match, editing: Hand | None) -> HandFormT:
    """The form without the "target reached" end for a new hand of a tie played off: no
    play of such a hand ends it."""
    if editing is None and isinstance(form, TallyHandForm) and match_playing_off(match=match):
        form.offer_ends(target=False)
    return form


def _form_class(mode: str) -> type[HandFormT]:
    return TilesHandForm if mode == Match.EntryMode.TILES else TallyHandForm


def _engine_error_field(exc: AllFivesError, form: HandFormT) -> str | None:
    if exc.code in _LEFT_CODES and exc.seat is not None:
        name = f"left_{exc.seat}"
        return name if name in form.fields else None
    if isinstance(form, TilesHandForm) and (exc.move is not None or exc.code == "hand_incomplete"):
        return "moves"
    if exc.code == "bad_format":
        return "moves" if isinstance(form, TilesHandForm) else "scores"
    field = _FIELD_OF_CODE.get(exc.code)
    return field if field in form.fields else None


def _names(match: Match) -> dict[int, str]:
    """Seat → the player's name, for messages."""
    return {s.number: s.name for s in match_seats(match=match)}


def _not_needed(name: str | None) -> str:
    """A play entered after the one that reached the target (nothing was saved yet)."""
    if name is None:
        return _(
            "The play after the target is not needed: the hand ends with the play that "
            "reached the target. Undo it and save the hand."
        )
    return _(
        "%(name)s's play after the target is not needed: the hand ends with the play that "
        "reached the target. Undo it and save the hand."
    ) % {"name": name}


def _play_seat(form: HandFormT, index: int | None) -> int | None:
    """The seat of the play or move at `index` of the hand on the form."""
    entries = form.hand.get("moves") or form.hand.get("scores") or []
    if index is None or not 0 <= index < len(entries):
        return None
    entry = entries[index]
    seat = entry.get("seat") if isinstance(entry, dict) else entry[0]
    return seat if isinstance(seat, int) else None


def _show_engine_error(
    form: HandFormT, exc: AllFivesError, number: int, names: dict[int, str] | None = None
) -> None:
    message = engine_error_message(exc, names)
    if exc.code == "match_over" and exc.move is not None and exc.hand in (None, number - 1):
        seat = _play_seat(form, exc.move)
        message = _not_needed(None if seat is None else (names or {}).get(seat))
        form.add_error("moves" if isinstance(form, TilesHandForm) else "scores", message)
        return
    if exc.hand is not None and exc.hand != number - 1:
        form.add_error(None, _("Hand %(n)d: %(message)s") % {"n": exc.hand + 1, "message": message})
        return
    if exc.move is not None and isinstance(form, TilesHandForm):
        message = _("Move %(n)d: %(message)s") % {"n": exc.move + 1, "message": message}
    form.add_error(_engine_error_field(exc, form), message)


def _quiet(form: HandFormT, field: str | None = None, error: str | None = None) -> HandFormT:
    """A bound form that keeps what was typed but shows no 'required' errors yet."""
    form.full_clean()
    form._errors = ErrorDict()  # type: ignore[union-attr]
    if error is not None:
        form.add_error(field, error)
    return form


def _fits_text(layout: Any, tile: str) -> str:
    """Which open ends `tile` would fit, said for people (none: draw or pass)."""
    try:
        index = Tile.parse(tile).index
    except AllFivesError:
        return ""
    if layout.played & (1 << index):
        return ""
    ends = [
        str(END_WORDS[END_LETTERS[("W", "E", "N", "S")[e]]]) for e in layout.fitting_ends(index)
    ]
    if not ends:
        return _("It fits no open end now: check the tile, or draw or pass.")
    if len(ends) == 1:
        return _("It fits the %(end)s end.") % {"end": ends[0]}
    return _("It fits the %(ends)s ends.") % {
        "ends": _("%(first)s and %(last)s") % {"first": ", ".join(ends[:-1]), "last": ends[-1]}
    }


def _tally_reached(match: Match, plays: list[list[int]]) -> bool:
    """Whether the plays entered so far already take a side to its target (never while
    a tie is played off: no play ends such a hand)."""
    if match_playing_off(match=match):
        return False
    points = dict.fromkeys(sides_of(match.player_count), 0)
    for seat, scored in plays:
        if 0 <= seat < match.player_count:
            points[side_of(seat, match.player_count)] += max(0, scored)
    return any(match.total_x2(side) + 2 * p >= 2 * match.target for side, p in points.items())


def _step(data: QueryDict, action: str, match: Match) -> tuple[str | None, str | None]:
    """Apply a build-up button (a scoring play, a tile, a draw, a pass, undo) to the
    typed text; returns (field, error) when the step cannot be taken. A step the rules
    refuse is never added: the entry keeps its last legal state."""
    if action == "show":  # the browser restored a hand in progress: just show it
        return None, None
    names = _names(match)
    if match.entry_mode == Match.EntryMode.TALLY:
        try:
            plays = scores_parse(data.get("scores", ""), seat_count=match.player_count)
        except ValidationError as exc:
            return "scores", exc.messages[0]
        if action == "undo":
            plays = plays[:-1]
        elif action.startswith("add:"):
            _add, scorer, points = action.split(":")
            if _tally_reached(match, plays):
                return "scores", _not_needed(names.get(int(scorer)))
            plays.append([int(scorer), int(points)])
        data["scores"] = scores_format(plays)
        return None, None
    try:
        moves = moves_parse(data.get("moves", ""), seat_count=match.player_count)
    except ValidationError as exc:
        return "moves", exc.messages[0]
    if action == "undo":
        data["moves"] = moves_format(moves[:-1])
        return None, None
    leader = data.get("leader", "")
    if not leader.isdigit():
        return "leader", _("Choose who leads the hand first.")
    draft = tiles_draft(match=match, leader=int(leader), moves=moves)
    if draft.error is not None:
        return "moves", engine_error_message(draft.error, names)
    if draft.target_reached:
        return "tile", _not_needed(None)
    if draft.turn is None:
        return "moves", _("The hand is over: enter what each player still holds and save.")
    tile = str(data.get("tile", "")).strip()
    seat = draft.turn
    if action.startswith("play"):
        if not tile:
            return "tile", _("Choose the tile first: tap its two halves.")
        move: dict[str, Any] = {"seat": seat, "play": tile}
        end = action.partition(":")[2]
        if end:
            move["end"] = end
    elif action == "draw":
        move = {"seat": seat, "draw": tile or None}
    elif action == "pass":
        move = {"seat": seat, "pass": True}
    else:
        return None, None
    try:
        moves_parse(moves_format([move]), seat_count=match.player_count)
    except ValidationError as exc:
        return "tile", exc.messages[0]
    after = tiles_draft(match=match, leader=int(leader), moves=[*moves, move])
    if after.error is not None:
        # Refused: the tile stays typed, the moves keep their last legal state.
        message = engine_error_message(after.error, names)
        if "play" in move:
            message = f"{message} {_fits_text(draft.layout, tile)}".strip()
        return "tile", message
    data["moves"] = moves_format([*moves, move])
    data["tile"] = ""
    return None, None


def _initial(match: Match, number: int, hand: Hand | None = None) -> dict[str, Any]:
    initial: dict[str, Any] = {"version": match.version, "number": number}
    if hand is None:
        if match.next_leader is not None:
            initial["leader"] = match.next_leader
        return initial
    entry = hand.entry
    initial["leader"] = entry.get("leader")
    for seat, value in (entry.get("left") or {}).items():
        initial[f"left_{seat}"] = " ".join(value) if isinstance(value, list) else str(value)
    if "moves" in entry:
        initial["moves"] = moves_format(list(entry["moves"]))
    else:
        initial["scores"] = scores_format([list(p) for p in entry.get("scores", [])])
        end = entry.get("end") or {}
        initial["end"] = (
            f"domino:{end['domino']}"
            if "domino" in end
            else "blocked"
            if "blocked" in end
            else "target"
        )
    return initial


def _draft_points(match: Match, form: HandFormT) -> tuple[dict[str, int], TilesDraft | None]:
    """Points per side in the hand being entered (for the running totals)."""
    points = {str(s): 0 for s in sides_of(match.player_count)}

    def value(name: str) -> str:
        return str(form[name].value() or "")

    if isinstance(form, TallyHandForm):
        try:
            plays = scores_parse(str(value("scores")), seat_count=match.player_count)
        except ValidationError:
            return points, None
        for seat, scored in plays:
            if 0 <= seat < match.player_count:
                side = str(side_of(seat, match.player_count))
                points[side] += max(0, scored)
        return points, None
    leader = str(value("leader"))
    if not leader.isdigit():
        return points, None
    try:
        moves = moves_parse(str(value("moves")), seat_count=match.player_count)
    except ValidationError:
        return points, None
    draft = tiles_draft(match=match, leader=int(leader), moves=moves)
    return draft.points, draft


def _scoreboard(
    match: Match, seats: list[SeatInfo], draft_points: dict[str, int]
) -> list[dict[str, Any]]:
    board = []
    for side in sides_of(match.player_count):
        total_x2 = match.total_x2(side)
        extra_x2 = 2 * draft_points.get(str(side), 0)
        board.append(
            {
                "side": side,
                "names": [s.name for s in seats if s.side == side],
                "total_x2": total_x2,
                "draft_x2": extra_x2,
                "provisional_x2": total_x2 + extra_x2,
                "percent": min(100, round(50 * (total_x2 + extra_x2) / match.target)),
                "is_winner": side in match.winners,
            }
        )
    return board


def _hand_row(hand: Hand, names: dict[int, str], sides: Sequence[int]) -> dict[str, Any]:
    if hand.end == Hand.End.DOMINO:
        out = went_out(hand.entry, hand.end)
        end = _("Domino: %(name)s") % {"name": "?" if out is None else names.get(out, "?")}
    elif hand.end == Hand.End.BLOCKED:
        end = _("Blocked")
    else:
        end = _("Target reached")
    return {
        "hand": hand,
        "leader": names.get(hand.leader, "?"),
        "end": end,
        "cells": [
            {
                "points": int(hand.points_x2.get(str(s), 0)),
                "total": int(hand.totals_x2.get(str(s), 0)),
            }
            for s in sides
        ],
    }


def _clock(match: Match) -> dict[str, Any] | None:
    """The round clock as the scorekeeper sees it (R24), or None for a match without one."""
    if match.table is None:
        return None
    round_ = match.table.round
    limit = round_time_limit(round=round_)
    if limit is None:
        return None
    remaining = round_clock_remaining(round=round_)
    seconds = None if remaining is None else int(remaining.total_seconds())
    return {
        "limit": limit,
        "seconds": seconds,
        "shown": None if seconds is None else f"{seconds // 60}:{seconds % 60:02d}",
        "time_called": match.time_called_after is not None,
        "last_hand": match.time_called_after,
        "tie_break": Rules.from_json(match.rules).tie_break is not None,
    }


def _page(
    request: HttpRequest,
    match: Match,
    form: HandFormT | None,
    *,
    editing: Hand | None = None,
    link: TableLink | None = None,
) -> HttpResponse:
    seats = match_seats(match=match)
    hands = match_hands(match=match)
    writable = match.status != Match.Status.FINISHED and not match.winners
    if form is None and (writable or editing is not None):
        number = editing.number if editing is not None else len(hands) + 1
        form = _form_class(editing.mode if editing else match.entry_mode)(
            initial=_initial(match, number, editing), seats=seats
        )
        form = _ends_fitted(form, match, editing)
    draft_points, draft = (
        _draft_points(match, form) if form is not None and editing is None else ({}, None)
    )
    if draft is None and form is not None and isinstance(form, TilesHandForm):
        _points, draft = _draft_points(match, form)
    if (
        draft is not None
        and draft.error is not None
        and form is not None
        and not form.errors.get("moves")
    ):
        form.add_error(
            "moves",
            _not_needed(None)
            if draft.error.code == "match_over"
            else engine_error_message(draft.error, _names(match)),
        )
    names = {s.number: s.name for s in seats}
    last = hands[-1] if hands else None
    sides = sides_of(match.player_count)
    context = {
        "clock": _clock(match),
        "playing_off": match_playing_off(match=match),
        "match": match,
        "seats": seats,
        "seat_names": names,
        "hands": hands,
        "hand_rows": [_hand_row(hand, names, sides) for hand in reversed(hands)],
        "form": form,
        "editing": editing,
        "draft": draft,
        "turn_name": names.get(draft.turn)
        if draft is not None and draft.turn is not None
        else None,
        "board": _scoreboard(match, seats, draft_points),
        "winner_names": [s.name for s in seats if s.side in match.winners],
        "can_manage": match_can_manage(user=request.user, match=match),
        "needs_confirmation": bool(
            match.requires_confirmation and last is not None and not last.is_confirmed
        ),
        "own_last": last is not None and _is_own(last, request, link),
        "scoring_as": table_link_label(link=link) if link is not None else None,
        "can_finish": bool(match.winners) and match.status != Match.Status.FINISHED,
        "points_buttons": [5, 10, 15, 20, 25, 30, 35],
        # The engine's end codes, labelled with the Indonesian (or English) initials.
        "ends": [(code, END_INITIALS[code]) for code in ("W", "E", "N", "S")],
    }
    return render(request, "matches/scorekeeper.html", context)


def _is_own(hand: Hand, request: HttpRequest, link: TableLink | None) -> bool:
    """Whether the viewer's side recorded the hand (so it waits for the other side)."""
    if link is not None:
        recorder = hand.recorded_via
        return recorder is not None and recorder.side == link.side
    return hand.recorded_via_id is None and hand.recorded_by_id == request.user.pk


def _save(
    request: HttpRequest,
    match: Match,
    form: HandFormT,
    *,
    correcting: int | None,
    link: TableLink | None,
    remove_unfit: bool = False,
) -> Match | None:
    """Call the service; on a refusal put the reason on the form and return None."""
    data = form.cleaned_data
    number = correcting if correcting is not None else data["number"]
    try:
        if correcting is None:
            return hand_record(
                match=match,
                number=number,
                hand=form.hand,
                version=data["version"],
                user=request.user,
                link=link,
            )
        return hand_correct(
            match=match,
            number=number,
            hand=form.hand,
            version=data["version"],
            user=request.user,
            link=link,
            remove_unfit=remove_unfit,
        )
    except AllFivesError as exc:
        if correcting is not None and exc.hand is not None and exc.hand >= correcting:
            _offer_removal(form, exc, match)
            return None
        _show_engine_error(form, exc, number, _names(match))
    except ValidationError as exc:
        form.add_error(None, exc.messages[0] if exc.messages else str(exc))
    except StaleVersionError:
        current = match_get(match_id=match.pk)
        stored = Hand.objects.filter(match=current, number=number).first()
        if correcting is None and stored is not None and stored.entry == form.hand:
            return current  # a double tap: the same hand was just saved
        data = form.data.copy()  # type: ignore[attr-defined]
        data["version"] = str(current.version)
        if correcting is None:
            data["number"] = str(current.hands_count + 1)
        form.data = data
        form.add_error(
            None,
            _(
                "Someone else changed this match meanwhile. Check the hands above; what you "
                "typed is kept — save again if it is still right."
            ),
        )
    return None


def _offer_removal(form: HandFormT, exc: AllFivesError, match: Match) -> None:
    """The correction makes later hands impossible: say which, and why, and offer (on
    the form, one confirmed step) to remove them for re-entry."""
    first = (exc.hand or 0) + 1
    last = match.hands_count
    unfit = list(range(first, last + 1))
    reason = engine_error_message(exc, _names(match))
    if first == last:
        text = _("After this correction hand %(n)d no longer fits: %(reason)s") % {
            "n": first,
            "reason": reason,
        }
    else:
        text = _("After this correction hands %(first)d to %(last)d no longer fit: %(reason)s") % {
            "first": first,
            "last": last,
            "reason": reason,
        }
    form.add_error(None, text)
    form.unfit = unfit  # type: ignore[union-attr]


def _entry(
    request: HttpRequest, match: Match, *, editing: Hand | None, link: TableLink | None
) -> HttpResponse:
    seats = match_seats(match=match)
    mode = editing.mode if editing is not None else match.entry_mode
    form_class = _form_class(mode)
    data = request.POST.copy()
    action = data.get("action", "save")
    if action not in ("save", "remove_unfit"):
        field, error = _step(data, action, match) if editing is None else (None, None)
        if action == "show":
            messages.info(request, _("The hand in progress was kept on this phone: check it."))
        return _page(
            request,
            match,
            _quiet(_ends_fitted(form_class(data, seats=seats), match, editing), field, error),
            editing=editing,
            link=link,
        )
    form = _ends_fitted(form_class(data, seats=seats), match, editing)
    if form.is_valid():
        saved = _save(
            request,
            match,
            form,
            correcting=editing.number if editing else None,
            link=link,
            remove_unfit=action == "remove_unfit" and editing is not None,
        )
        if saved is not None:
            number = editing.number if editing else form.cleaned_data["number"]
            if saved.status == Match.Status.FINISHED and editing is None:
                messages.success(
                    request, _("Hand %(n)d recorded. The match is over.") % {"n": number}
                )
            else:
                messages.success(request, _("Hand %(n)d saved.") % {"n": number})
            return redirect("matches:scorekeeper", match_id=match.pk)
        match = match_get(match_id=match.pk)
    return _page(request, match, form, editing=editing, link=link)


@_scoring
def scorekeeper(request: HttpRequest, match_id: int) -> HttpResponse:
    """The scorekeeper's page of a match: the running totals and the next hand."""
    match, link = _match_for(request, match_id)
    if request.method == "POST":
        return _entry(request, match, editing=None, link=link)
    response = _page(request, match, None, link=link)
    if _is_htmx(request):
        # htmx lands here by following the redirect after a save, its address bar still
        # showing the form it posted (a hand's correction): show this page's address, so
        # a reload opens the match, not the correction again.
        response["HX-Replace-Url"] = request.path
    return response


@_scoring
def hand_edit(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """Correct an earlier hand; the whole match is replayed with it."""
    match, link = _match_for(request, match_id)
    hand = get_object_or_404(Hand, match=match, number=number)
    if request.method == "POST":
        return _entry(request, match, editing=hand, link=link)
    return _page(request, match, None, editing=hand, link=link)


@_scoring
def table_scorekeeper(request: HttpRequest, table_id: int) -> HttpResponse:
    """A table's scorekeeper page (its match is created on first use)."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=table_id)
    _require_open_round(table)
    if not request.user.is_authenticated:
        raise SignInNeeded
    if not table_can_score(user=request.user, table=table):
        raise PermissionDenied
    return redirect("matches:scorekeeper", match_id=match_for_table(table=table).pk)


@login_required
def my_tables_page(request: HttpRequest) -> HttpResponse:
    """The "My tables" page: the tables of published rounds the user may score, each with
    its status and a large button to its scoring page; disputed hands are flagged."""
    lines = my_tables(user=request.user)
    return render(
        request,
        "matches/my_tables.html",
        {
            "lines": lines,
            "disputed": tables_disputed(table_ids=[line.table.pk for line in lines]),
            "offline_tables": tables_offline(table_ids=[line.table.pk for line in lines]),
        },
    )


def _cards_refused(request: HttpRequest) -> HttpResponse:
    return _closed_page(
        request,
        _(
            "Only an organiser of the tournament prints a published round's cards with "
            "their scoring links."
        ),
    )


def _card_links(request: HttpRequest, links: dict[int, list[TableLink]]) -> list[CardLink]:
    """The tables' links as their cards print them: a label and the whole address."""
    return [
        CardLink(
            label=table_link_label(link=link),
            url=request.build_absolute_uri(link.get_absolute_url()),
            table_id=table_id,
        )
        for table_id, table_links in links.items()
        for link in table_links
    ]


def _cards_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "no-store"  # it holds the tables' private links
    return response


@login_required
def round_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table card of a published round in one PDF, each with its sides' private
    links as QR codes: for the organiser to print and lay on the tables."""
    round = get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )
    try:
        links = round_links_issue(round=round, user=request.user)
    except PermissionDenied:
        return _cards_refused(request)
    pdf = round_cards_pdf(
        round=round, links=_card_links(request, links), base_url=request.build_absolute_uri("/")
    )
    return _cards_response(pdf, f"{slug}-r{number}-cards.pdf")


@login_required
def table_card_with_links(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """One table's card with its sides' private links as QR codes, issuing the missing
    links: for the organiser to reprint a lost card or print a single table's."""
    found = get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament__slug=slug,
        round__number=number,
        number=table,
    )
    try:
        links = table_links_issue(table=found, user=request.user)
    except PermissionDenied:
        return _cards_refused(request)
    pdf = table_card_with_links_pdf(
        table=found,
        links=_card_links(request, {found.pk: links}),
        base_url=request.build_absolute_uri("/"),
    )
    return _cards_response(pdf, f"{slug}-r{number}-t{table}-links.pdf")


def _hand_verbs() -> dict[str, str]:
    """What happened to a hand, by the history's reason: ``%(n)d`` the hand, ``%(who)s``
    who did it."""
    return {
        "recorded": _("Hand %(n)d recorded by %(who)s"),
        "corrected": _("Hand %(n)d corrected by %(who)s"),
        "deleted": _("Hand %(n)d deleted by %(who)s"),
        "restored": _("Hand %(n)d restored by %(who)s"),
        "removed for re-entry": _("Hand %(n)d removed for re-entry by %(who)s"),
        "replaced": _("Hand %(n)d replaced by %(who)s"),
        "confirmed": _("Hand %(n)d confirmed by %(who)s"),
        "disputed": _("Hand %(n)d disputed by %(who)s"),
        "imported": _("Hand %(n)d imported by %(who)s"),
        "voided": _("Hand %(n)d voided by %(who)s"),
    }


def _match_verbs() -> dict[str, str]:
    return {
        "started": _("The match started (%(who)s)"),
        "finished": _("The match was finished by %(who)s"),
        "started with": _("The match started with a hand recorded by %(who)s"),
        "recorded": _("The match ended with a hand recorded by %(who)s"),
        "confirmed": _("The match ended with a hand confirmed by %(who)s"),
        "corrected": _("The match changed with a correction by %(who)s"),
        "deleted": _("The match changed with a hand deleted by %(who)s"),
        "restored": _("The match changed with a hand restored by %(who)s"),
        "reopened": _("The match was reopened for corrections by %(who)s"),
        "entry mode": _("The entry mode was changed by %(who)s"),
        "imported": _("The match was imported by %(who)s"),
        "voided": _("The match was voided by %(who)s"),
    }


def _points_change(change: dict[str, Any], sides: Sequence[int], side_names: dict[int, str]) -> str:
    """The hand's points per side as they changed: "Budi & Siti 10 → 15"."""
    before, after = change["points_before"], change["points_after"]
    if after is None:
        return ""
    parts = []
    for side in sides:
        new = int(after.get(str(side), 0)) / 2
        text = f"{new:g}"
        if before is not None and change["reason"] not in ("recorded", "deleted"):
            old = int(before.get(str(side), 0)) / 2
            if old == new:
                continue
            text = f"{old:g} → {new:g}"
        parts.append(f"{side_names[side]} {text}")
    return ", ".join(parts)


def _follows_a_correction(change: dict[str, Any]) -> bool:
    """Whether this is a later hand whose running totals alone moved with a correction of
    an earlier one: nobody changed it, so the history does not say they did."""
    return (
        change["object"] == "hand"
        and change["reason"] == "corrected"
        and change["before"] is not None
        and change["before"] == change["after"]
        and change["points_before"] == change["points_after"]
    )


def history_lines(match: Match, changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history of changes as sentences in the user's language."""
    seats = match_seats(match=match)
    sides = sides_of(match.player_count)
    side_names = {side: " & ".join(s.name for s in seats if s.side == side) for side in sides}
    hand_verbs, match_verbs = _hand_verbs(), _match_verbs()
    lines = []
    for change in changes:
        if _follows_a_correction(change):
            continue
        link = change["link"]
        who = table_link_label(link=link) if link is not None else change["user"] or "—"
        if change["object"] == "hand":
            verb = hand_verbs.get(change["reason"], _("Hand %(n)d changed by %(who)s"))
            text = verb % {"n": change["hand"], "who": who}
            points = _points_change(change, sides, side_names)
        else:
            reason = change["reason"]
            if reason == "recorded" and change["after"]["status"] != Match.Status.FINISHED:
                reason = "started with"
            verb = match_verbs.get(reason, _("The match was changed by %(who)s"))
            text, points = verb % {"who": who}, ""
        lines.append(
            {
                "at": change["at"],
                "text": f"{text}: {points}" if points else text,
                "history_id": change["history_id"],
                "restorable": change["restorable"],
            }
        )
    return lines


@_scoring
def history(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every change to the match, as sentences: who, when, what; a deleted hand can be
    restored from here."""
    match, _link = _match_for(request, match_id)
    return render(
        request,
        "matches/history.html",
        {
            "match": match,
            "lines": history_lines(match, match_history(match=match)),
            "writable": match.status != Match.Status.FINISHED,
        },
    )


def _act(
    request: HttpRequest,
    match_id: int,
    call: Callable[[Match, int, TableLink | None], Match],
    done: str,
) -> HttpResponse:
    match, link = _match_for(request, match_id)
    version = request.POST.get("version", "")
    try:
        call(match, int(version) if version.isdigit() else -1, link)
    except StaleVersionError:
        messages.error(request, _("Someone else changed this match meanwhile; nothing was done."))
    except AllFivesError as exc:
        messages.error(request, engine_error_message(exc, _names(match)))
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
    else:
        messages.success(request, done)
    return redirect(reverse("matches:scorekeeper", kwargs={"match_id": match.pk}))


@require_POST
@_scoring
def mode(request: HttpRequest, match_id: int) -> HttpResponse:
    entry_mode = request.POST.get("entry_mode", "")
    return _act(
        request,
        match_id,
        lambda m, v, link: match_mode_set(
            match=m, entry_mode=entry_mode, version=v, user=request.user, link=link
        ),
        _("Entry mode changed."),
    )


@require_POST
@_scoring
def confirm(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    return _act(
        request,
        match_id,
        lambda m, v, link: hand_confirm(
            match=m, number=number, version=v, user=request.user, link=link
        ),
        _("Hand %(n)d confirmed.") % {"n": number},
    )


@require_POST
@_scoring
def dispute(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    return _act(
        request,
        match_id,
        lambda m, v, link: hand_dispute(
            match=m, number=number, version=v, user=request.user, link=link
        ),
        _("Hand %(n)d is marked as disputed; the organiser will settle it.") % {"n": number},
    )


@_scoring
def delete(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """Delete a hand, after a page that asks first (a GET shows it)."""
    if request.method != "POST":
        match, _link = _match_for(request, match_id)
        hand = get_object_or_404(Hand, match=match, number=number)
        names = _names(match)
        return render(
            request,
            "matches/hand_delete.html",
            {
                "match": match,
                "hand": hand,
                "row": _hand_row(hand, names, sides_of(match.player_count)),
                "board": _scoreboard(match, match_seats(match=match), {}),
                "later": match.hands_count - number,
            },
        )
    return _act(
        request,
        match_id,
        lambda m, v, link: hand_delete(
            match=m, number=number, version=v, user=request.user, link=link
        ),
        _("Hand %(n)d deleted. It can be restored from the history of changes.") % {"n": number},
    )


@require_POST
@_scoring
def restore(request: HttpRequest, match_id: int, history_id: int) -> HttpResponse:
    """Put a deleted hand back, from the history of changes."""
    return _act(
        request,
        match_id,
        lambda m, v, link: hand_restore(
            match=m, history_id=history_id, version=v, user=request.user, link=link
        ),
        _("The deleted hand is restored."),
    )


@require_POST
@_scoring
def finish(request: HttpRequest, match_id: int) -> HttpResponse:
    return _act(
        request,
        match_id,
        lambda m, v, link: match_finish(match=m, version=v, user=request.user, link=link),
        _("The match is finished."),
    )


@require_POST
@_scoring
def reopen(request: HttpRequest, match_id: int) -> HttpResponse:
    return _act(
        request,
        match_id,
        lambda m, v, _link: match_reopen(match=m, version=v, user=request.user),
        _("The match is reopened for corrections."),
    )
