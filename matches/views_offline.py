"""The scoring page offline: the web app manifest, the service worker, the engine
bundle, the match as the device keeps it, and the two endpoints the device calls when
the network is back (send a queued hand; report its queue).

The device posts the same form fields the scoring page posts, so the same form turns
them into a scoresheet hand and the same services judge it; these views only add the
key the hand was queued under and answer in JSON: 201 recorded (or 200, a resend of a
key already recorded), 409 another device changed the match (with its state), 400
refused (with the reason in the user's language, as the page words it).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from allfives import AllFivesError
from matches.engine_bundle import engine_bundle
from matches.messages import engine_error_message, message_catalogue
from matches.models import Match, TableLink
from matches.selectors import match_seats, match_state
from matches.services.concurrency import StaleVersionError
from matches.services.offline import KeyReused, SendAnswer, device_queue_report, hand_send
from matches.views import (
    MatchFinished,
    SignInNeeded,
    TableClosed,
    _form_class,
    _match_for,
    _names,
)

#: What the service worker keeps for the scoring page to open with no network.
SHELL_FILES = (
    "css/site.css",
    "matches/scorekeeper.css",
    "vendor/htmx.min.js",
    "matches/scorekeeper.js",
    "matches/offline.js",
    "vendor/idb-keyval.js",
    "matches/engine-worker.js",
    "matches/icons/icon-192.png",
)
#: The engine's files (Pyodide), fetched after the page is usable and kept once fetched.
ENGINE_FILES = (
    "vendor/pyodide/pyodide.js",
    "vendor/pyodide/pyodide.asm.js",
    "vendor/pyodide/pyodide.asm.wasm",
    "vendor/pyodide/python_stdlib.zip",
    "vendor/pyodide/pyodide-lock.json",
)
PYODIDE_VERSION = "0.28.3"


class _HtmlSafeEncoder(DjangoJSONEncoder):
    """JSON with ``<``, ``>`` and ``&`` written as escapes, so no name's markup ever
    appears raw in a response, whatever reads it."""

    def encode(self, o: Any) -> str:
        return super().encode(o).translate(_HTML_ESCAPES)


_HTML_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


class _Json(JsonResponse):
    def __init__(self, data: Any, **kwargs: Any) -> None:
        super().__init__(data, encoder=_HtmlSafeEncoder, **kwargs)


def _json_error(message: str, status: int) -> JsonResponse:
    return _Json({"ok": False, "message": message}, status=status)


def _device_match(request: HttpRequest, match_id: int) -> tuple[Match, TableLink | None]:
    """The match this browser scores (its table link or an account), or a refusal."""
    try:
        return _match_for(request, match_id)
    except (TableClosed, MatchFinished) as exc:
        raise PermissionDenied(exc.message) from None
    except SignInNeeded:
        raise PermissionDenied(_("Sign in, or open the table's link again.")) from None


def _guarded(view: Any) -> Any:
    """A device endpoint: its refusals of access come back as JSON."""

    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response: HttpResponse = view(request, *args, **kwargs)
        except PermissionDenied as exc:
            return _json_error(str(exc) or _("You may not score this match."), 403)
        return response

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


def _device_state(match: Match) -> dict[str, Any]:
    state = match_state(match=match)
    state["names"] = {str(s.number): s.name for s in match_seats(match=match)}
    return state


@require_GET
@never_cache
@_guarded
def device_state(request: HttpRequest, match_id: int) -> JsonResponse:
    """The match as the device keeps it: its state, the players' names, the catalogue
    the device words refusals from, and where the engine is."""
    match, _link = _device_match(request, match_id)
    _data, digest = engine_bundle()
    return _Json(
        {
            "match": _device_state(match),
            "catalogue": message_catalogue(),
            "language": get_language(),
            "engine": {
                "pyodide": static("vendor/pyodide/pyodide.js"),
                "index": static("vendor/pyodide/pyodide.js").rsplit("/", 1)[0] + "/",
                "bundle": reverse("offline_engine") + f"?v={digest}",
            },
        }
    )


def _parse_body(request: HttpRequest) -> dict[str, Any]:
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise ValidationError(_("The device sent something that is not a hand."))
    return body


def _when(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    parsed = parse_datetime(value)
    if parsed is not None and timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, UTC)
    return parsed


def _report(match: Match, body: dict[str, Any]) -> None:
    device = body.get("device")
    queued = body.get("queued")
    if isinstance(device, str) and device and isinstance(queued, int):
        device_queue_report(
            match=match,
            device=device,
            queued_count=queued,
            offline_since=_when(body.get("offline_since")),
        )


@require_POST
@_guarded
def device_report(request: HttpRequest, match_id: int) -> JsonResponse:
    """The device says how many hands it holds unsent, and since when."""
    match, _link = _device_match(request, match_id)
    try:
        body = _parse_body(request)
    except ValidationError as exc:
        return _json_error(exc.messages[0], 400)
    _report(match, body)
    return _Json({"ok": True})


@require_POST
@_guarded
def hand_send_view(request: HttpRequest, match_id: int) -> JsonResponse:
    """Record one hand from the device's queue, once, under the key it was queued with."""
    match, link = _device_match(request, match_id)
    try:
        body = _parse_body(request)
    except ValidationError as exc:
        return _json_error(exc.messages[0], 400)
    key, fields = body.get("key"), body.get("fields")
    if not isinstance(key, str) or not 8 <= len(key) <= 64 or not isinstance(fields, dict):
        return _json_error(_("The device sent something that is not a hand."), 400)
    form = _form_class(match.entry_mode)(
        {k: str(v) for k, v in fields.items()}, seats=match_seats(match=match)
    )
    if not form.is_valid():
        errors = [str(e) for errs in form.errors.values() for e in errs]
        return _refused(match, errors[0] if errors else _("The hand is not complete."))
    data = form.cleaned_data
    try:
        sent = hand_send(
            match=match,
            key=key,
            number=data["number"],
            hand=form.hand,
            version=data["version"],
            user=request.user,
            link=link,
            replace=body.get("replace") is True,
            answer=lambda saved: {"ok": True, "match": _device_state(saved)},
        )
    except StaleVersionError:
        current = Match.objects.get(pk=match.pk)
        return _Json(
            {
                "ok": False,
                "conflict": True,
                "message": _(
                    "Someone else changed this match while this phone was offline. "
                    "Choose which hands to keep."
                ),
                "match": _device_state(current),
            },
            status=409,
        )
    except KeyReused:
        return _json_error(_("This hand was already sent as another one."), 422)
    except AllFivesError as exc:
        message = engine_error_message(exc, _names(match))
        if exc.move is not None and "moves" in form.hand:
            message = _("Move %(n)d: %(message)s") % {"n": exc.move + 1, "message": message}
        return _refused(match, message, code=exc.code)
    except ValidationError as exc:
        return _refused(match, exc.messages[0] if exc.messages else str(exc))
    _report(match, body)
    if isinstance(sent, SendAnswer):
        return _Json(sent.body, status=200)
    return _Json({"ok": True, "match": _device_state(sent)}, status=201)


