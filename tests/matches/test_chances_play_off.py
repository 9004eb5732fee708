"""The in-hand chances while a timed knockout match plays a tie off tile by tile (R24,
``tie_break``): time was called, the totals were level after the hand in play, and the
deciding hand is entered play by play. After each play the scoresheet's chances
(``match_chances``) are those the engine gives directly for the same state with
``chances_in_hand(..., hands_left=0, deciding=True)``: no play of that hand wins by
reaching the target, and every side, the third at a three-player table too, may take
the hand."""

from __future__ import annotations

import random
from typing import Any

import pytest

from allfives import HandState, Move, Rules
from allfives.chances import Forecast, HandBook, chances_in_hand
from league.models import KnockoutTie, Round, Tournament
from matches.chances import Chances, match_chances, match_greed
from matches.models import Match
from matches.selectors import match_hands, match_playing_off, tiles_draft
from matches.services.clock import table_time_call
from matches.services.hands import hand_record
from matches.services.lifecycle import match_for_table, match_mode_set
from tests.factories import (
    EntryFactory,
    RoundFactory,
    RuleSetFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tests.matches.sheets import tally
from tests.matches.test_clock import EVEN, HAND_1

pytestmark = pytest.mark.django_db

#: How far (percentage points) the scoresheet's chance of a side may be from the
#: engine's own estimate of the same state: each estimate's standard error is at most
#: one point (``MAX_SE``) and the two books of simulated hands differ.
TOLERANCE = 6.0

#: Two players, seat 0 leading and going out; seat 1 is left holding [0|5] (5 pips,
#: worth 5). In the hand seat 0 makes 60 and seat 1 65: level again at the end.
#: After the ninth play seat 0 has 40 in the hand to seat 1's 25.
TWO_PLAYER_PLAY_OFF = [
    "4-6", "1-6 E", "0-4 W", "1-1 E", "0-3 W", "1-2 E", "1-5 S", "5-5 S", "0-1 N",
    "3-5 W", "2-5 E", "0-2 N", "4-5 S", "2-6 N", "2-4 S", "2-2 S", "5-6 E",
]  # fmt: skip
#: Three players from [20, 20, 10], seat 1 leading and going out; seats 0 and 2 are left
#: holding [0|1] and [0|2] (3 pips, worth 5). Seat 2, behind when the tie is played
#: off, leads after the fifth play (25, 20, 30) and the eleventh (35, 20, 45); seat 0
#: reaches the target of 50 at the twelfth; the hand ends 60, 60, 55, tied again.
THREE_PLAYER_PLAY_OFF = [
    "6-6", "3-6 W", "2-6 E", "2-3 W", "1-6 N", "5-6 S", "2-2 E", "2-5 S", "1-2 S",
    "1-4 N", "1-5 S", "2-4 E", "5-5 S", "3-5 S", "3-4 S", "4-5 E", "0-5 E", "0-0 E",
    "4-4 N",
]  # fmt: skip


@pytest.fixture
def organiser() -> Any:
    return UserFactory(username="panitia-babak")


def _knockout_match(organiser: Any, *, players: int, target: int) -> Match:
    """A knockout table "to the target or 30 minutes", a tie played off by one more
    hand, with its match."""
    rule_set = RuleSetFactory(time_limit=30, knockout_tie=KnockoutTie.EXTRA_HAND)
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, rule_set=rule_set)
    tournament.organisers.add(organiser)
    round_ = RoundFactory(tournament=tournament, number=1, stage=Round.Stage.KNOCKOUT)
    table = TableFactory(round=round_, player_count=players, target=target)
    for seat in range(players):
        SeatFactory(table=table, number=seat, entry=EntryFactory(tournament=tournament))
    return match_for_table(table=table)


def _record(match: Match, hand: dict[str, Any], user: Any) -> Match:
    match.refresh_from_db()
    return hand_record(
        match=match, number=match.hands_count + 1, hand=hand, version=match.version, user=user
    )


