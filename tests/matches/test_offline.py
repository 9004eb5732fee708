"""The scoring device's side of the server: a queued hand sent under its key is
recorded once (a resend gets the first answer), a stale version is a conflict with the
current state, a refusal reads as the page would put it, choosing the device's version
replaces the other device's hands and replays cleanly; the device's queue reports give
the organiser "offline since"; the engine bundle, the worker and the manifest."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from allfives import AllFivesError, check
from matches.device import device_judge
from matches.engine_bundle import engine_bundle
from matches.messages import engine_error_message, message_catalogue
from matches.models import DeviceSend, Hand, Match
from matches.selectors import match_document, match_playing_off, match_seats, tables_offline
from matches.services.clock import table_time_call
from matches.services.hands import hand_record
from matches.services.lifecycle import match_for_table
from matches.services.links import table_links_issue
from matches.tasks import idempotent_requests_purge_task
from tests.factories import (
    EntryFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tests.knockout.conftest import timed_semi_finals
from tests.matches.sheets import HAND_1, HAND_2, tally

pytestmark = pytest.mark.django_db

NAMES = ["Budi", "Ani", "Siti", "Dewi"]
#: HAND_1 and HAND_2 of tests/matches/sheets.py as the scoring page's form posts them.
FIELDS_1 = {
    "leader": "0",
    "scores": "1:10 2:5",
    "end": "domino:2",
    "left_0": "7",
    "left_1": "8",
    "left_2": "0",
    "left_3": "6",
}
FIELDS_2 = {
    "leader": "2",
    "scores": "3:20 4:5",
    "end": "domino:1",
    "left_0": "3",
    "left_1": "0",
    "left_2": "4",
    "left_3": "10",
}


def _table() -> Any:
    tournament = TournamentFactory(name="Piala Warung", requires_confirmation=False)
    table = TableFactory(round=RoundFactory(tournament=tournament), player_count=4, target=50)
    for number, name in enumerate(NAMES):
        SeatFactory(
            table=table, number=number, entry=EntryFactory(tournament=tournament, player__name=name)
        )
    return table


def _device(table: Any, side: int = 0) -> tuple[Client, Match]:
    link = table_links_issue(table=table, user=None)[side]
    client = Client()
    client.get(reverse("matches:table_link", args=[link.key]))
    return client, match_for_table(table=table)


def _send(
    client: Client, match: Match, key: str, fields: dict[str, str], *, number: int, version: int
) -> Any:
    body = {
        "key": key,
        "fields": {**fields, "number": str(number), "version": str(version)},
        "device": "telepon-1",
        "queued": 0,
    }
    return client.post(
        reverse("matches:device_send", args=[match.pk]),
        json.dumps(body),
        content_type="application/json",
    )


def test_hand_send_records_a_queued_hand_once_and_a_resend_gets_the_first_answer() -> None:
    # given a table's phone with one hand queued offline against version 0
    client, match = _device(_table())
    # when it sends the hand, the answer is lost, and it sends it again under the same key
    first = _send(client, match, "kunci-ronde-1", FIELDS_1, number=1, version=0)
    again = _send(client, match, "kunci-ronde-1", FIELDS_1, number=1, version=0)
    # then the hand is stored once, and the resend is told the same as the first send
    assert first.status_code == 201
    assert again.status_code == 200
    assert Hand.objects.filter(match=match).count() == 1
    assert Hand.objects.get(match=match).entry == HAND_1
    assert again.json()["match"]["version"] == first.json()["match"]["version"] == 1
    assert DeviceSend.objects.filter(key="kunci-ronde-1").count() == 1


def test_hand_send_is_a_conflict_when_another_device_changed_the_match() -> None:
    # given a phone that queued hand 1 against version 0, while another device recorded
    # a hand 1 of its own
    table = _table()
    client, match = _device(table)
    hand_record(
        match=match,
        number=1,
        hand=HAND_2 | {"leader": 0},
        version=0,
        user=None,
        link=table_links_issue(table=table, user=None)[1],
    )
    # when the phone sends its hand
    response = _send(client, match, "kunci-bentrok", FIELDS_1, number=1, version=0)
    # then it is a conflict, with the server's version for the scorer to compare
    assert response.status_code == 409
    body = response.json()
    assert body["conflict"] is True
    assert [h["number"] for h in body["match"]["hands"]] == [1]
    assert Hand.objects.get(match=match).entry != HAND_1
    assert not DeviceSend.objects.filter(key="kunci-bentrok").exists()


def test_keeping_the_devices_version_replaces_the_other_devices_hands_and_replays() -> None:
    # given the conflict above
    table = _table()
    client, match = _device(table)
    other = HAND_2 | {"leader": 0}
    hand_record(
        match=match,
        number=1,
        hand=other,
        version=0,
        user=None,
        link=table_links_issue(table=table, user=None)[1],
    )
    # when the scorer keeps this phone's hands: hand 1 replaces the server's hand 1
    body = {
        "key": "kunci-ganti",
        "fields": {**FIELDS_1, "number": "1", "version": "1"},
        "replace": True,
    }
    response = client.post(
        reverse("matches:device_send", args=[match.pk]),
        json.dumps(body),
        content_type="application/json",
    )
    # then the match holds this phone's hand, the history keeps the other, and the
    # whole match replays cleanly
    assert response.status_code == 201
    match.refresh_from_db()
    assert [h.entry for h in Hand.objects.filter(match=match)] == [HAND_1]
    assert check(match_document(match=match))["ok"] is True
    assert Hand.history.filter(match_id=match.pk, history_type="-").count() == 1


def test_a_refused_hand_reads_as_the_page_words_it_in_indonesian() -> None:
    # given a phone whose queued hand ends in a domino without what the others hold
    client, match = _device(_table())
    fields = {"leader": "0", "scores": "1:10 2:5", "end": "domino:2"}
    # when it is sent
    response = _send(client, match, "kunci-ditolak", fields, number=1, version=0)
    # then it is refused, with the server's own message naming the player
    assert response.status_code == 400
    with translation.override("id"):
        try:
            hand_record(
                match=match,
                number=1,
                hand={"leader": 0, "scores": [[0, 10], [1, 5]], "end": {"domino": 2}},
                version=0,
                user=None,
                link=table_links_issue(table=match.table, user=None)[0],
            )
        except AllFivesError as exc:
            expected = engine_error_message(exc, dict(enumerate(NAMES)))
    assert response.json()["message"] == expected
    assert "Ani" in expected
    assert not Hand.objects.filter(match=match).exists()


def test_device_reports_show_the_table_offline_since_its_oldest_waiting_hand() -> None:
    # given a phone that kept two hands since 14.02 and reports them when it reconnects
    table = _table()
    client, match = _device(table)
    since = datetime(2026, 12, 1, 7, 2, tzinfo=UTC)  # 14.02 in Jakarta
    client.post(
        reverse("matches:device_report", args=[match.pk]),
        json.dumps({"device": "telepon-1", "queued": 2, "offline_since": since.isoformat()}),
        content_type="application/json",
    )
    # when the organiser's view asks which tables are offline
    offline = tables_offline(table_ids=[table.pk])
    # then this table is, since 14.02, with two hands waiting
    assert offline[table.pk].since == since
    assert offline[table.pk].queued_count == 2
    # and once the phone has sent them, it is no longer
    client.post(
        reverse("matches:device_report", args=[match.pk]),
        json.dumps({"device": "telepon-1", "queued": 0}),
        content_type="application/json",
    )
    assert tables_offline(table_ids=[table.pk]) == {}


def test_device_endpoints_refuse_a_browser_without_the_tables_link() -> None:
    # given a match, and a browser that never opened its table's link
    table = _table()
    match = match_for_table(table=table)
    # when it asks for the device state or sends a hand
    state = Client().get(reverse("matches:device_state", args=[match.pk]))
    sent = _send(Client(), match, "kunci-asing", FIELDS_1, number=1, version=0)
    # then both are refused, as JSON, and nothing is stored
    assert state.status_code == 403
    assert sent.status_code == 403
    assert not Hand.objects.filter(match=match).exists()


def test_device_state_carries_the_catalogue_and_where_the_engine_is() -> None:
    client, match = _device(_table())
    body = client.get(reverse("matches:device_state", args=[match.pk])).json()
    assert body["match"]["names"] == {"0": "Budi", "1": "Ani", "2": "Siti", "3": "Dewi"}
    assert body["catalogue"]["templates:left_missing"].startswith("Sisa ubin")
    assert body["engine"]["bundle"].startswith(reverse("offline_engine"))
    assert body["engine"]["index"].endswith("/vendor/pyodide/")


def test_engine_bundle_holds_allfives_and_the_devices_modules_from_their_source() -> None:
    data, digest = engine_bundle()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "allfives/__init__.py" in names
    assert "allfives/scoresheet.py" in names
    assert {"matches/__init__.py", "matches/device.py", "matches/wording.py"} <= set(names)
    assert not any(name.startswith("matches/") and "models" in name for name in names)
    response = Client().get(reverse("offline_engine"))
    assert response.status_code == 200
    assert response.content == data
    assert response["ETag"] == f'"{digest}"'


def test_service_worker_is_served_from_the_root_naming_the_files_it_keeps() -> None:
    response = Client().get(reverse("offline_sw"))
    assert response.status_code == 200
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Content-Type"].startswith("text/javascript")
    text = response.content.decode()
    assert "/static/matches/offline.js" in text
    assert "/static/vendor/pyodide/pyodide.asm.wasm" in text


def test_manifest_opens_the_matchs_scoring_page_in_indonesian() -> None:
    client, match = _device(_table())
    body = client.get(reverse("matches:manifest", args=[match.pk])).json()
    assert body["start_url"] == reverse("matches:scorekeeper", args=[match.pk])
    assert body["lang"] == "id"
    assert {icon["sizes"] for icon in body["icons"]} == {"192x192", "512x512"}


def test_device_judge_words_a_refusal_as_the_server_does() -> None:
    # given a hand the engine refuses, and the catalogue in Indonesian
    document = {"players": 4, "hands": [{"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}}]}
    names = dict(enumerate(NAMES))
    with translation.override("id"):
        catalogue = message_catalogue()
        try:
            check_error: AllFivesError | None = None
            from allfives import replay

            replay(document)
        except AllFivesError as exc:
            check_error = exc
        assert check_error is not None
        expected = engine_error_message(check_error, names)
    # when the device's function judges it
    verdict = device_judge(document, names, catalogue)
    # then it is the same refusal, in the same words
    assert verdict["ok"] is False
    assert verdict["code"] == check_error.code
    assert verdict["message"] == expected


def test_device_judge_says_a_tie_is_played_off_when_the_server_does() -> None:
    # given a knockout semi-final "to the target or 30 minutes", one more hand on a tie
    organiser = UserFactory(username="panitia-seri")
    _tournament, semis = timed_semi_finals(organiser)
    table = semis.tables.get(number=1)
    match = match_for_table(table=table)
    names = {s.number: s.name for s in match_seats(match=match)}
    catalogue = message_catalogue()

    def judged_and_served(hand: dict[str, Any] | None) -> tuple[bool, bool]:
        nonlocal match
        if hand is not None:
            match = hand_record(
                match=match,
                number=match.hands_count + 1,
                hand=hand,
                version=match.version,
                user=organiser,
            )
        verdict = device_judge(match_document(match=match), names, catalogue)
        assert verdict["ok"] is True
        return verdict["playing_off"], match_playing_off(match=match)

    # when seat 1 leads 20 to 0, time is called, and hand 2 levels the totals at 20
    assert judged_and_served(tally(0, [[0, 10]], {"domino": 0}, {"1": 8})) == (False, False)
    table_time_call(table_id=table.pk, user=organiser)
    match.refresh_from_db()
    level = judged_and_served(tally(0, [[1, 20]], {"domino": 0}, {"1": 1}))
    # then the phone's engine and the server both say the tie is played off
    assert level == (True, True)
    # and a hand that leaves one side ahead ends it, for both
    assert judged_and_served(tally(0, [[0, 0]], {"domino": 0}, {"1": 4})) == (False, False)


def test_scoring_page_gives_the_phone_the_play_off_notice_in_indonesian() -> None:
    # given a table's phone on its scoring page
    client, match = _device(_table())
    # when the page is opened
    page = client.get(reverse("matches:scorekeeper", args=[match.pk])).content.decode()
    # then the offline part holds the notice the phone shows when a tie is played off,
    # in the words of the server's own notice
    assert 'data-label-play-off-title="Seri: satu ronde lagi menentukan."' in page
    assert "ronde berikutnya menyusul" in page.split('data-label-play-off="', 1)[1]
    state = client.get(reverse("matches:device_state", args=[match.pk])).json()
    assert state["match"]["playing_off"] is False


def test_scoring_page_gives_the_phone_the_clock_box_words_in_indonesian() -> None:
    # given a knockout semi-final "to the target or 30 minutes", one more hand on a tie,
    # and a table's phone on its scoring page
    _tournament, semis = timed_semi_finals(UserFactory(username="panitia-jam"))
    client, match = _device(semis.tables.get(number=1))
    # when the page is opened
    page = client.get(reverse("matches:scorekeeper", args=[match.pk])).content.decode()
    # then the offline part holds the clock box's words once time is called, as the
    # panel has them, with {n} for the last hand and {m} for the hand that decided
    assert 'data-label-clock-called="Waktu habis."' in page
    assert 'data-label-clock-finish="Selesaikan ronde {n}: lalu total tertinggi menang;' in page
    assert 'data-label-clock-playing-off="Waktu habis setelah ronde {n}."' in page
    played_off = page.split('data-label-clock-played-off="', 1)[1].split('"', 1)[0]
    assert played_off.startswith("Waktu habis setelah ronde {n} dengan total seri:")
    assert played_off.endswith("dan ronde {m} menentukannya.")
    ended = page.split('data-label-clock-ended="', 1)[1].split('"', 1)[0]
    assert ended.startswith("Waktu habis: pertandingan berakhir setelah ronde {n},")


def test_scoring_page_gives_the_phone_the_tally_words_in_indonesian() -> None:
    # given a table's phone on its scoring page
    client, match = _device(_table())
    # when the page is opened
    page = client.get(reverse("matches:scorekeeper", args=[match.pk])).content.decode()
    # then the offline part holds the words of the board's tally label, as the server's
    # tally has them, with {points}, {parts}, {n} and {p} where the numbers go
    assert 'data-label-tally-points="{points} poin: {parts}"' in page
    assert 'data-label-tally-crosses-one="{n} silang bernilai 50"' in page
    assert 'data-label-tally-crosses-other="{n} silang bernilai 50"' in page
    assert 'data-label-tally-strokes-one="{n} turus bernilai 5"' in page
    assert 'data-label-tally-strokes-other="{n} turus bernilai 5"' in page
    assert 'data-label-tally-and="dan {p}"' in page


def test_my_tables_shows_a_table_whose_phone_holds_hands_as_offline_since() -> None:
    # given a table whose phone reported two hands waiting since 14.02 (Jakarta)
    table = _table()
    client, match = _device(table)
    since = datetime(2026, 12, 1, 7, 2, tzinfo=UTC)
    client.post(
        reverse("matches:device_report", args=[match.pk]),
        json.dumps({"device": "telepon-1", "queued": 2, "offline_since": since.isoformat()}),
        content_type="application/json",
    )
    # when a scorekeeper of the tournament opens "My tables"
    organiser = UserFactory(username="panitia-warung")
    table.round.tournament.scorekeepers.add(organiser)
    browser = Client()
    browser.force_login(organiser)
    page = browser.get(reverse("matches:my_tables")).content.decode()
    # then the table says since when its phone has been offline, and how many hands wait
    assert f'data-testid="offline-{table.pk}"' in page
    assert "Offline sejak 14.02" in page
    assert "2 ronde menunggu di ponsel meja" in page


def test_sent_keys_are_forgotten_after_two_days_with_the_apis() -> None:
    # given a hand sent from a phone's queue three days ago, and one sent just now
    client, match = _device(_table())
    _send(client, match, "kunci-lama", FIELDS_1, number=1, version=0)
    _send(client, match, "kunci-baru", FIELDS_2 | {"leader": "2"}, number=2, version=1)
    DeviceSend.objects.filter(key="kunci-lama").update(created_at=datetime(2020, 1, 1, tzinfo=UTC))
    # when the hourly purge runs
    gone = idempotent_requests_purge_task()
    # then the old key is forgotten, the recent one kept, and the hands stay
    assert gone == 1
    assert list(DeviceSend.objects.values_list("key", flat=True)) == ["kunci-baru"]
    assert Hand.objects.filter(match=match).count() == 2
