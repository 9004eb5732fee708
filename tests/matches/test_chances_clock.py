"""The live chances under a called clock (R24): once time is called the hands left are
what the estimate plays, so a lead is worth more than over a whole match."""

from __future__ import annotations

from typing import Any

import pytest

from matches.chances import match_chances
from matches.models import Hand, Match
from matches.selectors import clock_hands_left
from matches.services.clock import table_time_call
from matches.services.lifecycle import match_for_table
from tests.factories import UserFactory
from tests.matches.test_clock import HAND_1, _record, _round

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return UserFactory(username="panitia")


def test_the_hands_left_count_from_the_hand_in_play_when_time_was_called() -> None:
    # Given a match whose time was called during its third hand
    match = Match(time_called_after=3)
    # When the hands the clock allows are read after each number of hands played
    left = [clock_hands_left(match=match, played=n) for n in range(5)]
    # Then before the second hand was over nobody knew of the call; after it one hand
    # was left, then none
    assert left == [None, None, 1, 0, 0]
    assert clock_hands_left(match=Match(), played=2) is None


def test_calling_time_makes_the_leaders_chance_that_of_one_last_hand(organiser: Any) -> None:
    # Given a two-player table where seat 0 is ahead after one hand
    round_ = _round(organiser, tables=1)
    table = round_.tables.get()
    match = _record(match_for_table(table=table), HAND_1, organiser)
    hands = list(Hand.objects.filter(match=match))
    before = match_chances(match=match, hands=hands).now
    # When time is called: the next hand is the last
    table_time_call(table_id=table.pk, user=organiser)
    match.refresh_from_db()
    after = match_chances(match=match, hands=hands).now
    # Then seat 0's chance is that of keeping the lead over one hand, far above its
    # chance over the rest of a match to 250
    assert before is not None and after is not None
    assert match.time_called_after == 2
    assert after.percents[0] > before.percents[0] + 10, (before, after)