def _level_on_time(
    organiser: Any, *, players: int, target: int, hands: list[dict[str, Any]]
) -> Match:
    """The match after `hands` (tallies), time called during the last of them, switched
    to tile-by-tile entry for the play-off."""
    match = _knockout_match(organiser, players=players, target=target)
    for hand in hands[:-1]:
        match = _record(match, hand, organiser)
    assert match.table_id is not None
    table_time_call(table_id=match.table_id, user=organiser)
    match = _record(match, hands[-1], organiser)
    return match_mode_set(
        match=match, entry_mode=Match.EntryMode.TILES, version=match.version, user=organiser
    )


def _moves(raw: list[str], *, leader: int, players: int) -> list[dict[str, Any]]:
    """The plays in turn from `leader` (every turn a play: nobody draws)."""
    moves = []
    for index, text in enumerate(raw):
        tile, _space, end = text.partition(" ")
        move: dict[str, Any] = {"seat": (leader + index) % players, "play": tile}
        if end:
            move["end"] = end
        moves.append(move)
    return moves


def _percents(forecast: Forecast) -> tuple[float, ...]:
    return tuple(100 * p for p in forecast.chances)


def _entered_play_by_play(
    match: Match, moves: list[dict[str, Any]], *, leader: int
) -> list[tuple[HandState, list[int]]]:
    """Each play of the hand as the scorer's page enters it (``tiles_draft``), checked to
    be no win at the target; the engine's state after it without a deal, and the sides'
    totals (half-points) with the hand's plays so far."""
    players = match.player_count
    rules = Rules.from_json(match.rules)
    before = [match.total_x2(side) for side in range(players)]
    state = HandState(players, leader, rules=rules)
    states = []
    for count in range(1, len(moves) + 1):
        draft = tiles_draft(match=match, leader=leader, moves=moves[:count])
        assert draft.error is None, (count, draft.error)
        # A play past the target does not end a play-off hand: the next seat is to play
        # (the last play is the domino that ends the hand).
        assert not draft.target_reached, count
        assert draft.end == (None if count < len(moves) else "domino"), count
        state.apply(Move.parse(moves[count - 1]))
        totals = [before[side] + 2 * draft.points[str(side)] for side in range(players)]
        states.append((state.copy(), totals))
    return states


def _scoresheet_chances(match: Match) -> list[Chances]:
    """The chances the scoresheet shows after each play of the match's latest hand."""
    found = match_chances(match=match, hands=match_hands(match=match))
    steps = found.hands[match.hands_count].steps
    chances = [step.chances for step in steps]
    assert all(c is not None for c in chances)
    return [c for c in chances if c is not None]


def _book(match: Match) -> HandBook:
    """A book of simulated hands for the match's table, built apart from the
    scoresheet's (its own seed): the engine called directly."""
    return HandBook.build(
        players=match.player_count,
        rules=Rules.from_json(match.rules),
        greed=match_greed(match=match),
        seed="direct",
    )


def _engine(
    book: HandBook, state: HandState, totals: list[int], *, seed: int, **clock: Any
) -> tuple[float, ...]:
    forecast = chances_in_hand(
        book, state=state, totals_x2=totals, rng=random.Random(seed), max_se=0.01, **clock
    )
    return _percents(forecast)


