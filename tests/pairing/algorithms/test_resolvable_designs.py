"""Every resolvable design in its range, and the social-golfer schedules, checked by the
independent counters: each round seats the whole field once, at tables of the one size,
and every pair shares a table exactly once in a design (at most once in a golf schedule).
Also the two constructions that fill the gaps (Kirkman systems on two levels, resolvable
designs with tables of four on three levels) on sizes beyond those they are used for."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pairing.algorithms.design_search import Group
from pairing.algorithms.designs import (
    golf_schedule,
    kirkman_resolution,
    kirkman_two_levels,
    resolvable_four,
    resolvable_four_three_levels,
    symmetric_starter,
)
from tests.pairing.algorithms.counters import all_pairs, is_partition, meeting_counts

Rounds = tuple[tuple[tuple[int, ...], ...], ...]


def assert_design(rounds: Rounds, players: int, table: int) -> None:
    """Resolvable: (v - 1)/(k - 1) rounds, each a partition into tables of k, every pair
    of players at one table exactly once."""
    assert len(rounds) == (players - 1) // (table - 1)
    assert all(is_partition(r, [], range(players)) for r in rounds)
    assert {len(t) for r in rounds for t in r} == {table}
    counts = meeting_counts(rounds)
    assert set(counts) == set(all_pairs(range(players)))
    assert set(counts.values()) == {1}


@pytest.mark.parametrize("players", range(3, 64, 6))
def test_a_kirkman_triple_system_is_built_for_every_3_mod_6_up_to_63(players: int) -> None:
    built = kirkman_resolution(players)
    assert built is not None, f"no Kirkman triple system for {players}"
    assert_design(built[0], players, 3)


@pytest.mark.parametrize("players", range(4, 65, 12))
def test_a_resolvable_design_at_tables_of_four_is_built_for_every_4_mod_12_up_to_64(
    players: int,
) -> None:
    built = resolvable_four(players)
    assert built is not None, f"no resolvable ({players}, 4, 1) design"
    assert_design(built[0], players, 4)


@pytest.mark.parametrize(("players", "rounds"), [(32, 10), (36, 11)])
def test_the_social_golfer_schedule_reaches_the_most_rounds_possible(
    players: int, rounds: int
) -> None:
    # A player meets three new players a round, so 32 players have at most 31 // 3 = 10
    # rounds and 36 at most 35 // 3 = 11; the kept schedules reach both.
    built = golf_schedule(players)
    assert built is not None
    design, name = built
    assert len(design) == rounds == (players - 1) // 3
    assert name == f"social-golfer schedule ({rounds} rounds)"
    assert all(is_partition(r, [], range(players)) and len(r) == players // 4 for r in design)
    assert {len(t) for r in design for t in r} == {4}
    counts = meeting_counts(design)
    assert max(counts.values()) == 1
    assert len(counts) == 3 * rounds * players // 2


def test_the_kept_golf_schedules_name_their_source() -> None:
    from pairing.algorithms.designs import DATA

    kept: dict[str, Any] = json.loads((DATA / "golf.json").read_text())
    assert set(kept) >= {"32", "36"}
    assert all("Miller" in entry["source"] for entry in kept.values())


def test_a_kept_golf_schedule_with_a_player_moved_into_a_met_table_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given the 36-player schedule with two players of round 2 swapped so that one of
    # them sits again with someone from round 1
    from pairing.algorithms import designs

    entry = designs._data("golf.json")["36"]
    rounds = [[list(t) for t in r] for r in entry["rounds"]]
    first, second = rounds[0][0], rounds[1]
    mover = first[0]
    table_of = next(t for t in second if mover in t)
    other = next(t for t in second if first[1] in t and t is not table_of)
    i, j = table_of.index(mover), next(k for k, p in enumerate(other) if p != first[1])
    table_of[i], other[j] = other[j], table_of[i]
    real = designs._data
    monkeypatch.setattr(
        designs,
        "_data",
        lambda name: {"36": {**entry, "rounds": rounds}} if name == "golf.json" else real(name),
    )
    designs.golf_schedule.cache_clear()
    try:
        with pytest.raises(AssertionError, match="meets twice"):
            designs.golf_schedule(36)
    finally:
        designs.golf_schedule.cache_clear()


@pytest.mark.parametrize("q", [7, 19, 31, 43])
def test_the_two_level_kirkman_construction_works_for_primes_7_mod_12(q: int) -> None:
    assert_design(kirkman_two_levels(q), 2 * q + 1, 3)


@pytest.mark.parametrize("q", [13, 25, 9])
def test_the_two_level_kirkman_construction_refuses_other_q(q: int) -> None:
    with pytest.raises(ValueError, match="prime q = 7 mod 12"):
        kirkman_two_levels(q)


def test_kirkman_39_is_the_two_level_construction() -> None:
    built = kirkman_resolution(39)
    assert built is not None
    assert built[1] == "cyclotomic KTS(39) on two levels over Z_19"


@pytest.mark.parametrize("moduli", [(5,), (3, 3), (13,), (17,), (25,), (5, 5)])
def test_a_symmetric_starter_on_three_levels_gives_a_resolvable_design(
    moduli: tuple[int, ...],
) -> None:
    order = Group(moduli).order
    rounds = resolvable_four_three_levels(moduli)
    assert rounds is not None
    assert_design(rounds, 3 * order + 1, 4)


def test_a_symmetric_starter_takes_every_class_once_as_points_and_as_differences() -> None:
    group = Group((13,))
    starter = symmetric_starter(group)
    assert starter is not None

    def cls(x: int) -> int:
        return min(x % 13, -x % 13)

    points = sorted(cls(v) for x, y in starter for v in (x, y))
    differences = sorted(cls(v) for x, y in starter for v in (y - x, y + x))
    assert points == differences == list(range(1, 7))


@pytest.mark.parametrize("moduli", [(9,), (21,), (8,)])
def test_groups_without_a_symmetric_starter_give_none(moduli: tuple[int, ...]) -> None:
    # Z_9 and Z_21 have none (so 28 is built over Z_3 x Z_3, 64 as AG(3, 4)); an even
    # order has an element equal to its own negative
    assert symmetric_starter(Group(moduli)) is None
    assert resolvable_four_three_levels(moduli) is None


def test_the_designs_filled_in_by_the_three_level_starter_are_named() -> None:
    built_28, built_40 = resolvable_four(28), resolvable_four(40)
    assert built_28 is not None and built_40 is not None
    assert built_28[1] == "resolvable (28, 4, 1) design: symmetric starter over Z_3 x Z_3"
    assert built_40[1] == "resolvable (40, 4, 1) design: symmetric starter over Z_13"


@pytest.mark.parametrize(("players", "table"), [(3, 3), (4, 4)])
def test_a_field_of_one_table_is_its_own_design(players: int, table: int) -> None:
    built = kirkman_resolution(players) if table == 3 else resolvable_four(players)
    assert built is not None
    assert built[0] == ((tuple(range(players)),),)
    assert_design(built[0], players, table)
