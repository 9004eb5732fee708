"""The offline searches for starting rounds and base blocks, run on small sizes where
they succeed at once; each result is developed and checked by the load-time verifiers and
by the independent counters, and a search that cannot succeed gives None."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import random
import sys
from types import ModuleType

import pytest

from pairing.algorithms.design_search import (
    Group,
    backtrack_whist_start,
    leveled_resolution,
    random_starter,
    rotational_base,
    starter_whist_start,
    symmetric_whist_start,
)
from pairing.algorithms.designs import develop_leveled, develop_rotational, develop_whist
from tests.pairing.algorithms.counters import (
    all_pairs,
    is_partition,
    meeting_counts,
    opponent_counts,
    partner_counts,
)

ROOT = pathlib.Path(__file__).parents[3]


def assert_whist(rounds: tuple[tuple[tuple[int, ...], ...], ...], players: int) -> None:
    partners, opponents = partner_counts(rounds), opponent_counts(rounds)
    assert {partners[p] for p in all_pairs(range(players))} == {1}
    assert {opponents[p] for p in all_pairs(range(players))} == {2}


def assert_resolvable(
    rounds: tuple[tuple[tuple[int, ...], ...], ...], players: int, k: int
) -> None:
    assert len(rounds) == (players - 1) // (k - 1)
    assert all(is_partition(r, [], range(players)) for r in rounds)
    assert all(len(t) == k for r in rounds for t in r)
    assert {meeting_counts(rounds)[p] for p in all_pairs(range(players))} == {1}


# -- groups ----------------------------------------------------------------------------------


def test_a_product_group_adds_and_subtracts_coordinatewise() -> None:
    # given Z_3 x Z_3
    group = Group((3, 3))
    a, b = group.elements.index((1, 2)), group.elements.index((2, 2))
    # then its order is 9, (1, 2) + (2, 2) = (0, 1) and subtraction undoes addition
    assert group.order == 9
    assert group.elements[group.add(a, b)] == (0, 1)
    assert all(group.sub(group.add(x, y), y) == x for x in range(9) for y in range(9))


def test_a_cyclic_group_has_its_one_subgroup_of_each_dividing_order() -> None:
    assert Group((9,)).subgroup_of_order(3) == [0, 3, 6]
    assert Group((15,)).element_order(5) == 3


def test_no_subgroup_is_named_when_none_or_several_have_that_order() -> None:
    # Z_8 has no element of order 3; Z_2 x Z_4 has three subgroups of order 2
    assert Group((8,)).subgroup_of_order(3) is None
    assert Group((2, 4)).subgroup_of_order(2) is None


# -- 1-rotational designs --------------------------------------------------------------------


@pytest.mark.parametrize(("players", "moduli", "k"), [(9, (8,), 3), (27, (26,), 3), (16, (15,), 4)])
def test_rotational_base_blocks_develop_into_a_resolvable_design(
    players: int, moduli: tuple[int, ...], k: int
) -> None:
    # given base blocks found over the group of order players - 1
    base = rotational_base(Group(moduli), k, seed=1, budget_seconds=5)
    assert base is not None
    # when developed, then the load-time check accepts them and every pair meets once
    rounds = develop_rotational({"group": list(moduli), "k": k, "base": base}, players)
    assert_resolvable(rounds, players, k)


@pytest.mark.parametrize(("moduli", "k"), [((2, 4), 3), ((10,), 3), ((9,), 3)])
def test_rotational_base_is_none_when_the_group_cannot_carry_the_design(
    moduli: tuple[int, ...], k: int
) -> None:
    # Z_2 x Z_4: no single subgroup of order 2; Z_10: 10 - 2 is not a multiple of 6;
    # Z_9: no element of order 2
    assert rotational_base(Group(moduli), k, seed=1, budget_seconds=5) is None


def test_rotational_base_gives_up_when_the_budget_runs_out() -> None:
    # given KTS(15) over Z_14, which has no 1-rotational form (v = 15 is not 3 or 9 mod 24)
    # when searched with no time to spare, then the search returns None
    assert rotational_base(Group((14,)), 3, seed=1, budget_seconds=0) is None


# -- whist starting rounds -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "moduli"), [(4, (3,)), (5, (5,)), (9, (3, 3)), (13, (13,)), (17, (17,))]
)
def test_symmetric_whist_start_develops_into_a_whist_tournament(
    players: int, moduli: tuple[int, ...]
) -> None:
    # given a symmetric starting round over the group
    group = Group(moduli)
    fixed = players % 4 == 0
    start = symmetric_whist_start(group, with_fixed_point=fixed, seed=1, budget_seconds=5)
    assert start is not None
    # then every table off the fixed point is (x, y, -x, -y)
    for a, b, c, d in start:
        if group.order not in (a, b, c, d):
            assert (c, d) == (group.sub(0, a), group.sub(0, b))
    # and developed it partners every pair once and opposes them twice
    entry = {"group": list(moduli), "fixed_point": fixed, "start": start}
    assert_whist(develop_whist(entry, players), players)


def test_symmetric_whist_start_needs_a_group_of_odd_order() -> None:
    assert (
        symmetric_whist_start(Group((8,)), with_fixed_point=False, seed=1, budget_seconds=1) is None
    )


def test_symmetric_whist_start_gives_up_when_the_budget_runs_out() -> None:
    # given Wh(8) over Z_7 with a fixed point, which has no symmetric starting round
    # when searched briefly, then the search returns None
    start = symmetric_whist_start(Group((7,)), with_fixed_point=True, seed=1, budget_seconds=0.02)
    assert start is None


@pytest.mark.parametrize(("players", "modulus"), [(8, 7), (12, 11), (13, 13), (16, 15), (17, 17)])
def test_backtracked_whist_start_develops_into_a_whist_tournament(
    players: int, modulus: int
) -> None:
    # given a starting round found with no symmetry assumed
    fixed = players % 4 == 0
    start = backtrack_whist_start(
        Group((modulus,)), with_fixed_point=fixed, seed=1, budget_seconds=5
    )
    assert start is not None
    # then it seats every point of the round once
    seated = sorted(p for t in start for p in t)
    assert seated == (list(range(players)) if fixed else list(range(1, players)))
    # and developed it is a whist tournament
    entry = {"group": [modulus], "fixed_point": fixed, "start": start}
    assert_whist(develop_whist(entry, players), players)


def test_backtracking_is_none_when_the_group_has_no_cyclic_whist() -> None:
    # Wh(9) has no starting round over Z_9 (the kept one is over Z_3 x Z_3): the search
    # runs out of candidates rather than time
    start = backtrack_whist_start(Group((9,)), with_fixed_point=False, seed=1, budget_seconds=5)
    assert start is None


def test_backtracking_with_no_time_finds_nothing() -> None:
    start = backtrack_whist_start(Group((15,)), with_fixed_point=True, seed=1, budget_seconds=0)
    assert start is None


def test_the_same_seed_finds_the_same_starting_round() -> None:
    first = backtrack_whist_start(Group((11,)), with_fixed_point=True, seed=7, budget_seconds=5)
    again = backtrack_whist_start(Group((11,)), with_fixed_point=True, seed=7, budget_seconds=5)
    assert first is not None and first == again


@pytest.mark.parametrize("moduli", [(7,), (15,), (3, 3), (35,)])
def test_a_random_starter_pairs_the_non_zero_elements_with_every_difference_once(
    moduli: tuple[int, ...],
) -> None:
    group = Group(moduli)
    pairs = random_starter(group, random.Random(3))
    # every non-zero element is in exactly one pair
    assert sorted(x for p in pairs for x in p) == list(range(1, group.order))
    # and the differences a - b, b - a are every non-zero element once
    differences = sorted(d for a, b in pairs for d in (group.sub(a, b), group.sub(b, a)))
    assert differences == list(range(1, group.order))


@pytest.mark.parametrize(
    ("players", "modulus"),
    [(8, 7), (13, 13), (24, 23), pytest.param(33, 33, marks=pytest.mark.slow)],
)
def test_the_starter_search_develops_into_a_whist_tournament(players: int, modulus: int) -> None:
    # given a starting round paired up from a random starter (33 has no symmetric one)
    fixed = players % 4 == 0
    # bounded by starters tried, not by the clock, so a slow machine gives the same answer
    start = starter_whist_start(
        Group((modulus,)), with_fixed_point=fixed, seed=1, budget_seconds=3600, attempts=2000
    )
    assert start is not None
    # then it seats every point once, 0 with the fixed point or sitting out
    seated = sorted(p for t in start for p in t)
    assert seated == (list(range(players)) if fixed else list(range(1, players)))
    # and developed it is a whist tournament
    entry = {"group": [modulus], "fixed_point": fixed, "start": start}
    assert_whist(develop_whist(entry, players), players)


def test_the_starter_search_is_seeded_and_bounded() -> None:
    first = starter_whist_start(
        Group((23,)), with_fixed_point=True, seed=4, budget_seconds=3600, attempts=2000
    )
    again = starter_whist_start(
        Group((23,)), with_fixed_point=True, seed=4, budget_seconds=3600, attempts=2000
    )
    assert first is not None and first == again
    # a work bound too small for this seed gives up, as the time budget does
    assert (
        starter_whist_start(
            Group((23,)), with_fixed_point=True, seed=4, budget_seconds=3600, attempts=1
        )
        is None
    )
    assert (
        starter_whist_start(Group((23,)), with_fixed_point=True, seed=4, budget_seconds=0) is None
    )
    assert (
        starter_whist_start(Group((8,)), with_fixed_point=False, seed=1, budget_seconds=1) is None
    )


# -- designs on levels -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "levels", "k", "fixed_point", "fixed_classes"),
    [
        (3, 3, 3, False, 1),  # KTS(9) on Z_3 x 3: three shifted rounds and one orbit round
        (7, 3, 3, False, 3),  # KTS(21) on Z_7 x 3
        (7, 2, 3, True, 0),  # KTS(15) on Z_7 x 2 plus a fixed point
        (5, 3, 4, True, 0),  # resolvable (16, 4, 1) on Z_5 x 3 plus a fixed point
    ],
)
def test_leveled_base_round_develops_into_a_resolvable_design(
    q: int, levels: int, k: int, fixed_point: bool, fixed_classes: int
) -> None:
    # given a base round (and orbit rounds) found on the levels
    found = leveled_resolution(
        q,
        levels,
        k,
        with_fixed_point=fixed_point,
        fixed_classes=fixed_classes,
        seed=1,
        budget_seconds=5,
    )
    assert found is not None
    base, orbits = found
    assert len(orbits) == fixed_classes
    players = q * levels + fixed_point
    # when developed, then the load-time check accepts it and every pair meets once
    entry = {
        "q": q,
        "levels": levels,
        "k": k,
        "fixed_point": fixed_point,
        "base": base,
        "fixed_classes": orbits,
    }
    assert_resolvable(develop_leveled(entry, players), players, k)


def test_with_a_fixed_point_the_base_round_seats_it_with_each_level_at_zero() -> None:
    found = leveled_resolution(
        7, 2, 3, with_fixed_point=True, fixed_classes=0, seed=3, budget_seconds=5
    )
    assert found is not None
    assert found[0][0] == (14, 0, 7)


@pytest.mark.parametrize(
    ("q", "levels", "k", "fixed_point", "fixed_classes", "message"),
    [
        (5, 2, 3, False, 1, "orbits of a triple"),  # orbit rounds need three levels of triples
        (5, 3, 4, False, 1, "orbits of a triple"),
        (5, 2, 3, False, 0, "blocks of k"),  # 10 points do not split into triples
        (4, 3, 3, True, 0, "blocks of k"),  # the fixed point needs k - 1 levels
    ],
)
def test_leveled_resolution_refuses_shapes_that_cannot_be_resolved(
    q: int, levels: int, k: int, fixed_point: bool, fixed_classes: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        leveled_resolution(
            q,
            levels,
            k,
            with_fixed_point=fixed_point,
            fixed_classes=fixed_classes,
            seed=1,
            budget_seconds=1,
        )


def test_leveled_resolution_gives_up_when_the_budget_runs_out() -> None:
    found = leveled_resolution(
        13, 3, 4, with_fixed_point=True, fixed_classes=0, seed=1, budget_seconds=0
    )
    assert found is None


# -- the offline script ----------------------------------------------------------------------


@pytest.fixture
def precompute(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """scripts/precompute_designs.py loaded as a module, writing into ``tmp_path``."""
    spec = importlib.util.spec_from_file_location(
        "precompute_designs", ROOT / "scripts/precompute_designs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script prepends the root
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "DATA", tmp_path)
    return module


def test_group_choices_try_the_cyclic_group_then_products(precompute: ModuleType) -> None:
    assert precompute.group_choices(9) == [(9,), (3, 3)]
    assert precompute.group_choices(45) == [(45,), (3, 15)]
    assert precompute.group_choices(13) == [(13,)]


def test_the_script_keeps_a_checked_whist_start_per_size_and_skips_kept_ones(
    precompute: ModuleType, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # given a kept file that already holds a (bogus) entry for 5
    (tmp_path / "whist.json").write_text(json.dumps({"5": {"kept": True}}))
    # when the script searches 5, 9 and 12
    precompute.whist([5, 9, 12], 0.1, "whist.json")
    # then 5 is left as it was and 9 and 12 are written in order and develop into whists
    data = json.loads((tmp_path / "whist.json").read_text())
    assert list(data) == ["5", "9", "12"]
    assert data["5"] == {"kept": True}
    for v in (9, 12):
        assert_whist(develop_whist(data[str(v)], v), v)
        # each saying which search found it, with which seed
        assert "search, seed 1" in data[str(v)]["found_by"]
    # and the search is reported
    assert "found" in capsys.readouterr().out


def test_the_script_keeps_a_whist_start_found_elsewhere_once_checked(
    precompute: ModuleType, tmp_path: pathlib.Path
) -> None:
    # given a starting round for Wh(24) found by another search, saved as JSON
    start = starter_whist_start(Group((23,)), with_fixed_point=True, seed=1, budget_seconds=30)
    assert start is not None
    found = {"group": [23], "fixed_point": True, "start": start, "found_by": "elsewhere"}
    (tmp_path / "found.json").write_text(json.dumps(found))
    # when the script keeps it, then it is written under its size as it was
    precompute.keep_whist([str(tmp_path / "found.json")], "whist.json")
    kept = json.loads((tmp_path / "whist.json").read_text())
    assert kept["24"]["found_by"] == "elsewhere"
    assert_whist(develop_whist(kept["24"], 24), 24)
    # and a starting round with two players swapped is refused, the file left alone
    bad = [list(t) for t in start]
    bad[0][1], bad[1][1] = bad[1][1], bad[0][1]
    (tmp_path / "bad.json").write_text(json.dumps({**found, "start": bad}))
    with pytest.raises(AssertionError, match="whist conditions"):
        precompute.keep_whist([str(tmp_path / "bad.json")], "whist.json")
    assert json.loads((tmp_path / "whist.json").read_text()) == kept


def test_the_script_keeps_checked_rotational_base_blocks(
    precompute: ModuleType, tmp_path: pathlib.Path
) -> None:
    # when the script searches KTS(9) and the (16, 4, 1) design
    precompute.rotational([9, 16], 0.5)
    # then both are kept and develop into resolvable designs
    data = json.loads((tmp_path / "rotational.json").read_text())
    assert_resolvable(develop_rotational(data["9"], 9), 9, 3)
    assert_resolvable(develop_rotational(data["16"], 16), 16, 4)
