"""A hand, move by move: the deal (R3), forced play, drawing and passing (R13-R15),
the end of a hand (R16) and its settlement from the real hands (R18-R20)."""

from __future__ import annotations

import pytest

from allfives import ALL_TILES, AllFivesError, HandState, Move, Rules, Tile
from allfives.settlement import Settlement
from tests.allfives.engine_helpers import (
    BONEYARD_A,
    DEAL_A,
    EVEN_A,
    EVEN_B,
    HEAVY,
    LIGHT,
    ZERO_LINE,
)


def hand_a() -> HandState:
    hand = HandState(2, 0, deal=DEAL_A)
    hand.apply(Move.play(0, "3-6"))
    return hand


def zero_line_deal(players: int, rest: list[list[str]]) -> list[list[str]]:
    deal: list[list[str]] = [[] for _ in range(players)]
    for index, (tile, _) in enumerate(ZERO_LINE):
        deal[index % players].append(tile)
    for seat, tiles in enumerate(rest):
        deal[seat].extend(tiles)
    return deal


def play_zero_line(hand: HandState) -> list[int]:
    points = []
    for index, (tile, end) in enumerate(ZERO_LINE):
        points.append(hand.apply(Move.play(index % hand.players, tile, end)))
    return points


def error(hand: HandState, move: Move) -> AllFivesError:
    before = (hand.hands[:], hand.free, str(hand.layout), hand.turn, hand.pending)
    with pytest.raises(AllFivesError) as caught:
        hand.apply(move)
    assert (hand.hands[:], hand.free, str(hand.layout), hand.turn, hand.pending) == before
    return caught.value


# --------------------------------------------------------------------------- R3


def test_r3_the_deal_gives_each_player_their_tiles_and_the_rest_is_the_boneyard() -> None:
    hand = HandState(2, 0, deal=DEAL_A)
    assert [str(t) for t in hand.hand(1)] == sorted(DEAL_A[1])
    boneyard = hand.boneyard()
    assert boneyard is not None and sorted(map(str, boneyard)) == sorted(BONEYARD_A)
    assert hand.boneyard_count == 10 and hand.held_count(0) == 9


