"""Single-elimination brackets, for every field from 2 to 64 at tables of two and from 2 to
81 at tables of three: every seed placed once, byes to the top seeds only, favourites
meeting as late as possible, the plate and third-place fields, and the tie rule."""

from __future__ import annotations

import doctest
import random

import pytest

from pairing.algorithms import knockout
from pairing.algorithms.knockout import (
    KnockoutError,
    TieRule,
    advancer,
    bracket_size,
    fed_table,
    feeders,
    first_round,
    plate_field,
    rounds_count,
    seeding_order,
    tables_in_round,
    third_place_field,
)

FIELDS = [(field, 2) for field in range(2, 65)] + [(field, 3) for field in range(2, 82)]


def play_out(field: int, per_table: int, better: bool = True) -> list[list[tuple[int, ...]]]:
    """Every round's tables when the better (or, with ``better=False``, the worse) seed
    present always wins."""
    rounds = [first_round(field=field, per_table=per_table)]
    while len(rounds[-1]) > 1:
        pick = min if better else max
        winners = [pick(table) for table in rounds[-1]]
        rounds.append(
            [
                tuple(sorted(winners[i] for i in feeders(position=p, per_table=per_table)))
                for p in range(len(winners) // per_table)
            ]
        )
    return rounds


def test_doctests() -> None:
    assert doctest.testmod(knockout).failed == 0


@pytest.mark.parametrize(("field", "per_table"), FIELDS)
def test_first_round_places_every_seed_once_and_gives_byes_to_the_top_seeds(
    field: int, per_table: int
) -> None:
    tables = first_round(field=field, per_table=per_table)
    size = bracket_size(field=field, per_table=per_table)
    assert size // per_table < field <= size
    assert len(tables) == size // per_table
    seeds = sorted(s for table in tables for s in table)
    assert seeds == list(range(1, field + 1))
    byes = sorted(table[0] for table in tables if len(table) == 1)
    # Byes go to the top seeds; at two per table, as many as the bracket has empty
    # places; at three, a table short of one plays with two.
    assert all(len(table) >= 1 for table in tables)
    assert byes == list(range(1, len(byes) + 1))
    if per_table == 2:
        assert len(byes) == size - field
    else:
        assert len(byes) == max(0, 2 * (size // 3) - field)


@pytest.mark.parametrize(("field", "per_table"), FIELDS)
def test_with_the_better_seed_winning_each_round_is_won_by_the_top_seeds(
    field: int, per_table: int
) -> None:
    rounds = play_out(field, per_table)
    assert len(rounds) == rounds_count(field=field, per_table=per_table)
    for number, tables in enumerate(rounds, start=1):
        assert len(tables) == tables_in_round(field=field, round_number=number, per_table=per_table)
        expected = min(
            field, bracket_size(field=field, per_table=per_table) // per_table ** (number - 1)
        )
        present = sorted(s for table in tables for s in table)
        assert present == list(range(1, expected + 1))
    assert rounds[-1] == [tuple(range(1, min(field, per_table) + 1))]


@pytest.mark.parametrize(("field", "per_table"), FIELDS)
def test_any_winners_reach_a_final_of_one_table_and_everyone_else_is_out_once(
    field: int, per_table: int
) -> None:
    rng = random.Random(field * 10 + per_table)
    tables = first_round(field=field, per_table=per_table)
    out: list[int] = []
    while True:
        winners = [rng.choice(table) for table in tables]
        out += [s for table, w in zip(tables, winners, strict=True) for s in table if s != w]
        if len(tables) == 1:
            break
        nxt: list[list[int]] = [[] for _ in range(len(tables) // per_table)]
        for position, winner in enumerate(winners):
            to, place = fed_table(position=position, per_table=per_table)
            assert position in feeders(position=to, per_table=per_table)
            assert 0 <= place < per_table
            nxt[to].append(winner)
        tables = [tuple(t) for t in nxt]
    assert sorted(out + winners) == list(range(1, field + 1))


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_seeds_one_and_two_are_in_opposite_halves_and_each_quarter_holds_one_of_the_top_four(
    size: int,
) -> None:
    order = seeding_order(size=size)
    half = size // 2
    assert (order.index(1) < half) != (order.index(2) < half)
    if size >= 4:
        quarters = {order.index(s) // (size // 4) for s in (1, 2, 3, 4)}
        assert quarters == {0, 1, 2, 3}
    # Each first-round table's seeds add up to size + 1 (1 v 16, 8 v 9, ...).
    assert {order[i] + order[i + 1] for i in range(0, size, 2)} == {size + 1}


def test_sixteen_opens_one_v_sixteen_eight_v_nine() -> None:
    assert first_round(field=16)[:2] == [(1, 16), (8, 9)]


def test_too_small_a_field_or_an_unknown_table_size_is_refused() -> None:
    with pytest.raises(KnockoutError) as small:
        bracket_size(field=1)
    assert small.value.code == "too_few"
    with pytest.raises(KnockoutError) as four:
        first_round(field=8, per_table=4)
    assert four.value.code == "per_table"
    with pytest.raises(KnockoutError):
        seeding_order(size=6)


def test_advancer_takes_the_lone_winner_and_applies_the_tie_rule() -> None:
    seeds = {10: 3, 11: 1, 12: 2}
    assert advancer(placings={10: 1, 11: 2, 12: 3}, seeds=seeds, tie_rule=TieRule.EXTRA_HAND) == (
        knockout.Advance(winner=10, decided_by="played")
    )
    tied = {10: 1, 11: 2, 12: 1}
    assert advancer(placings=tied, seeds=seeds, tie_rule=TieRule.HIGHER_SEED).winner == 12
    waiting = advancer(placings=tied, seeds=seeds, tie_rule=TieRule.EXTRA_HAND)
    assert waiting.winner is None and waiting.decided_by == "pending"


def test_plate_takes_the_losers_of_played_tables_only_in_seed_order() -> None:
    tables = first_round(field=6)  # (1,), (4, 5), (2,), (3, 6)
    seeds = {s: s for s in range(1, 7)}
    assert plate_field(tables=tables, winners=[1, 5, 2, 3], seeds=seeds) == [4, 6]
    three = first_round(field=9, per_table=3)
    assert plate_field(tables=three, winners=[6, 2, 9], seeds={s: s for s in range(1, 10)}) == [
        1,
        3,
        4,
        5,
        7,
        8,
    ]


def test_third_place_takes_the_semi_finals_losers() -> None:
    assert third_place_field(semi_finals=[(1, 4), (2, 3)], winners=[4, 2]) == [1, 3]


def test_the_worse_seed_winning_everything_still_ends_in_one_final() -> None:
    rounds = play_out(24, 2, better=False)
    assert len(rounds[-1]) == 1
    assert len(rounds) == 5