@pytest.mark.slow
@pytest.mark.parametrize("target", [50, 250])
def test_r24_a_play_off_hand_entered_tile_by_tile_shows_the_engines_deciding_hand_chances(
    organiser: Any, target: int
) -> None:
    # Given a two-player knockout match level at 20 after the hand in play when time
    # was called
    match = _level_on_time(organiser, players=2, target=target, hands=[HAND_1, EVEN])
    assert [match.total_x2(side) for side in range(2)] == [40, 40]
    assert match_playing_off(match=match)
    # When the deciding hand is entered play by play, then recorded
    moves = _moves(TWO_PLAYER_PLAY_OFF, leader=0, players=2)
    states = _entered_play_by_play(match, moves, leader=0)
    match = _record(match, {"leader": 0, "moves": moves, "left": {"1": ["0-5"]}}, organiser)
    shown = _scoresheet_chances(match)
    # Then it ended level again (85 each), so the tie is still played off and the
    # scoresheet follows that hand play by play
    assert [match.total_x2(side) for side in range(2)] == [170, 170]
    assert not match.winners and match_playing_off(match=match)
    assert len(shown) == len(moves)
    # and after every play nobody is certain, not even seat 0 past the target (at 50)
    past = [n for n, (_s, totals) in enumerate(states, 1) if totals[0] >= 2 * target]
    assert bool(past) == (target == 50)
    for count, chances in enumerate(shown, 1):
        assert all(0 < p < 100 for p in chances.percents), (count, chances)
    # and while the hand is in progress each side's chance is the engine's own for a
    # deciding hand from that state
    book = _book(match)
    _assert_deciding_chances(book, states, shown)
    # and where seat 0 leads the hand most (80 to 45 after the thirteenth play) its
    # chance is far above the engine's for the same state with no clock called
    # (hands_left None, not deciding): the chances follow the play-off
    count = 13
    state, totals = states[count - 1]
    assert totals == [160, 90]
    unclocked = _engine(book, state, totals, seed=count, hands_left=None, deciding=False)
    assert shown[count - 1].percents[0] > unclocked[0] + 3 * TOLERANCE, (shown, unclocked)


def _assert_deciding_chances(book: Any, states: Any, shown: Any) -> None:
    """Each play's chances on the scoresheet are the engine's for a deciding hand from the
    same state, for every play but the last (the domino that ends the hand)."""
    for count, ((state, totals), chances) in enumerate(zip(states[:-1], shown, strict=False), 1):
        engine = _engine(book, state, totals, seed=count, hands_left=0, deciding=True)
        assert chances.percents == pytest.approx(engine, abs=TOLERANCE), (count, totals)


#: Three-player hands to the play-off: seat 0 makes 10 and goes out against 9 pips
#: (worth 10) while seat 2 makes 10; then seat 1 makes 20 and goes out against 2 pips.
THREE_1 = tally(0, [[0, 10], [2, 10]], {"domino": 0}, {"1": 8, "2": 1})
THREE_2 = tally(0, [[1, 20]], {"domino": 1}, {"0": 1, "2": 1})


@pytest.mark.slow
def test_r24_the_third_player_may_still_take_a_three_player_play_off_hand(
    organiser: Any,
) -> None:
    # Given a three-player knockout table to 50 where seats 0 and 1 are level at 20,
    # seat 2 on 10, after the hand in play when time was called
    match = _level_on_time(organiser, players=3, target=50, hands=[THREE_1, THREE_2])
    assert [match.total_x2(side) for side in range(3)] == [40, 40, 20]
    assert match_playing_off(match=match)
    # When the deciding hand is entered play by play, then recorded
    moves = _moves(THREE_PLAYER_PLAY_OFF, leader=1, players=3)
    states = _entered_play_by_play(match, moves, leader=1)
    left = {"0": ["0-1"], "2": ["0-2"]}
    match = _record(match, {"leader": 1, "moves": moves, "left": left}, organiser)
    shown = _scoresheet_chances(match)
    # Then seats 0 and 1 are tied again on 60, seat 2 on 55: still played off
    assert [match.total_x2(side) for side in range(3)] == [120, 120, 110]
    assert not match.winners and match_playing_off(match=match)
    # and after every play seat 2 may still win and nobody is certain, not even seat 0
    # on or past the target from the twelfth play on
    assert states[11][1][0] >= 100
    for count, chances in enumerate(shown, 1):
        assert all(0 < p < 100 for p in chances.percents), (count, chances)
    # and while the hand is in progress each side's chance is the engine's own for a
    # deciding hand from that state
    book = _book(match)
    _assert_deciding_chances(book, states, shown)
    # and where seat 2 leads (35, 20, 45 after the eleventh play) it is the likeliest
    # to take the hand
    assert states[10][1] == [70, 40, 90]
    assert max(shown[10].percents) == shown[10].percents[2], shown[10]
