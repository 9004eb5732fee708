"""The organiser's desk and the projector view.

The desk (``/admin/desk/<tournament>/``, in the admin's look and language) shows the
current round's board and the round's actions as buttons; every action is a POST that
calls one service and shows the service's refusal as an admin message. Per table, the
board records a result without hands (a walkover for the side present, a double walkover,
an agreed score on the table's own page; over recorded hands only after an explicit
confirmation) and, with a time limit, calls time; the round's clock starts and is called
from the board too, its time left counted down in the browser (``desk/clock.js``). Only a staff user
who manages the tournament (``league.policy``, as the admin asks) opens it; anyone else
gets a refusal page. The board and the pairing's progress are fragments that htmx polls.

The projector view is public: a full-screen page of the current round's pairings and
the standings in turn, for a big screen in the hall.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse, translate_url
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from desk.selectors import (
    BoardTable,
    board_table,
    projector_view,
    round_board,
    round_clock,
    round_current,
    tournament_entries,
    tournament_projected,
)
from desk.services import entry_register_late, round_next, round_next_check
from entrants.models import Application
from entrants.selectors import applications_undecided, notifications_failed
from entrants.services.announce import notifications_retry
from entrants.services.applications import application_approve, application_decline
from knockout.models import Bracket, BracketMatch
from knockout.selectors import (
    bracket_matches_tied,
    bracket_undoable,
    knockout_progress,
    tournament_has_knockout,
)
from knockout.services import CUTS, bracket_create, bracket_match_decide, bracket_undo
from league.models import Entry, Player, Round, Table, Tournament
from league.policy import (
    players_enterable_in,
    tournament_can_manage,
    user_can_use_admin,
)
from league.services.clock import round_clock_start
from league.services.registration import entry_check_in, entry_withdraw
from league.services.results import (
    table_agreed_record,
    table_double_forfeit_record,
    table_forfeit_record,
)
from league.services.rounds import round_close, round_publish, tournament_finish
from matches.services.clock import round_time_call, table_time_call
from pairing.services.checks import round_pair_refusal
from pairing.services.progress import round_pair_progress
from pairing.services.requests import round_pair_request

#: Seconds between the board's refreshes, the progress bar's and the projector's.
BOARD_POLL_SECONDS = 10
PROGRESS_POLL_SECONDS = 1
PROJECTOR_POLL_SECONDS = 20
#: Seconds the projector shows the pairings, then the standings, in turn.
PROJECTOR_SWITCH_SECONDS = 15

PROGRESS_LABELS = {
    "idle": gettext_lazy("Not paired by the service yet."),
    "queued": gettext_lazy("Queued: waiting for a worker…"),
    "running": gettext_lazy("Pairing…"),
    "done": gettext_lazy("Pairing finished."),
    "failed": gettext_lazy("Pairing failed."),
}

#: The quality report's keys, in the order and words the desk shows them.
QUALITY_LABELS = (
    ("table_count", gettext_lazy("Tables")),
    ("bye_count", gettext_lazy("Byes")),
    ("rematches", gettext_lazy("Rematches")),
    ("partner_repeats", gettext_lazy("Partner repeats")),
    ("opponent_repeats", gettext_lazy("Opponent repeats")),
    ("largest_score_gap", gettext_lazy("Largest score gap")),
    ("score_cost", gettext_lazy("Score cost")),
    ("schedule_partner_deviation", gettext_lazy("Whist schedule: pairs not partners once")),
    ("schedule_opponent_deviation", gettext_lazy("Whist schedule: pairs not opponents twice")),
)

type DeskView = Callable[..., HttpResponse]


def _tournament(slug: str) -> Tournament:
    tournament = Tournament.objects.filter(slug=slug).select_related("club").first()
    if tournament is None:
        raise Http404
    return tournament


def _desk(view: DeskView) -> DeskView:
    """Signed-in staff only (the admin's login), then the tournament's managers only:
    anyone else gets the refusal page."""

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = _tournament(slug)
        if not (
            user_can_use_admin(user=request.user)
            and tournament_can_manage(user=request.user, tournament_id=tournament.pk)
        ):
            context = {
                **admin.site.each_context(request),
                "tournament": tournament,
                "title": _("Tournament desk"),
            }
            return render(request, "desk/refused.html", context, status=403)
        return view(request, tournament, *args, **kwargs)

    return admin.site.admin_view(wrapped)


def _desk_url(tournament: Tournament) -> str:
    return reverse("desk:desk", args=[tournament.slug])


def _refused(request: HttpRequest, exc: ValidationError | PermissionDenied) -> None:
    if isinstance(exc, PermissionDenied):
        messages.error(request, str(exc) or _("Only an organiser of the tournament may do this."))
        return
    for message in exc.messages:
        messages.error(request, message)


def _act(request: HttpRequest, tournament: Tournament, action: Callable[[], str]) -> HttpResponse:
    """Run an action; its success message, or the service's refusal, as an admin message."""
    try:
        done = action()
    except (ValidationError, PermissionDenied) as exc:
        _refused(request, exc)
    else:
        messages.success(request, done)
    return HttpResponseRedirect(_desk_url(tournament))


def _progress_context(tournament: Tournament, round: Round | None) -> dict[str, Any]:
    if round is None:
        return {"progress": None}
    progress = round_pair_progress(round_id=round.pk)
    return {
        "progress": progress,
        "progress_label": PROGRESS_LABELS.get(progress["state"], ""),
        "progress_is_active": progress["state"] in ("queued", "running"),
        "progress_url": reverse("desk:progress", args=[tournament.slug, round.number]),
        "progress_poll_seconds": PROGRESS_POLL_SECONDS,
    }


def _quality(round: Round | None) -> list[tuple[str, Any]]:
    if round is None or not round.quality:
        return []
    report = dict(round.quality)
    rows = [(str(label), report[key]) for key, label in QUALITY_LABELS if key in report]
    if report.get("is_certified_optimal") is not None:
        rows.append((_("Proved optimal"), _("yes") if report["is_certified_optimal"] else _("no")))
    return rows


def _board_context(tournament: Tournament) -> dict[str, Any]:
    round = round_current(tournament=tournament)
    return {
        "tournament": tournament,
        "round": round,
        "board": round_board(round=round),
        "board_url": reverse("desk:board", args=[tournament.slug]),
        "board_poll_seconds": BOARD_POLL_SECONDS,
        "clock": round_clock(round=round),
        "is_playing": round is not None and round.status == Round.Status.PUBLISHED,
    }


class LateEntryForm(forms.Form):
    """A late arrival: a registered player, or a new one by name (and a partner, in
    fixed-partnership formats)."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.none(), required=False, label=gettext_lazy("Registered player")
    )
    name = forms.CharField(required=False, max_length=120, label=gettext_lazy("or a new player"))
    partner = forms.ModelChoiceField(
        queryset=Player.objects.none(), required=False, label=gettext_lazy("Registered partner")
    )
    partner_name = forms.CharField(
        required=False, max_length=120, label=gettext_lazy("or a new partner")
    )

    def __init__(self, *args: Any, tournament: Tournament, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = (
            players_enterable_in(user=user, tournament=tournament)
            .exclude(Q(memberships__tournament=tournament))
            .order_by("name")
        )
        for name in ("player", "partner"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = players
            field.empty_label = "—"
        if not tournament.is_partnership_format:
            del self.fields["partner"]
            del self.fields["partner_name"]


def _next_round_number(tournament: Tournament) -> int | None:
    try:
        return round_next_check(tournament=tournament)
    except ValidationError:
        return None


@require_POST
def _application_decide(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    raw = request.POST.get("application", "")
    application = (
        Application.objects.filter(tournament=tournament, pk=int(raw)).first()
        if raw.isdigit()
        else None
    )
    if application is None:
        raise Http404
    approve = request.POST.get("decision") == "approve"

    def action() -> str:
        if approve:
            application_approve(application=application, user=request.user)
            return _("%(who)s is approved: their entry waits for them to check in.") % {
                "who": application
            }
        application_decline(application=application, user=request.user)
        return _("%(who)s is declined.") % {"who": application}

    return _act(request, tournament, action)


application_decide = _desk(_application_decide)


@require_POST
def _mail_retry(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    def action() -> str:
        count = notifications_retry(notifications=notifications_failed(tournament=tournament))
        return ngettext(
            "%(n)d mail to a player is queued again.",
            "%(n)d mails to players are queued again.",
            count,
        ) % {"n": count}

    return _act(request, tournament, action)


mail_retry = _desk(_mail_retry)


@require_GET
def _desk_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = {
        **admin.site.each_context(request),
        **_board_context(tournament),
        "title": _("Tournament desk: %(name)s") % {"name": tournament.name},
        "entries": tournament_entries(tournament=tournament),
        "entry_form": LateEntryForm(tournament=tournament, user=request.user),
        "next_round_number": _next_round_number(tournament),
        "has_knockout": tournament_has_knockout(tournament_id=tournament.pk),
        "knockout_tied": bracket_matches_tied(tournament=tournament),
        "knockout_undoable": bracket_undoable(tournament=tournament),
        "knockout": knockout_progress(tournament=tournament),
        "knockout_form": KnockoutForm(),
        "applications": applications_undecided(tournament=tournament),
        "mail_failed": list(notifications_failed(tournament=tournament)[:20]),
    }
    round = context["round"]
    context["pair_refusal"] = round_pair_refusal(round=round) if round is not None else None
    context.update(_progress_context(tournament, round))
    context["quality"] = _quality(round)
    context["not_checked_in"] = [
        e for e in context["entries"] if not e.is_checked_in and not e.is_withdrawn
    ]
    return render(request, "desk/desk.html", context)


desk_page = _desk(_desk_page)


@require_GET
def _board(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "desk/_board.html", _board_context(tournament))


board = _desk(_board)


@require_GET
def _progress(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round = tournament.rounds.filter(number=number).first()
    if round is None:
        raise Http404
    context = _progress_context(tournament, round)
    response = render(request, "desk/_progress.html", context)
    if request.headers.get("HX-Request") and not context["progress_is_active"]:
        response["HX-Refresh"] = "true"  # the run it watched has ended: show its tables
    return response


progress = _desk(_progress)


def _round_of(request: HttpRequest, tournament: Tournament) -> Round:
    """The round a button names (its number, posted), of this tournament."""
    raw = request.POST.get("round", "")
    round = tournament.rounds.filter(number=int(raw)).first() if raw.isdigit() else None
    if round is None:
        raise Http404
    return round


@require_POST
def _pair(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    round = _round_of(request, tournament)

    def action() -> str:
        round_pair_request(round=round)
        return _("Round %(n)d: pairing started.") % {"n": round.number}

    return _act(request, tournament, action)


pair = _desk(_pair)


@require_POST
def _publish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    round = _round_of(request, tournament)

    def action() -> str:
        round_publish(round=round)
        return _("Round %(n)d is published: its tables may start.") % {"n": round.number}

    return _act(request, tournament, action)


publish = _desk(_publish)


@require_POST
def _close(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    round = _round_of(request, tournament)

    def action() -> str:
        round_close(round=round)
        return _("Round %(n)d is closed.") % {"n": round.number}

    return _act(request, tournament, action)


close = _desk(_close)


@require_POST
def _finish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    def action() -> str:
        tournament_finish(tournament=tournament)
        return _("%(name)s is finished: its standings are final.") % {"name": tournament.name}

    return _act(request, tournament, action)


finish = _desk(_finish)


@require_POST
def _next(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    def action() -> str:
        round = round_next(tournament=tournament)
        if round is None:
            return _("The knockout is over: every match is decided.")
        if round.is_knockout:
            return _("Round %(n)d is drawn from the bracket: publish it when ready.") % {
                "n": round.number
            }
        return _("Round %(n)d is created and its pairing started.") % {"n": round.number}

    return _act(request, tournament, action)


next_round = _desk(_next)


class KnockoutForm(forms.Form):
    """How the organiser seeds the knockout: from the standings or ratings, a top cut or
    every entry, a third-place match, a plate."""

    source = forms.ChoiceField(
        label=gettext_lazy("Seed from"),
        choices=[
            (Bracket.Source.STANDINGS, gettext_lazy("the standings so far")),
            (Bracket.Source.RATINGS, gettext_lazy("ratings")),
        ],
    )
    cut = forms.TypedChoiceField(
        label=gettext_lazy("Entries"), coerce=int, empty_value=None, required=False
    )
    third_place = forms.BooleanField(label=gettext_lazy("a third-place match"), required=False)
    plate = forms.BooleanField(
        label=gettext_lazy("a plate for the first round's losers"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each cut's words are formatted in the language of the request.
        cut = self.fields["cut"]
        assert isinstance(cut, forms.TypedChoiceField)
        cut.choices = [
            ("", _("every entry")),
            *((str(n), _("the top %(n)d") % {"n": n}) for n in CUTS),
        ]


@require_POST
def _knockout_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = KnockoutForm(request.POST)

    def action() -> str:
        if not form.is_valid():
            raise ValidationError(_("Choose how the knockout is seeded."), code="invalid")
        data = form.cleaned_data
        bracket = bracket_create(
            tournament=tournament,
            source=data["source"],
            cut=data["cut"],
            third_place=data["third_place"],
            plate=data["plate"],
        )
        return _("The knockout is seeded: round %(n)d is drawn, publish it when ready.") % {
            "n": bracket.first_round_number
        }

    return _act(request, tournament, action)


knockout_start = _desk(_knockout_start)


@require_POST
def _knockout_decide(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    raw_match, raw_entry = request.POST.get("match", ""), request.POST.get("entry", "")
    match = (
        BracketMatch.objects.filter(bracket__tournament=tournament, pk=int(raw_match)).first()
        if raw_match.isdigit()
        else None
    )
    entry = tournament.entries.filter(pk=int(raw_entry)).first() if raw_entry.isdigit() else None
    if match is None or entry is None:
        raise Http404

    def action() -> str:
        bracket_match_decide(match=match, winner=entry)
        return _("%(who)s won the extra hand and advances.") % {"who": entry.display_name}

    return _act(request, tournament, action)


knockout_decide = _desk(_knockout_decide)


@require_POST
def _knockout_undo(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    def action() -> str:
        number = bracket_undo(tournament=tournament)
        if not number:
            return _("The knockout was taken back: seed it again when ready.")
        return _(
            "The knockout was taken back with its draft round %(n)d: seed it again when ready."
        ) % {"n": number}

    return _act(request, tournament, action)


knockout_undo = _desk(_knockout_undo)


def _entry_of(request: HttpRequest, tournament: Tournament) -> Entry:
    raw = request.POST.get("entry", "")
    entry = (
        Entry.objects.filter(tournament=tournament, pk=int(raw))
        .select_related("tournament", "player", "partnership")
        .first()
        if raw.isdigit()
        else None
    )
    if entry is None:
        raise Http404
    return entry


@require_POST
def _withdraw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entry = _entry_of(request, tournament)

    def action() -> str:
        entry_withdraw(entry=entry)
        return _("%(who)s has withdrawn: they are not paired again.") % {"who": entry}

    return _act(request, tournament, action)


withdraw = _desk(_withdraw)


@require_POST
def _check_in(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entry = _entry_of(request, tournament)
    present = request.POST.get("checked_in") == "1"

    def action() -> str:
        entry_check_in(entry=entry, checked_in=present)
        if present:
            return _("%(who)s is checked in.") % {"who": entry}
        return _("%(who)s is marked absent.") % {"who": entry}

    return _act(request, tournament, action)


check_in = _desk(_check_in)


@require_POST
def _entry_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = LateEntryForm(request.POST, tournament=tournament, user=request.user)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            for error in errors:
                messages.error(request, f"{label}: {error}" if label else str(error))
        return HttpResponseRedirect(_desk_url(tournament))
    data = form.cleaned_data

    def action() -> str:
        entry = entry_register_late(
            tournament=tournament,
            player=data.get("player"),
            name=data.get("name", ""),
            partner=data.get("partner"),
            partner_name=data.get("partner_name", ""),
        )
        return _("%(who)s is entered.") % {"who": entry}

    return _act(request, tournament, action)


entry_add = _desk(_entry_add)


# --- Results without hands, from the board ----------------------------------------------

#: The kinds of result without hands that the board's buttons record.
RESULT_KINDS = ("forfeit", "double_forfeit", "agreed")


def _table_of(request: HttpRequest, round: Round) -> Table:
    """The table a button names (its number, posted), of this round."""
    raw = request.POST.get("table", "")
    table = round.tables.filter(number=int(raw)).first() if raw.isdigit() else None
    if table is None:
        raise Http404
    return table


def _totals(request: HttpRequest, line: BoardTable) -> dict[int, int] | None:
    """Each side's agreed total as posted, or None after an error message per bad field."""
    totals: dict[int, int] = {}
    for side in line.sides:
        raw = request.POST.get(f"total_{side.side}", "").strip()
        if not raw.isdigit():
            messages.error(
                request,
                _("%(who)s: give the agreed total as a whole number from 0.") % {"who": side.names},
            )
            continue
        totals[side.side] = int(raw)
    return totals if len(totals) == len(line.sides) else None


def _recorded(kind: str, line: BoardTable, present: int | None, totals: dict[int, int]) -> str:
    if kind == "forfeit":
        who = next((side.names for side in line.sides if side.side == present), "")
        return _("Table %(n)d: walkover recorded, won by %(who)s.") % {
            "n": line.number,
            "who": who,
        }
    if kind == "double_forfeit":
        return _("Table %(n)d: double walkover recorded, every side loses.") % {"n": line.number}
    score = ", ".join(f"{side.names} {totals[side.side]}" for side in line.sides)
    return _("Table %(n)d: agreed score recorded (%(score)s).") % {
        "n": line.number,
        "score": score,
    }


def _result_record(
    request: HttpRequest, table: Table, kind: str, present: int | None, totals: dict[int, int]
) -> None:
    replace = request.POST.get("replace_hands") == "1"
    if kind == "forfeit":
        table_forfeit_record(
            table_id=table.pk,
            present_side=present if present is not None else 0,
            user=request.user,
            replace_hands=replace,
        )
    elif kind == "double_forfeit":
        table_double_forfeit_record(table_id=table.pk, user=request.user, replace_hands=replace)
    else:
        table_agreed_record(
            table_id=table.pk, totals=totals, user=request.user, replace_hands=replace
        )


@require_POST
def _result(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Record a table's result without hands: a walkover for the side present, a double
    walkover, or agreed totals. Over recorded hands the service refuses; the desk then asks,
    on a page of its own, whether to replace them (never silently)."""
    round = _round_of(request, tournament)
    table = _table_of(request, round)
    line = board_table(board=round_board(round=round), number=table.number)
    kind = request.POST.get("kind", "")
    if kind not in RESULT_KINDS or line is None:
        messages.error(request, _("Choose a walkover, a double walkover or an agreed score."))
        return HttpResponseRedirect(_desk_url(tournament))
    raw_side = request.POST.get("side", "")
    present = int(raw_side) if raw_side.isdigit() else None
    if kind == "forfeit" and present is None:
        messages.error(request, _("Choose the side that was present."))
        return HttpResponseRedirect(_desk_url(tournament))
    totals: dict[int, int] = {}
    if kind == "agreed":
        parsed = _totals(request, line)
        if parsed is None:
            return HttpResponseRedirect(_table_url(tournament, table.number))
        totals = parsed
    try:
        _result_record(request, table, kind, present, totals)
    except (ValidationError, PermissionDenied) as exc:
        if isinstance(exc, ValidationError) and getattr(exc, "code", None) == "table_has_hands":
            _refused(request, exc)
            return _replace_confirm(request, tournament, line, kind)
        _refused(request, exc)
        if kind == "agreed":
            return HttpResponseRedirect(_table_url(tournament, table.number))
    else:
        messages.success(request, _recorded(kind, line, present, totals))
    return HttpResponseRedirect(_desk_url(tournament))


result = _desk(_result)


def _replace_confirm(
    request: HttpRequest, tournament: Tournament, line: BoardTable, kind: str
) -> HttpResponse:
    """The page that asks, over recorded hands, to replace them with the result."""
    round = round_current(tournament=tournament)
    kept = [
        (name, request.POST.get(name, ""))
        for name in ("round", "table", "kind", "side", *(f"total_{s.side}" for s in line.sides))
        if name in request.POST
    ]
    context = {
        **admin.site.each_context(request),
        "tournament": tournament,
        "round": round,
        "line": line,
        "kind": kind,
        "kept": kept,
        "title": _("Table %(n)d: replace the recorded hands?") % {"n": line.number},
    }
    return render(request, "desk/replace_hands.html", context)


def _table_url(tournament: Tournament, number: int) -> str:
    return reverse("desk:table", args=[tournament.slug, number])


@require_GET
def _table_page(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """One table of the current round: its result without hands, by buttons and the agreed
    totals' form (a page of its own, which the board's refreshing does not wipe)."""
    round = round_current(tournament=tournament)
    line = board_table(board=round_board(round=round), number=number) if round else None
    if round is None or line is None:
        raise Http404
    context = {
        **admin.site.each_context(request),
        "tournament": tournament,
        "round": round,
        "t": line,
        "clock": round_clock(round=round),
        "is_playing": round.status == Round.Status.PUBLISHED,
        "title": _("Round %(r)d, table %(n)d") % {"r": round.number, "n": number},
    }
    return render(request, "desk/table.html", context)


table_page = _desk(_table_page)


# --- The round clock ----------------------------------------------------------------------


@require_POST
def _clock_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    round = _round_of(request, tournament)

    def action() -> str:
        started = round_clock_start(round_id=round.pk, user=request.user)
        clock = round_clock(round=started)
        minutes = clock.limit_minutes if clock else 0
        return _("Round %(n)d's clock is running: %(m)d minutes.") % {
            "n": round.number,
            "m": minutes,
        }

    return _act(request, tournament, action)


clock_start = _desk(_clock_start)


@require_POST
def _time_call(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Call time for the whole round, or (a table's number posted) at one table."""
    round = _round_of(request, tournament)
    table = _table_of(request, round) if request.POST.get("table") else None

    def action() -> str:
        if table is not None:
            if table_time_call(table_id=table.pk, user=request.user) is None:
                raise ValidationError(
                    _("Table %(n)d already has its result.") % {"n": table.number},
                    code="table_finished",
                )
            return _("Time is called at table %(n)d: the hand in play is its last.") % {
                "n": table.number
            }
        called = round_time_call(round_id=round.pk, user=request.user)
        if not called:
            return _("Time is called for round %(n)d: every table has its result.") % {
                "n": round.number
            }
        return _("Time is called for round %(n)d: tables %(tables)s play out the hand in play.") % {
            "n": round.number,
            "tables": ", ".join(str(n) for n in called),
        }

    return _act(request, tournament, action)


time_call = _desk(_time_call)


# --- The projector view (public) ---------------------------------------------------------


#: Tables, and standings rows, that one projector panel holds in type legible across a hall.
PROJECTOR_TABLES_PER_PANEL = 10
PROJECTOR_ROWS_PER_PANEL = 12


def _chunks[T](items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [items[:0]]


def _projector_context(request: HttpRequest, slug: str) -> dict[str, Any]:
    tournament = tournament_projected(slug=slug)
    if tournament is None:
        raise Http404
    view = projector_view(tournament=tournament)
    other = "en" if get_language() != "en" else settings.LANGUAGE_CODE
    return {
        "view": view,
        "table_panels": _chunks(view.tables, PROJECTOR_TABLES_PER_PANEL) if view.round else [],
        "standings_panels": _chunks(view.standings, PROJECTOR_ROWS_PER_PANEL),
        "other_language": other,
        "other_language_url": translate_url(request.path, other),
        "tournament": tournament,
        "poll_url": reverse("desk:projector_live", args=[slug]),
        "poll_seconds": PROJECTOR_POLL_SECONDS,
        "switch_seconds": PROJECTOR_SWITCH_SECONDS,
    }


@require_GET
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The full-screen page for a big screen: pairings, then standings, in turn."""
    return render(request, "desk/projector.html", _projector_context(request, slug))


@require_GET
def projector_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector's panels, which its page fetches again every few seconds."""
    return render(request, "desk/_projector_panels.html", _projector_context(request, slug))
