"""Mending a match's hands without losing any: deleting asks first and can be undone
from the history; a correction that makes later hands impossible names them and, in one
confirmed step, removes them for re-entry; the history reads as sentences in the
user's language, naming who changed what."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from allfives import AllFivesError
from league.models import Table
from matches.models import Hand, Match
from matches.services.hands import hand_correct, hand_record, hands_unfit_after
from matches.services.lifecycle import match_for_table, match_mode_set, match_reopen
from tests.matches.sheets import MATCH_TO_50, tally

pytestmark = pytest.mark.django_db

#: Hand 1 with side 0's play of 10 left out: side 0 ends hand 3 at 40, short of 50.
SMALLER_HAND_1 = tally(0, [[1, 5]], {"domino": 2}, {"0": 7, "1": 8, "2": 0, "3": 6})


@pytest.fixture
def played(table: Table, scorekeeper: Any, organiser: Any) -> Match:
    """A match to 50 that side 0 won in hand 3, reopened by the organiser to correct."""
    match = match_for_table(table=table)
    for number, hand in enumerate(MATCH_TO_50, start=1):
        match = hand_record(
            match=match, number=number, hand=hand, version=match.version, user=scorekeeper
        )
    assert match.winners == [0] and match.status == Match.Status.FINISHED
    return match_reopen(match=match, version=match.version, user=organiser)


@pytest.fixture
def browser(scorekeeper: Any) -> Client:
    client = Client()
    client.force_login(scorekeeper)
    return client


def _url(name: str, *args: Any) -> str:
    with translation.override("id"):
        return reverse(f"matches:{name}", args=args)


def _edit_post(match: Match, **fields: Any) -> dict[str, str]:
    data = {
        "version": match.version,
        "number": 1,
        "leader": 0,
        "scores": "2:5",
        "end": "domino:2",
        "left_0": 7,
        "left_1": 8,
        "left_2": 0,
        "left_3": 6,
        **fields,
    }
    return {key: str(value) for key, value in data.items()}


def test_a_correction_that_makes_later_hands_impossible_is_refused_naming_them(
    played: Match, scorekeeper: Any
) -> None:
    # when hand 1 is corrected so that side 0 no longer reaches the target in hand 3
    assert hands_unfit_after(match=played, number=1, hand=SMALLER_HAND_1) == [3]
    with pytest.raises(AllFivesError) as refused:
        hand_correct(
            match=played, number=1, hand=SMALLER_HAND_1, version=played.version, user=scorekeeper
        )
    # then it is refused at hand 3, and nothing changed
    assert refused.value.hand == 2
    assert Hand.objects.get(match=played, number=1).entry["scores"] == [[0, 10], [1, 5]]


def test_removing_the_unfit_hands_saves_the_correction_and_keeps_them_in_the_history(
    played: Match, scorekeeper: Any
) -> None:
    match = hand_correct(
        match=played,
        number=1,
        hand=SMALLER_HAND_1,
        version=played.version,
        user=scorekeeper,
        remove_unfit=True,
    )
    assert match.hands_count == 2 and not match.winners
    assert list(Hand.objects.filter(match=match).values_list("number", flat=True)) == [1, 2]
    removed = Hand.history.get(match_id=match.pk, history_type="-")
    assert removed.number == 3 and removed.history_change_reason == "removed for re-entry"


def test_the_page_offers_the_removal_in_one_confirmed_step(played: Match, browser: Client) -> None:
    # given the won match, reopened; when hand 1 is corrected on its page
    url = _url("hand_edit", played.pk, 1)
    html = browser.post(url, {**_edit_post(played), "action": "save"}).content.decode()
    # then the page says which later hand no longer fits, and why, in Indonesian
    errors = html.split('data-testid="form-errors"')[1].split("</div>")[0]
    assert "Setelah koreksi ini ronde 3 tidak cocok lagi" in errors
    assert 'data-testid="remove-unfit"' in errors and "hapus ronde 3" in errors
    assert Hand.objects.filter(match=played).count() == 3
    # when the offered step is taken
    done = browser.post(url, {**_edit_post(played), "action": "remove_unfit"}, follow=True)
    # then the correction is saved, hand 3 is gone for re-entry, and the history says so
    assert Hand.objects.filter(match=played).count() == 2
    assert Hand.objects.get(match=played, number=1).entry["scores"] == [[1, 5]]
    assert "Ronde 3" in done.content.decode()  # the next hand to enter
    history = browser.get(_url("history", played.pk)).content.decode()
    assert "ronde 3 dihapus untuk dicatat ulang oleh scorekeeper" in history
    assert "ronde 1 dikoreksi oleh scorekeeper" in history


def test_deleting_a_hand_asks_first_and_the_hand_can_be_restored(
    played: Match, browser: Client
) -> None:
    # when the scorekeeper opens "delete hand 3"
    page = browser.get(_url("hand_delete", played.pk, 3))
    # then a page asks first, and nothing is deleted yet
    assert page.status_code == 200
    assert 'data-testid="confirm-delete"' in page.content.decode()
    assert Hand.objects.filter(match=played).count() == 3
    # when it is confirmed
    played.refresh_from_db()
    browser.post(_url("hand_delete", played.pk, 3), {"version": played.version})
    assert Hand.objects.filter(match=played).count() == 2
    # then the history offers it back, and restoring it puts it back at its number
    history = browser.get(_url("history", played.pk)).content.decode()
    assert "ronde 3 dihapus oleh scorekeeper" in history
    deleted = Hand.history.get(match_id=played.pk, history_type="-")
    assert f"/history/{deleted.history_id}/restore/" in history
    played.refresh_from_db()
    browser.post(_url("hand_restore", played.pk, deleted.history_id), {"version": played.version})
    played.refresh_from_db()
    assert played.hands_count == 3 and played.winners == [0]
    assert Hand.objects.get(match=played, number=3).entry == MATCH_TO_50[2]
    # and once restored it is not offered again
    again = browser.get(_url("history", played.pk)).content.decode()
    assert "ronde 3 dipulihkan oleh scorekeeper" in again
    assert 'data-testid="restore"' not in again


def test_the_history_reads_as_sentences_with_points_before_and_after(
    played: Match, scorekeeper: Any, browser: Client
) -> None:
    hand_correct(
        match=played,
        number=3,
        hand=tally(1, [[1, 5], [2, 10]], {"target": True}),
        version=played.version,
        user=scorekeeper,
    )
    html = browser.get(_url("history", played.pk)).content.decode()
    names = " &amp; ".join(str(played.table.seats.get(number=n).entry.player.name) for n in (0, 2))
    assert f"ronde 3 dikoreksi oleh scorekeeper: {names} 5 → 10" in html
    assert "{" not in html.split('data-testid="history"')[1]  # no raw dicts
    assert "created" not in html and "changed" not in html


def test_a_tally_hand_is_corrected_in_tally_while_the_match_is_entered_tile_by_tile(
    played: Match, organiser: Any
) -> None:
    # Given the reopened match switched to tile-by-tile entry after its tally hands
    match = match_mode_set(
        match=played, entry_mode=Match.EntryMode.TILES, version=played.version, user=organiser
    )
    # When hand 1 is corrected as it was entered, by tally
    corrected = hand_correct(
        match=match,
        number=1,
        hand=SMALLER_HAND_1,
        version=match.version,
        user=organiser,
        remove_unfit=True,
    )
    # Then the correction is stored in the hand's own mode
    first = Hand.objects.get(match=corrected, number=1)
    assert first.mode == "tally" and first.entry == SMALLER_HAND_1
    assert corrected.entry_mode == Match.EntryMode.TILES
