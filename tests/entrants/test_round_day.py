"""The day of play: pairing checked-in entries only, the mail of a published round (sent
after the commit, retried, failures shown), and the WhatsApp text of each table."""

from __future__ import annotations

import smtplib
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from entrants.messages import round_texts
from entrants.models import Application, Notification
from entrants.services.applications import (
    application_approve,
    application_submit,
    entrant_check_in,
)
from entrants.services.presence import round_presence_set
from league.models import Round, Seat, Tournament
from league.services.rounds import round_create, round_publish
from pairing.services.pairing import round_pair
from tests.entrants.conftest import open_tournament
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
NAMES = ["Budi", "Siti", "Eko", "Dewi", "Gita"]


def _signed_up(tournament: Tournament, names: list[str], *, present: int) -> list[Application]:
    """Approved sign-ups who agreed to mail; the first ``present`` of them checked in."""
    applications = []
    for i, name in enumerate(names):
        application, _key = application_submit(
            tournament=tournament,
            name=name,
            email=f"{name.lower()}@example.com",
            may_email=True,
            language="en",
        )
        application = application_approve(application=application)
        if i < present:
            entrant_check_in(application=application)
        applications.append(application)
    return applications


def _round(checked_in_only: bool) -> tuple[Round, list[Application]]:
    tournament = open_tournament()
    applications = _signed_up(tournament, NAMES, present=4)
    round = round_create(tournament=tournament)
    round_presence_set(round=round, checked_in_only=checked_in_only)
    round_pair(round=round, seed=1)
    return round, applications


def test_an_entry_not_checked_in_is_not_seated_when_pairing_checked_in_only() -> None:
    round, applications = _round(checked_in_only=True)
    seated = set(Seat.objects.filter(table__round=round).values_list("entry_id", flat=True))
    absent = applications[4].entry
    assert absent is not None and absent.pk not in seated
    assert seated == {a.entry.pk for a in applications[:4] if a.entry is not None}
    assert not round.byes.exists()


def test_every_entry_is_seated_when_the_organiser_pairs_everyone() -> None:
    round, applications = _round(checked_in_only=False)
    seated = set(Seat.objects.filter(table__round=round).values_list("entry_id", flat=True))
    byes = set(round.byes.values_list("pk", flat=True))
    assert seated | byes == {a.entry.pk for a in applications if a.entry is not None}


def test_a_published_round_mails_each_checked_in_player_their_table_and_seat(
    django_capture_on_commit_callbacks: Any,
) -> None:
    round, _applications = _round(checked_in_only=True)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        round_publish(round=round)
    assert callbacks, "the mail is queued after the commit"
    assert len(mail.outbox) == 4
    budi = Seat.objects.get(table__round=round, player__name="Budi")
    message = next(m for m in mail.outbox if m.to == ["budi@example.com"])
    where = f"table {budi.table.number}, seat {budi.number + 1}"
    assert where in message.subject and where in message.body
    assert all(n.status == Notification.Status.SENT for n in Notification.objects.all())
    assert not any(m.to == ["gita@example.com"] for m in mail.outbox)


def test_no_mail_goes_to_a_player_who_did_not_agree(
    django_capture_on_commit_callbacks: Any,
) -> None:
    round, applications = _round(checked_in_only=True)
    Application.objects.filter(pk=applications[0].pk).update(may_email=False)
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=round)
    assert len(mail.outbox) == 3
    assert not any(m.to == ["budi@example.com"] for m in mail.outbox)


def test_a_failed_mail_is_retried_and_then_sent(django_capture_on_commit_callbacks: Any) -> None:
    round, _applications = _round(checked_in_only=True)
    real = mail.send_mail
    failures = {"budi@example.com": 2}

    def flaky(subject: str, body: str, sender: str, to: list[str]) -> int:
        if failures.get(to[0], 0) > 0:
            failures[to[0]] -= 1
            raise smtplib.SMTPServerDisconnected("connection lost")
        return real(subject, body, sender, to)

    with (
        mock.patch("entrants.services.notifications.send_mail", side_effect=flaky),
        django_capture_on_commit_callbacks(execute=True),
    ):
        round_publish(round=round)
    budi = Notification.objects.get(email="budi@example.com")
    assert budi.status == Notification.Status.SENT
    assert budi.attempts_count == 3
    assert any(m.to == ["budi@example.com"] for m in mail.outbox)


def test_a_mail_that_keeps_failing_is_recorded_and_shown_to_the_organiser(
    django_capture_on_commit_callbacks: Any,
) -> None:
    round, _applications = _round(checked_in_only=True)
    organiser = UserFactory(username="panitia", is_superuser=True, is_staff=True)
    with (
        mock.patch(
            "entrants.services.notifications.send_mail",
            side_effect=smtplib.SMTPServerDisconnected("connection lost"),
        ),
        django_capture_on_commit_callbacks(execute=True),
    ):
        round_publish(round=round)
    failed = Notification.objects.filter(status=Notification.Status.FAILED)
    assert failed.count() == 4
    assert {n.attempts_count for n in failed} == {5}  # the first try and four retries
    assert all("connection lost" in n.last_error for n in failed)
    client = Client()
    client.force_login(organiser)
    with translation.override("id"):
        url = reverse("admin:entrants_notification_changelist") + "?status__exact=failed"
    page = client.get(url).content.decode()
    assert "budi@example.com" in page and "connection lost" in page
    # and the organiser queues it again once the mail server is back
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "retry", "_selected_action": [n.pk for n in failed]})
    assert response.status_code == 302
    assert Notification.objects.filter(status=Notification.Status.SENT).count() == 4


def test_the_whatsapp_text_lists_every_player_of_the_table() -> None:
    round, _applications = _round(checked_in_only=True)
    round_publish(round=round)
    with translation.override("en"):
        texts = round_texts(round=round)
    assert len(texts) == 2
    for text in texts:
        seats = Seat.objects.filter(table__round=round, table__number=text.table_number)
        for seat in seats:
            assert f"Seat {seat.number + 1}: {seat.player.name}" in text.text
        assert text.share_url.startswith("https://wa.me/?text=")
        assert "%0A" in text.share_url  # the lines survive the link


def test_the_round_day_page_shows_who_is_missing_and_the_tables_texts() -> None:
    round, _applications = _round(checked_in_only=True)
    round_publish(round=round)
    organiser = UserFactory(username="panitia2", is_superuser=True, is_staff=True)
    client = Client()
    client.force_login(organiser)
    with translation.override("en"):
        url = reverse("admin:entrants_roundday_change", args=[round.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Gita" in page.split("Not checked in", 1)[1].split("</ul>", 1)[0]
    assert page.count("https://wa.me/?text=") == 2
