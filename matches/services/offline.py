"""Hands a scoring device queued while it had no network, sent when it is back.

The device gives every hand it queues a key (a random id) and the match version it
was entered against, and sends its queue in order. Here each send is recorded at most
once: the answer is stored with the hand, in the same transaction, under its key, and
a resend of the key (a response lost on the way back) gets that answer again and
records nothing. The server's verdict is final: a stale version (another device
changed the match meanwhile) or a refusal stops the device's queue for the scorer to
choose; choosing this device's version records the hand in place of the other
device's hands from its number on.

The device also says how many hands wait and since when it has been offline
(``device_queue_report``), for the organiser's view of the tables.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from matches.models import DeviceQueue, DeviceSend, Match, TableLink
from matches.services.hands import hand_record, hand_record_replacing
from matches.services.verdicts import AnyUser


@dataclass(frozen=True)
class SendAnswer:
    """What the device is told about one sent hand: an HTTP status and a JSON body."""

    status_code: int
    body: dict[str, Any]
    replayed: bool = False


def send_digest(*, number: int, hand: Mapping[str, Any], version: int, replace: bool) -> str:
    """A fingerprint of what was sent, so a key reused for another hand is noticed."""
    body = json.dumps(
        {"number": number, "hand": hand, "version": version, "replace": replace},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(body.encode()).hexdigest()


def device_send_get(*, key: str) -> DeviceSend | None:
    return DeviceSend.objects.filter(key=key).first()


def hand_send(
    *,
    match: Match,
    key: str,
    number: int,
    hand: Mapping[str, Any],
    version: int,
    user: AnyUser,
    link: TableLink | None,
    replace: bool,
    answer: Callable[[Match], dict[str, Any]],
) -> SendAnswer | Match:
    """Record a queued hand once under `key`: a stored answer for a key already sent
    (``SendAnswer``, replayed), else the match after recording it. ``answer`` shapes the
    stored body from the match. The services' refusals (``AllFivesError``,
    ``ValidationError``, ``StaleVersionError``) propagate and nothing is stored."""
    digest = send_digest(number=number, hand=hand, version=version, replace=replace)
    found = device_send_get(key=key)
    if found is not None:
        return _replayed(found, digest)
    record = hand_record_replacing if replace else hand_record
    try:
        with transaction.atomic():
            saved = record(
                match=match, number=number, hand=hand, version=version, user=user, link=link
            )
            DeviceSend.objects.create(
                key=key,
                match=saved,
                number=number,
                request_hash=digest,
                status_code=201,
                body=answer(saved),
            )
    except Exception:
        # A copy of this send may have won the race (its version bump or the key's
        # unique constraint stopped this one): answer as it was answered.
        found = device_send_get(key=key)
        if found is not None:
            return _replayed(found, digest)
        raise
    return saved


def _replayed(found: DeviceSend, digest: str) -> SendAnswer:
    if found.request_hash != digest:
        raise KeyReused
    return SendAnswer(status_code=found.status_code, body=found.body, replayed=True)


class KeyReused(Exception):
    """The key was already used for another hand (a device bug, never a resend)."""


def device_sends_purge(*, before: datetime) -> int:
    """Forget sent keys older than ``before`` (a resend comes within minutes of the send;
    a hand waits on the phone, not here, until it is sent)."""
    deleted, _ = DeviceSend.objects.filter(created_at__lt=before).delete()
    return deleted


def device_queue_report(
    *, match: Match, device: str, queued_count: int, offline_since: datetime | None
) -> DeviceQueue:
    """Keep what a device says about its queue: how many hands wait, offline since when."""
    defaults = {
        "queued_count": max(0, queued_count),
        "offline_since": offline_since if queued_count > 0 else None,
        "reported_at": timezone.now(),
    }
    try:
        with transaction.atomic():
            report, _created = DeviceQueue.objects.update_or_create(
                match=match, device=device[:64], defaults=defaults
            )
    except IntegrityError:  # the same device reported twice at once: the other won
        report = DeviceQueue.objects.get(match=match, device=device[:64])
    return report
