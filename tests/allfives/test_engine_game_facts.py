"""The game facts the apps read from the engine: seat to side and a table's sides (R2),
a side's win, tie or loss from the placings (R20, R22), and who went out (R16)."""

from __future__ import annotations

import pytest

from allfives import AllFivesError, outcome, side_of, side_seats, sides_of, went_out

# R2, written out by hand: partners sit opposite at four players, else each for themselves.
SEAT_SIDES = [
    (2, 0, 0),
    (2, 1, 1),
    (3, 0, 0),
    (3, 1, 1),
    (3, 2, 2),
    (4, 0, 0),
    (4, 1, 1),
    (4, 2, 0),
    (4, 3, 1),
]


@pytest.mark.parametrize(("players", "seat", "side"), SEAT_SIDES)
def test_r2_each_seat_plays_for_its_side(players: int, seat: int, side: int) -> None:
    assert side_of(seat, players) == side
    assert seat in side_seats(side, players)


@pytest.mark.parametrize(
    ("players", "sides", "seats"),
    [
        (2, (0, 1), ((0,), (1,))),
        (3, (0, 1, 2), ((0,), (1,), (2,))),
        (4, (0, 1), ((0, 2), (1, 3))),
    ],
)
def test_r2_a_table_has_its_sides_each_named_by_its_lowest_seat(
    players: int, sides: tuple[int, ...], seats: tuple[tuple[int, ...], ...]
) -> None:
    assert sides_of(players) == sides
    assert tuple(side_seats(side, players) for side in sides) == seats
    assert all(side == min(side_seats(side, players)) for side in sides)
    # Every seat plays for exactly one side.
    assert sorted(s for side in sides for s in side_seats(side, players)) == list(range(players))


@pytest.mark.parametrize(
    ("placings", "results"),
    [
        # Two sides (two players, or two partnerships at four).
        ((1, 2), ("win", "loss")),
        ((2, 1), ("loss", "win")),
        ((1, 1), ("tie", "tie")),  # R22: a tied match
        # Three players, every way to place them.
        ((1, 2, 3), ("win", "loss", "loss")),
        ((3, 1, 2), ("loss", "win", "loss")),
        ((1, 2, 2), ("win", "loss", "loss")),
        ((2, 1, 1), ("loss", "tie", "tie")),  # R20/R22: a split carrying both to the target
        ((1, 1, 3), ("tie", "tie", "loss")),
        ((1, 1, 1), ("tie", "tie", "tie")),
    ],
)
def test_r22_a_side_wins_alone_at_the_best_placing_ties_sharing_it_else_loses(
    placings: tuple[int, ...], results: tuple[str, ...]
) -> None:
    assert tuple(outcome(p, placings) for p in placings) == results
    assert tuple(outcome(p, list(placings)) for p in placings) == results  # any iterable


@pytest.mark.parametrize(
    ("own", "other", "result"), [(1, 2, "win"), (2, 1, "loss"), (2, 2, "tie"), (1, 3, "win")]
)
def test_r22_against_one_other_side_the_better_placing_wins(
    own: int, other: int, result: str
) -> None:
    assert outcome(own, (own, other)) == result


def test_r22_a_placing_not_at_the_table_is_refused() -> None:
    with pytest.raises(AllFivesError) as caught:
        outcome(1, (2, 3))
    assert caught.value.code == "bad_format"
    assert isinstance(caught.value, ValueError)


TILES_HAND = {
    "leader": 0,
    "moves": [
        {"seat": 0, "play": "5-5"},
        {"seat": 1, "draw": "1-2"},
        {"seat": 1, "play": "5-0", "end": "W"},
        {"seat": 0, "pass": True},
    ],
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r16_a_tally_hand_names_the_seat_that_went_out(players: int) -> None:
    for seat in range(players):
        hand = {"leader": 0, "scores": [], "end": {"domino": seat}}
        assert went_out(hand, "domino") == seat


def test_r16_in_a_tile_by_tile_hand_the_last_to_lay_a_tile_went_out() -> None:
    assert went_out(TILES_HAND, "domino") == 1
    assert went_out({"leader": 0, "moves": [{"seat": 0, "pass": True}]}, "domino") is None


@pytest.mark.parametrize("end", ["blocked", "target"])
def test_r16_nobody_goes_out_of_a_blocked_hand_or_one_the_target_cut_short(end: str) -> None:
    assert went_out(TILES_HAND, end) is None
    assert went_out({"leader": 0, "scores": [], "end": {"domino": 1}}, end) is None


def test_r16_a_tally_hand_naming_nobody_has_nobody_going_out() -> None:
    assert went_out({"leader": 0, "scores": [], "end": {"blocked": True}}, "domino") is None
    assert went_out({"leader": 0, "scores": [], "end": {"domino": "2"}}, "domino") is None