@pytest.mark.parametrize(
    ("deal", "code"),
    [
        (DEAL_A[:1], "bad_deal"),
        ([DEAL_A[0], DEAL_A[1][:8]], "bad_deal"),
        ([DEAL_A[0], [*DEAL_A[1][:8], "3-6"]], "bad_deal"),
        ([DEAL_A[0], [*DEAL_A[1][:8], "0-0"]], "bad_deal"),
        ([DEAL_A[0], [*DEAL_A[1][:8], "9-9"]], "bad_format"),
        ([DEAL_A[0], "0-0 0-1"], "bad_deal"),
        ([DEAL_A[0], {"0-0": 1}], "bad_deal"),
        ("not a deal", "bad_deal"),
    ],
)
def test_r3_a_deal_must_be_the_right_sizes_without_repeats(deal: object, code: str) -> None:
    with pytest.raises(AllFivesError) as caught:
        HandState(2, 0, deal=deal)  # type: ignore[arg-type]
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("hand", "twice"),
    [
        (["0-0", "0-0", "0-1", "0-3", "0-4", "0-5", "0-6", "1-1", "1-2"], "[0|0]"),
        (["0-0", "0-1", "0-0", "0-3", "0-1", "0-4", "0-5", "1-1", "1-2"], "[0|0]"),
        (["6-6", "5-6", "6-6", "0-1", "0-3", "0-4", "0-5", "0-6", "4-4"], "[6|6]"),
    ],
)
def test_r3_a_tile_dealt_twice_in_one_hand_is_named(hand: list[str], twice: str) -> None:
    # Given a hand holding a tile twice, dealt first or after a hand holding the tiles
    # next to it in the set's order
    others = ["0-2", "1-3", "1-4", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5"]
    for deal in ([hand, others], [others, hand]):
        # When the deal is read
        with pytest.raises(AllFivesError) as caught:
            HandState(2, 0, deal=deal)
        # Then the repeated tile is the one named
        assert caught.value.code == "bad_deal"
        assert caught.value.message == f"the deal is wrong: {twice} is dealt twice"


def test_r3_a_deal_may_be_given_as_tiles() -> None:
    deal = [[Tile.parse(text) for text in seat] for seat in DEAL_A]
    assert HandState(2, 1, deal=deal).hand(0) == HandState(2, 1, deal=DEAL_A).hand(0)


# --------------------------------------------------------------------------- turns


def test_r2_play_passes_clockwise_and_only_the_seat_to_move_may_move() -> None:
    hand = hand_a()
    assert hand.turn == 1
    err = error(hand, Move.play(0, "3-3", "W"))
    assert (err.code, err.rule, err.seat) == ("not_your_turn", "R2", 0)
    assert err.message == "seat 0 moves, but it is seat 1's turn"


def test_r6_the_leader_moves_first_and_must_lead() -> None:
    hand = HandState(2, 1, deal=DEAL_A)
    assert error(hand, Move.play(0, "3-6")).code == "not_your_turn"
    assert error(hand, Move.draw(1, "2-2")).code == "must_play"
    assert error(hand, Move.pass_turn(1)).code == "illegal_pass"
    assert hand.apply(Move.play(1, "5-0")) == 5  # any tile may lead, and it scores
    assert hand.layout.open_ends() == {"W": 5, "E": 0}


def test_r3_a_player_lays_only_tiles_they_hold() -> None:
    hand = hand_a()
    hand.apply(Move.draw(1, "4-6"))
    hand.apply(Move.play(1, "4-6", "E"))
    err = error(hand, Move.play(0, "0-0"))
    assert (err.code, err.rule) == ("tile_not_in_hand", "R3")
    assert "seat 1 holds it" in err.message
    assert "in the boneyard" in error(hand, Move.play(0, "3-4", "W")).message
    err = error(hand, Move.play(0, "6-3"))
    assert (err.code, err.rule) == ("tile_already_played", "R1")


def test_r7_r10_layout_errors_name_the_seat() -> None:
    hand = hand_a()
    hand.apply(Move.draw(1, "4-6"))
    hand.apply(Move.play(1, "4-6", "E"))
    err = error(hand, Move.play(0, "1-3", "E"))
    assert err.code == "tile_does_not_match"
    assert err.message == "seat 0: [1|3] does not match the east end (4)"
    assert error(hand, Move.play(0, "3-3", "N")).code == "branch_not_open"


# --------------------------------------------------------------------------- R13-R15


def test_r13_a_player_who_can_lay_must_lay_and_may_not_draw() -> None:
    hand = hand_a()
    hand.apply(Move.draw(1, "4-6"))
    hand.apply(Move.play(1, "4-6", "E"))
    err = error(hand, Move.draw(0, "2-2"))
    assert (err.code, err.rule) == ("must_play", "R13")
    assert err.params["tile"] == "[0|3]"
    assert hand.apply(Move.play(0, "1-3", "W")) == 5  # any legal tile: 1 + 4


def test_r14_draw_one_at_a_time_until_a_tile_fits_then_lay_it_at_once() -> None:
    hand = hand_a()
    assert hand.legal_moves() == [Move.draw(1)]
    hand.apply(Move.draw(1, "2-2"))  # does not fit: keep drawing
    assert hand.must_play_tile() is None and hand.turn == 1
    hand.apply(Move.draw(1, "4-6"))  # fits the east 6: must be laid now
    assert hand.must_play_tile() == Tile.parse("4-6")
    assert hand.legal_moves() == [Move.play(1, "4-6", "E")]
    err = error(hand, Move.draw(1, "5-5"))
    assert (err.code, err.rule) == ("drew_past_playable", "R14")
    err = error(hand, Move.play(1, "0-0"))
    assert (err.code, err.rule) == ("must_play_drawn_tile", "R14")
    err = error(hand, Move.pass_turn(1))
    assert (err.code, err.rule) == ("must_play_drawn_tile", "R14")
    assert hand.apply(Move.play(1, "6-4")) == 0  # 3 + 4
    assert hand.turn == 0 and hand.boneyard_count == 8 and hand.held_count(1) == 10


def test_r14_the_drawn_tile_goes_on_any_end_it_fits() -> None:
    hand = HandState(2, 0, deal=DEAL_A)
    hand.apply(Move.play(0, "3-3"))  # a double lead: both ends show 3
    hand.apply(Move.draw(1, "3-4"))
    assert [m.end for m in hand.legal_moves()] == ["W", "E"]
    assert error(hand, Move.play(1, "3-4")).code == "ambiguous_end"
    assert hand.apply(Move.play(1, "3-4", "E")) == 10  # 4 + the spinner's 3 + 3


def test_r14_draws_must_come_from_the_boneyard() -> None:
    hand = hand_a()
    err = error(hand, Move.draw(1, "3-3"))
    assert (err.code, err.rule) == ("tile_not_in_boneyard", "R3")
    assert "seat 0 holds it" in err.message
    assert error(hand, Move.draw(1, "6-3")).code == "tile_already_played"
    err = error(hand, Move.draw(1))
    assert err.code == "bad_format" and "every draw must say which tile" in err.message


def test_r15_no_pass_while_the_boneyard_has_tiles() -> None:
    hand = hand_a()
    err = error(hand, Move.pass_turn(1))
    assert (err.code, err.rule) == ("illegal_pass", "R15")
    assert err.params["reason_code"] == "boneyard_not_empty"


def test_r15_no_pass_while_holding_a_tile_that_fits() -> None:
    rules = Rules(hand_sizes={2: 14})
    hand = HandState(2, 0, rules=rules, deal=zero_line_deal(2, [LIGHT, HEAVY]))
    hand.apply(Move.play(0, "0-0"))
    err = error(hand, Move.pass_turn(1))
    assert err.code == "illegal_pass" and err.params["reason_code"] == "can_play"
    assert error(hand, Move.draw(1, "1-1")).code == "must_play"


def test_r15_pass_when_nothing_fits_and_the_boneyard_is_empty() -> None:
    # Thirteen tiles each leave a boneyard of two.
    deal = [
        ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6"],
        ["2-2", "2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5", "3-6", "4-4", "4-5", "4-6", "5-5"],
    ]  # boneyard: 5-6, 6-6
    hand = HandState(2, 0, rules=Rules(hand_sizes={2: 13}), deal=deal)
    hand.apply(Move.play(0, "1-1"))
    hand.apply(Move.draw(1, "6-6"))
    hand.apply(Move.draw(1, "5-6"))  # boneyard now empty, nothing fits
    assert hand.legal_moves() == [Move.pass_turn(1)]
    assert error(hand, Move.draw(1, "5-6")).code == "boneyard_empty"
    assert error(hand, Move.draw(1)).code == "boneyard_empty"
    hand.apply(Move.pass_turn(1))
    assert hand.turn == 0 and not hand.is_over()


# --------------------------------------------------------------------------- R16


def test_r16_laying_the_last_tile_is_a_domino() -> None:
    rules = Rules(hand_sizes={3: 1})
    hand = HandState(3, 0, rules=rules, deal=[["1-2"], ["6-6"], ["5-6"]])
    assert hand.apply(Move.play(0, "2-1")) == 0
    assert hand.is_over() and hand.end == "domino" and hand.went_out == 0
    assert hand.turn is None and hand.legal_moves() == []
    err = error(hand, Move.play(1, "6-6"))
    assert (err.code, err.rule) == ("hand_over", "R16")
    assert error(hand, Move.pass_turn(1)).code == "hand_over"
    # R18, R19: both opponents' pips pooled (12 + 11 = 23) and rounded once: 25.
    assert hand.settle() == Settlement("domino", (0,), {0: 50})


@pytest.mark.parametrize("players", [2, 4])
def test_r16_a_hand_is_blocked_when_the_boneyard_is_empty_and_nobody_can_lay(
    players: int,
) -> None:
    rules = Rules(hand_sizes={2: 14, 4: 7})
    rest = [LIGHT, HEAVY] if players == 2 else [LIGHT[:4], HEAVY[:4], LIGHT[4:], HEAVY[4:]]
    hand = HandState(players, 0, rules=rules, deal=zero_line_deal(players, rest))
    play_zero_line(hand)
    assert hand.is_over() and hand.end == "blocked" and hand.is_blocked()
    assert hand.layout.open_ends() == {"W": 0, "E": 0, "N": 0, "S": 0}
    # The closing passes may be given, in turn, one round at most.
    for turn in range(players):
        hand.apply(Move.pass_turn((len(ZERO_LINE) + turn) % players))
    assert error(hand, Move.pass_turn((len(ZERO_LINE) + players) % players)).code == "hand_over"
    settlement = hand.settle()
    assert settlement.end == "blocked"
    assert settlement.hand_winner == ((0,) if players == 2 else (0, 2))
    assert settlement.bonus_x2 == {0: 2 * 80}  # 81 opponents' pips round to 80


def test_r16_closing_passes_must_come_in_turn() -> None:
    hand = HandState(2, 0, rules=Rules(hand_sizes={2: 14}), deal=zero_line_deal(2, [LIGHT, HEAVY]))
    play_zero_line(hand)
    assert error(hand, Move.pass_turn(1)).code == "not_your_turn"
    assert error(hand, Move.play(0, "1-1")).code == "hand_over"
    assert error(hand, Move.draw(0, "1-1")).code == "hand_over"


def test_r12_every_laid_tile_scores_its_count() -> None:
    hand = HandState(2, 0, rules=Rules(hand_sizes={2: 14}), deal=zero_line_deal(2, [LIGHT, HEAVY]))
    counts = []
    points = []
    for index, (tile, end) in enumerate(ZERO_LINE):
        points.append(hand.apply(Move.play(index % 2, tile, end)))
        counts.append(hand.count)
    assert counts == [0, 2, 5, 4, 5, 4, 0, 5, 6, 0]
    assert points == [0, 0, 5, 0, 5, 0, 0, 5, 0, 0]


@pytest.mark.parametrize(("award", "bonus"), [("opponents", 80), ("difference", 35)])
def test_r20_blocked_award_from_the_real_hands(award: str, bonus: int) -> None:
    rules = Rules(hand_sizes={2: 14}, blocked_award=award)  # type: ignore[arg-type]
    hand = HandState(2, 0, rules=rules, deal=zero_line_deal(2, [LIGHT, HEAVY]))
    play_zero_line(hand)
    assert hand.remaining_pips() == [45, 81]
    assert hand.settle().bonus_x2 == {0: 2 * bonus}


@pytest.mark.parametrize("players", [2, 4])
def test_r20_a_tie_for_lowest_scores_nothing_with_two_sides(players: int) -> None:
    rules = Rules(hand_sizes={2: 14, 4: 7})
    rest = [EVEN_A, EVEN_B] if players == 2 else [EVEN_A[:4], EVEN_B[:4], EVEN_A[4:], EVEN_B[4:]]
    hand = HandState(players, 0, rules=rules, deal=zero_line_deal(players, rest))
    play_zero_line(hand)
    assert hand.settle() == Settlement("blocked", (), {})


# --------------------------------------------------------------------------- left


def test_left_must_agree_with_the_deal() -> None:
    hand = HandState(2, 0, rules=Rules(hand_sizes={2: 14}), deal=zero_line_deal(2, [LIGHT, HEAVY]))
    play_zero_line(hand)
    assert hand.remaining_pips({0: 45, 1: [Tile.parse(t) for t in HEAVY]}) == [45, 81]
    with pytest.raises(AllFivesError) as caught:
        hand.remaining_pips({0: 46})
    assert (caught.value.code, caught.value.seat) == ("left_disagrees", 0)
    with pytest.raises(AllFivesError) as caught:
        hand.remaining_pips({1: [Tile.parse(t) for t in LIGHT]})
    assert caught.value.code == "left_disagrees"
    with pytest.raises(AllFivesError) as caught:
        hand.remaining_pips({5: 3})
    assert caught.value.code == "bad_format"


def test_settle_before_the_end_is_hand_incomplete() -> None:
    with pytest.raises(AllFivesError) as caught:
        hand_a().settle()
    assert (caught.value.code, caught.value.rule) == ("hand_incomplete", "R16")


# --------------------------------------------------------------------------- no deal


def test_without_a_deal_the_layout_turns_and_counts_are_still_checked() -> None:
    hand = HandState(3, 2)
    assert hand.apply(Move.play(2, "5-5")) == 10
    assert error(hand, Move.play(1, "5-1", "W")).code == "not_your_turn"
    assert error(hand, Move.play(0, "5-5", "W")).code == "tile_already_played"
    assert error(hand, Move.play(0, "1-2", "W")).code == "tile_does_not_match"
    hand.apply(Move.draw(0))  # face not seen: allowed without a deal
    assert hand.held_count(0) == 8 and hand.boneyard_count == 6
    hand.apply(Move.play(0, "5-0", "E"))  # the tile just drawn, presumably
    assert hand.turn == 1 and hand.held_count(0) == 7


def test_without_a_deal_a_drawn_tile_seen_to_fit_must_be_laid() -> None:
    hand = HandState(2, 0)
    hand.apply(Move.play(0, "3-6"))
    hand.apply(Move.draw(1, "1-1"))  # seen, does not fit
    err = error(hand, Move.play(1, "6-2", "E"))  # so this one was held: could lay it
    assert (err.code, err.rule) == ("must_play", "R13")
    hand.apply(Move.draw(1, "2-3"))  # seen, fits the west 3
    assert error(hand, Move.play(1, "6-4", "E")).code == "must_play_drawn_tile"
    assert error(hand, Move.draw(1)).code == "drew_past_playable"
    hand.apply(Move.play(1, "3-2", "W"))
    # Seat 1 now holds [1|1] (seen); seat 0 may not lay it.
    err = error(hand, Move.play(0, "1-1"))
    assert err.code == "tile_not_in_hand" and "seat 1 holds it" in err.message
    assert error(hand, Move.draw(0, "1-1")).code == "tile_not_in_boneyard"


def test_without_a_deal_a_known_tile_that_fits_forbids_drawing_and_passing() -> None:
    hand = HandState(2, 0)
    hand.apply(Move.play(0, "3-6"))
    hand.apply(Move.draw(1, "1-1"))
    hand.apply(Move.draw(1, "6-1"))
    hand.apply(Move.play(1, "6-1", "E"))  # ends 3 and 1; seat 1 still holds [1|1]
    hand.apply(Move.play(0, "3-3", "W"))
    assert error(hand, Move.draw(1)).code == "must_play"
    assert error(hand, Move.pass_turn(1)).code == "illegal_pass"
    assert Move.play(1, "1-1", "E") in hand.legal_moves()


def test_without_a_deal_the_boneyard_size_is_known() -> None:
    hand = HandState(2, 0)
    hand.apply(Move.play(0, "3-6"))
    for _ in range(10):
        hand.apply(Move.draw(1))
    err = error(hand, Move.draw(1))
    assert (err.code, err.rule) == ("boneyard_empty", "R14")
    hand.apply(Move.pass_turn(1))
    err = error(hand, Move.pass_turn(1))
    assert err.code == "not_your_turn"


def test_without_a_deal_a_block_is_every_player_passing_in_turn() -> None:
    hand = HandState(3, 0)
    for index, (tile, end) in enumerate(ZERO_LINE):
        seat = index % 3
        if index == 1:  # seat 1 draws the whole boneyard (7), faces unseen
            for _ in range(7):
                hand.apply(Move.draw(1))
        hand.apply(Move.play(seat, tile, end))
    for seat in (1, 2):
        hand.apply(Move.pass_turn(seat))
    assert not hand.is_over()
    hand.apply(Move.pass_turn(0))
    assert hand.is_over() and hand.end == "blocked"
    assert error(hand, Move.pass_turn(1)).code == "hand_over"
    assert [hand.held_count(seat) for seat in range(3)] == [3, 11, 4]


def test_without_a_deal_a_block_with_a_fitting_tile_unlaid_is_refused() -> None:
    hand = HandState(2, 0)
    hand.apply(Move.play(0, "3-6"))
    for _ in range(10):
        hand.apply(Move.draw(1))
    hand.apply(Move.pass_turn(1))
    err = error(hand, Move.pass_turn(0))  # tiles with 3 or 6 are still about
    assert err.code == "illegal_pass" and err.params["reason_code"] == "block_impossible"


def test_without_a_deal_the_domino_is_the_last_tile_held() -> None:
    hand = HandState(4, 0, rules=Rules(hand_sizes={4: 2}))
    hand.apply(Move.play(0, "2-2"))
    hand.apply(Move.play(1, "2-3", "E"))
    hand.apply(Move.play(2, "2-4", "W"))
    hand.apply(Move.play(3, "3-3", "E"))
    hand.apply(Move.play(0, "4-4", "W"))
    assert hand.is_over() and hand.went_out == 0
    with pytest.raises(AllFivesError) as caught:
        hand.settle({1: 6})
    assert (caught.value.code, caught.value.seat) == ("left_missing", 3)
    # R19: the partner's tiles never count; seats 1 and 3 hold one tile each.
    assert hand.settle({1: 6, 3: 7}).bonus_x2 == {0: 2 * 15}
    assert hand.settle({1: 6, 3: 7, 2: 11}).hand_winner == (0, 2)


def test_without_a_deal_impossible_remaining_figures_are_refused() -> None:
    hand = HandState(4, 0, rules=Rules(hand_sizes={4: 2}))
    for seat, tile, end in [(0, "2-2", None), (1, "2-3", "E"), (2, "2-4", "W"), (3, "3-3", "E")]:
        hand.apply(Move.play(seat, tile, end))
    hand.apply(Move.play(0, "4-4", "W"))
    for left in ({1: 13}, {1: -1}, {0: 1}, {1: [Tile.parse("2-2")]}, {1: []}):
        with pytest.raises(AllFivesError) as caught:
            hand.settle(left)  # type: ignore[arg-type]
        assert caught.value.code == "left_disagrees", left
    with pytest.raises(AllFivesError) as caught:
        hand.settle({1: [Tile.parse("6-6")], 3: [Tile.parse("6-6")]})
    assert caught.value.code == "left_disagrees"


def test_legal_moves_without_a_deal_offer_every_unseen_tile_that_fits() -> None:
    hand = HandState(2, 0)
    leads = hand.legal_moves()
    assert len(leads) == 28 and all(move.end is None for move in leads)
    hand.apply(Move.play(0, "6-6"))
    moves = hand.legal_moves()
    assert {str(m.tile) for m in moves if m.tile} == {f"{p}-6" for p in range(6)}
    assert Move.draw(1) in moves


# --------------------------------------------------------------------------- JSON


def test_a_hand_round_trips_through_its_scoresheet_json() -> None:
    hand = hand_a()
    hand.apply(Move.draw(1, "2-2"))
    hand.apply(Move.draw(1, "4-6"))
    hand.apply(Move.play(1, "4-6", "E"))
    obj = hand.to_json()
    assert obj["leader"] == 0 and obj["deal"] == [sorted(seat) for seat in DEAL_A]
    assert obj["moves"] == [
        {"seat": 0, "play": "3-6"},
        {"seat": 1, "draw": "2-2"},
        {"seat": 1, "draw": "4-6"},
        {"seat": 1, "play": "4-6", "end": "E"},
    ]
    again = HandState.from_json(obj, players=2)
    assert again.to_json() == obj
    assert str(again.layout) == str(hand.layout) == "3-6 6-4"
    assert again.turn == 0 and again.legal_moves() == hand.legal_moves()
    assert again.copy().to_json() == obj


def test_from_json_names_the_move_that_breaks_a_rule() -> None:
    obj = {"leader": 0, "moves": [{"seat": 0, "play": "3-6"}, {"seat": 1, "play": "1-4"}]}
    with pytest.raises(AllFivesError) as caught:
        HandState.from_json(obj, players=2)
    assert (caught.value.code, caught.value.move) == ("tile_does_not_match", 1)
    for bad in ([], {"moves": []}, {"leader": 0, "moves": {}}, {"leader": 0, "deal": 5}):
        with pytest.raises(AllFivesError):
            HandState.from_json(bad, players=2)
    with pytest.raises(AllFivesError) as caught:
        HandState.from_json({"leader": 0, "moves": [{"seat": 3, "play": "1-1"}]}, players=2)
    assert caught.value.code == "bad_format"


def test_r12_a_lead_scores_only_5_or_10() -> None:
    scores = set()
    for tile in ALL_TILES:
        hand = HandState(2, 0)
        scores.add(hand.apply(Move.play(0, tile)))
    assert scores == {0, 5, 10}