def _refused(match: Match, message: str, *, code: str = "") -> JsonResponse:
    current = Match.objects.get(pk=match.pk)
    return _Json(
        {
            "ok": False,
            "refused": True,
            "code": code,
            "message": message,
            "match": _device_state(current),
        },
        status=400,
    )


@require_GET
def engine(request: HttpRequest) -> HttpResponse:
    """The engine bundle (a zip of ``allfives`` and the device's modules) for Pyodide."""
    data, digest = engine_bundle()
    etag = f'"{digest}"'
    if request.headers.get("If-None-Match") == etag:
        return HttpResponse(status=304)
    response = HttpResponse(data, content_type="application/zip")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so its scope covers the scoring pages in
    every language; it names the files to keep by their current static URLs."""
    _data, digest = engine_bundle()
    config = {
        "version": f"{PYODIDE_VERSION}-{digest}",
        "shell": [static(name) for name in SHELL_FILES],
        "engine": [static(name) for name in ENGINE_FILES],
        "bundle": reverse("offline_engine"),
    }
    with open(_worker_source(), encoding="utf-8") as source:
        script = source.read()
    body = f"const CONFIG = {json.dumps(config)};\n{script}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


def _worker_source() -> str:
    found = finders.find("matches/service-worker.js")
    if not isinstance(found, str):
        raise RuntimeError("static/matches/service-worker.js is missing")
    return found


@require_GET
@_guarded
def manifest(request: HttpRequest, match_id: int) -> JsonResponse:
    """The web app manifest of a match's scoring page: installed, it opens there."""
    match, _link = _device_match(request, match_id)
    start = reverse("matches:scorekeeper", kwargs={"match_id": match.pk})
    response = _Json(
        {
            "name": _("Kelipatan scoring: %(match)s") % {"match": str(match)},
            "short_name": _("Scoring"),
            "start_url": start,
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#1f5f3f",
            "lang": get_language(),
            "icons": [
                {
                    "src": static("matches/icons/icon-192.png"),
                    "sizes": "192x192",
                    "type": "image/png",
                },
                {
                    "src": static("matches/icons/icon-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                },
            ],
        }
    )
    response["Content-Type"] = "application/manifest+json"
    return response
