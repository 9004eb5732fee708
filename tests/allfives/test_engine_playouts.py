"""Seeded random playouts ("perft" for All Fives): thousands of hands per player count
through the public API, with the invariants checked after every move.

After every move: the 28 tiles are conserved (R1); a score is 0 or a multiple of
five up to 35 and is the count when the count is a positive multiple of five
(R12), the count agrees with one recomputed from the drawn layout (R11); a
pass happens only when nothing fits and the boneyard is empty (R15); a draw
only when nothing fits (R13), and drawing stops at the first tile that fits,
which must then be laid (R14); the sides' totals equal the sum of their events
(R22). On a sample of positions every move outside `legal_moves()` is refused and
leaves the state unchanged. Each hand's settlement is compared with the rule
text (R18-R20), and each match's scoresheet, replayed by `check`, gives the same
points.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from allfives import ALL_TILES, AllFivesError, HandState, MatchState, Move, Rules, check
from allfives.layout import END_NAMES
from allfives.tiles import FULL_MASK
from tests.allfives.engine_helpers import (
    count_from_geometry,
    documented_winner,
    reference_settlement,
)

HANDS_PER_PLAYER_COUNT = 10_000
SCORES = frozenset(range(0, 40, 5))


def conserved(state: HandState) -> None:
    """R1: every tile is in exactly one place (a hand, the boneyard, the table)."""
    places = [*state.hands, state.free, state.layout.played]
    union = 0
    for mask in places:
        assert not union & mask
        union |= mask
    assert union == FULL_MASK
    assert state.layout.played.bit_count() == state.layout.laid
    assert [mask.bit_count() for mask in state.hands] == state.held
    assert state.free.bit_count() == state.boneyard_count


def conserved_as_tiles(state: HandState) -> None:
    """The same through the public observers, for the deeply checked hands."""
    held = [set(state.hand(seat)) for seat in range(state.players)]
    places = [*held, set(state.boneyard() or ()), state.layout.tiles()]
    assert sum(len(place) for place in places) == 28
    assert set().union(*places) == set(ALL_TILES)
    assert [len(h) for h in held] == [state.held_count(seat) for seat in range(state.players)]


def snapshot(state: HandState) -> tuple[object, ...]:
    layout = state.layout
    return (state.hands[:], state.free, layout.played, layout.count, layout.pips[:], state.turn)


def fits(state: HandState, tile: Any) -> bool:
    return state.layout.is_empty() or bool(state.layout.ends_for(tile))


def refuses_everything_else(state: HandState, seat: int, legal: list[Move]) -> None:
    """Every play of a held tile on any end that `legal_moves` does not offer is refused."""
    offered = {(m.kind, m.tile, m.end) for m in legal}
    candidates = [Move.play(seat, tile, end) for tile in state.hand(seat) for end in END_NAMES]
    candidates += [Move.pass_turn(seat)]
    boneyard = state.boneyard()
    if boneyard:
        candidates.append(Move.draw(seat, boneyard[0]))
    for move in candidates:
        if (move.kind, move.tile if move.is_play else None, move.end) in offered:
            continue
        if move.is_draw and ("draw", None, None) in offered:
            continue
        before = snapshot(state)
        try:
            state.apply(move)
        except AllFivesError:
            assert snapshot(state) == before
        else:
            raise AssertionError(f"{move!r} was accepted but not offered")


def play_hand(
    state: HandState,
    match: MatchState,
    rng: random.Random,
    events: dict[int, int],
    stats: Counter[str],
    *,
    deep: bool,
) -> list[dict[str, Any]]:
    """Play a hand at random through the public API; return its moves as JSON."""
    moves: list[dict[str, Any]] = []
    while not state.is_over():
        seat = state.turn
        assert seat is not None
        legal = state.legal_moves()
        assert legal
        if deep and rng.random() < 0.05:
            refuses_everything_else(state, seat, legal)
        move = legal[int(rng.random() * len(legal))]
        if move.is_pass:
            assert state.boneyard_count == 0
            assert not any(fits(state, tile) for tile in state.hand(seat))
            stats["passes"] += 1
        elif move.is_draw:
            assert not any(fits(state, tile) for tile in state.hand(seat))
            boneyard = state.boneyard()
            assert boneyard
            move = Move.draw(seat, boneyard[int(rng.random() * len(boneyard))])
            stats["draws"] += 1
        points = state.apply(move)
        moves.append(move.to_json())
        conserved(state)
        if deep:
            conserved_as_tiles(state)
        if move.is_draw:
            assert move.tile is not None
            if fits(state, move.tile):
                # R14: stop drawing, lay that tile now (and only that tile).
                assert state.must_play_tile() == move.tile
                after = state.legal_moves()
                assert after and all(m.tile == move.tile for m in after)
            else:
                assert state.must_play_tile() is None
        if move.is_play:
            count = state.layout.count
            assert points in SCORES
            assert points == (count if count % 5 == 0 else 0)
            assert 0 <= count <= 36
            if deep:
                assert count == count_from_geometry(state.layout)
                assert sum(state.layout.end_counts().values()) == count
            if points:
                side = match.side_of(seat)
                events[side] += 2 * points
                reached = match.score_play(seat, points)
                assert match.totals_x2 == events
                if reached:
                    stats["target"] += 1
                    return moves
    return moves


def settle_hand(
    state: HandState, match: MatchState, events: dict[int, int], stats: Counter[str]
) -> None:
    pips = [sum(tile.pips for tile in state.hand(seat)) for seat in range(state.players)]
    settlement = state.settle()
    seats, bonus = reference_settlement(
        end=settlement.end,
        pips=pips,
        players=state.players,
        award=state.rules.blocked_award,
        went_out=state.went_out,
    )
    assert list(settlement.hand_winner) == seats
    assert {side: x2 / 2 for side, x2 in settlement.bonus_x2.items()} == bonus
    stats[settlement.end] += 1
    if settlement.end == "blocked" and not seats:
        stats["tie"] += 1
    if len(seats) == 2 and state.players == 3:
        stats["split"] += 1
    if state.end == "domino":
        assert state.held_count(state.went_out or 0) == 0
    match.settle(settlement)
    for side, bonus_x2 in settlement.bonus_x2.items():
        events[side] += bonus_x2
    assert match.totals_x2 == events
    match.end_hand(state.went_out)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_r1_r11_r12_r13_r14_r15_r22_random_playouts_keep_every_invariant(players: int) -> None:
    rng = random.Random(f"playouts-{players}")
    award = "opponents"
    hands = 0
    stats: Counter[str] = Counter()
    matches = 0
    while hands < HANDS_PER_PLAYER_COUNT:
        # Alternate the blocked award and use low targets, so that matches are short
        # and many hands end at the target.
        award = "difference" if award == "opponents" else "opponents"
        target = rng.choice([50, 100, 200])
        rules = Rules(targets={players: target}, blocked_award=award)  # type: ignore[arg-type]
        match = MatchState(players, rules)
        events = dict.fromkeys(range(2 if players == 4 else players), 0)
        leader = rng.randrange(players)
        document_hands = []
        while not match.is_over:
            match.start_hand(leader)
            tiles = list(ALL_TILES)
            rng.shuffle(tiles)
            size = rules.hand_size(players)
            deal = [tiles[seat * size : (seat + 1) * size] for seat in range(players)]
            state = HandState(players, leader, rules=rules, deal=deal)
            conserved(state)
            moves = play_hand(state, match, rng, events, stats, deep=hands < 1_000)
            document_hands.append(
                {"leader": leader, "deal": [[str(t) for t in h] for h in deal], "moves": moves}
            )
            hands += 1
            if match.is_over:
                break
            settle_hand(state, match, events, stats)
            leader = match.next_leader if match.next_leader is not None else rng.randrange(players)
        matches += 1
        verdict = check({"players": players, "rules": rules.to_json(), "hands": document_hands})
        assert verdict["ok"], verdict
        assert verdict["totals"] == {str(side): x2 / 2 for side, x2 in events.items()}
        assert verdict["winner"] == documented_winner(match.winners)
    assert hands >= HANDS_PER_PLAYER_COUNT
    # The playouts reached every way a hand ends, and drew and passed.
    assert stats["domino"] and stats["blocked"] and stats["target"], stats
    assert stats["draws"] and stats["passes"], stats
    # Ties for lowest in a block: two sides scoring nothing, or the three-player split.
    assert stats["split" if players == 3 else "tie"], stats
