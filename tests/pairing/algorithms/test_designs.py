"""The exact designs, checked by the independent counters — and the counters checked
against published schedules, including one that looks right but is not a whist."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from pairing.algorithms.designs import (
    affine_resolution,
    develop_leveled,
    develop_rotational,
    develop_whist,
    golf_schedule,
    has_affine_resolution,
    has_whist_tournament,
    is_whist_size,
    kirkman_15,
    kirkman_resolution,
    resolvable_four,
    rotational_resolution,
    rotational_sizes,
    tripled,
    whist_tournament,
)
from tests.pairing.algorithms.counters import (
    all_pairs,
    is_partition,
    meeting_counts,
    opponent_counts,
    partner_counts,
    whist_tables,
)

DESIGNS = pathlib.Path(__file__).parent / "designs"


def load(name: str) -> Any:
    return json.loads((DESIGNS / name).read_text())


def is_whist(rounds: list[list[list[int]]], players: int) -> bool:
    """Every pair partners exactly once and opposes exactly twice."""
    partners, opponents = partner_counts(rounds), opponent_counts(rounds)
    return all(partners[p] == 1 and opponents[p] == 2 for p in all_pairs(range(players)))


@pytest.mark.parametrize(
    ("q", "dim", "rounds"), [(2, 3, 7), (3, 2, 4), (3, 3, 13), (4, 2, 5), (4, 3, 21)]
)
def test_affine_geometry_meets_every_pair_exactly_once(q: int, dim: int, rounds: int) -> None:
    design = affine_resolution(q, dim)
    players = q**dim
    assert len(design) == rounds
    assert all(is_partition(r, [], range(players)) for r in design)
    assert all(len(t) == q for r in design for t in r)
    counts = meeting_counts(design)
    assert {counts[p] for p in all_pairs(range(players))} == {1}


def test_affine_sizes_are_recognised() -> None:
    assert [n for n in range(2, 100) if has_affine_resolution(n, 3)] == [9, 27, 81]
    assert [n for n in range(2, 300) if has_affine_resolution(n, 4)] == [16, 64, 256]


def test_kirkman_schoolgirls_meet_every_pair_once_in_seven_rounds() -> None:
    design = kirkman_15()
    assert len(design) == 7
    assert all(is_partition(r, [], range(15)) and len(r) == 5 for r in design)
    counts = meeting_counts(design)
    assert {counts[p] for p in all_pairs(range(15))} == {1}


WHIST_RANGE = [v for v in range(4, 65) if is_whist_size(v)]
KIRKMAN_RANGE = [v for v in range(9, 64, 6) if kirkman_resolution(v) is not None]
RESOLVABLE_FOUR_RANGE = [v for v in range(16, 65, 12) if resolvable_four(v) is not None]


def test_the_kept_designs_cover_at_least_the_sizes_searched_so_far() -> None:
    # Each size below is built from kept data or a construction; losing one fails here.
    assert all(has_whist_tournament(v) for v in WHIST_RANGE)
    assert set(KIRKMAN_RANGE) >= {9, 15, 21, 27, 33, 45, 51, 57, 63}
    assert set(RESOLVABLE_FOUR_RANGE) >= {16, 52, 64}


@pytest.mark.parametrize("players", WHIST_RANGE)
def test_whist_tournament_partners_once_and_opposes_twice(players: int) -> None:
    design = whist_tournament(players)
    rounds = [[list(t) for t in r] for r in design]
    assert len(rounds) == (players - 1 if players % 4 == 0 else players)
    for r in rounds:
        seated = [p for t in r for p in t]
        assert len(seated) == len(set(seated)) == 4 * (players // 4)
    assert is_whist(rounds, players)
    if players % 4 == 1:  # everyone sits out exactly once
        out = [next(iter(set(range(players)) - {p for t in r for p in t})) for r in rounds]
        assert sorted(out) == list(range(players))


def test_a_tampered_whist_starting_round_is_refused_on_load() -> None:
    # given the kept starting round of Wh(24) with two players swapped between tables
    entry = json.loads((DESIGNS.parents[3] / "pairing/algorithms/data/whist.json").read_text())
    start = [list(t) for t in entry["24"]["start"]]
    start[0][0], start[1][1] = start[1][1], start[0][0]
    # when it is developed, then the check refuses it
    with pytest.raises(AssertionError, match="whist conditions"):
        develop_whist({**entry["24"], "start": start}, 24)


@pytest.mark.parametrize("players", KIRKMAN_RANGE)
def test_kirkman_triple_system_meets_every_pair_once(players: int) -> None:
    built = kirkman_resolution(players)
    assert built is not None, f"no Kirkman triple system for {players}"
    design, _name = built
    assert len(design) == (players - 1) // 2
    assert all(is_partition(r, [], range(players)) for r in design)
    assert all(len(t) == 3 for r in design for t in r)
    counts = meeting_counts(design)
    assert {counts[p] for p in all_pairs(range(players))} == {1}


@pytest.mark.parametrize("players", RESOLVABLE_FOUR_RANGE)
def test_resolvable_design_with_tables_of_four_meets_every_pair_once(players: int) -> None:
    built = resolvable_four(players)
    assert built is not None, f"no resolvable ({players}, 4, 1) design"
    design, _name = built
    assert len(design) == (players - 1) // 3
    assert all(is_partition(r, [], range(players)) for r in design)
    assert all(len(t) == 4 for r in design for t in r)
    counts = meeting_counts(design)
    assert {counts[p] for p in all_pairs(range(players))} == {1}


def test_tripling_a_kirkman_system_gives_one_three_times_the_size() -> None:
    # given KTS(9), when tripled
    design = tripled(affine_resolution(3, 2), 9)
    # then it is a KTS(27): 13 rounds, every pair once
    assert len(design) == 13
    assert all(is_partition(r, [], range(27)) for r in design)
    assert {meeting_counts(design)[p] for p in all_pairs(range(27))} == {1}


def test_tampered_base_blocks_are_refused_on_load() -> None:
    # given the base blocks of the 1-rotational KTS(33) with two points swapped
    entry = json.loads(
        (DESIGNS.parents[3] / "pairing/algorithms/data/rotational.json").read_text()
    )["33"]
    base = [list(b) for b in entry["base"]]
    base[0][0], base[1][0] = base[1][0], base[0][0]
    # when developed, then the check refuses it
    with pytest.raises(AssertionError):
        develop_rotational({**entry, "base": base}, 33)


def test_social_golfer_schedule_for_32_never_repeats_a_meeting() -> None:
    built = golf_schedule(32)
    assert built is not None
    design, _name = built
    assert len(design) == 10
    assert all(is_partition(r, [], range(32)) and len(r) == 8 for r in design)
    assert max(meeting_counts(design).values()) == 1


def test_whist_sizes() -> None:
    assert [n for n in range(1, 22) if is_whist_size(n)] == [4, 5, 8, 9, 12, 13, 16, 17, 20, 21]
    with pytest.raises(ValueError, match="4n or 4n"):
        whist_tournament(10)


@pytest.mark.parametrize(
    "name",
    [
        "whist_8_acbl_individual.json",
        "whist_12_bridge_individual.json",
        "whist_16_bridge_16BH15.json",
        "whist_16_bridge_16SH515.json",
    ],
)
def test_published_whist_schedules_pass_the_counter(name: str) -> None:
    data = load(name)
    rounds = whist_tables(data["rounds"])
    assert is_whist(rounds, data["players"])


def test_negative_example_partners_once_but_fails_the_opponent_count() -> None:
    data = load("negative_16_partner_once_unbalanced_opponents.json")
    rounds = whist_tables(data["rounds"])
    partners, opponents = partner_counts(rounds), opponent_counts(rounds)
    pairs = all_pairs(range(16))
    assert {partners[p] for p in pairs} == {1}
    assert sorted({opponents[p] for p in pairs}) == [1, 2, 3]
    assert not is_whist(rounds, 16)


@pytest.mark.parametrize(
    ("name", "players"), [("golf_32x4_7rounds_aim.json", 32), ("golf_64x4_7rounds_aim.json", 64)]
)
def test_published_golf_seatings_never_repeat_a_meeting(name: str, players: int) -> None:
    rounds = load(name)["rounds"]
    assert all(is_partition(r, [], range(players)) for r in rounds)
    assert max(meeting_counts(rounds).values()) == 1


# -- load-time refusals and the less common constructions ------------------------------------


@pytest.fixture
def kept_data(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Replace the kept data files with given dicts (cached constructions are cleared
    before and after, so no other test sees them)."""
    from pairing.algorithms import designs

    cached = (designs.golf_schedule, designs.resolvable_four, designs.rotational_resolution)

    def replace(files: dict[str, dict[str, Any]]) -> None:
        real = designs._data
        monkeypatch.setattr(designs, "_data", lambda name: files.get(name, real(name)))
        for f in cached:
            f.cache_clear()

    yield replace
    for f in cached:
        f.cache_clear()


KEPT = DESIGNS.parents[3] / "pairing/algorithms/data"


def kept(name: str, size: str) -> Any:
    return json.loads((KEPT / name).read_text())[size]


@pytest.mark.parametrize("q", [1, 6])
def test_affine_geometry_is_refused_for_a_field_not_built(q: int) -> None:
    with pytest.raises(ValueError, match=f"GF\\({q}\\)"):
        affine_resolution(q, 2)


def test_no_affine_resolution_is_offered_for_tables_of_five() -> None:
    assert not has_affine_resolution(25, 5)


def test_a_whist_size_without_kept_data_is_refused_by_name() -> None:
    # given 68 players (a whist size, 4n) past the sizes whose starting round is kept
    assert is_whist_size(68) and not has_whist_tournament(68)
    with pytest.raises(ValueError, match="no whist tournament for 68"):
        whist_tournament(68)


def test_a_whist_starting_round_for_another_size_is_refused() -> None:
    with pytest.raises(AssertionError, match="not for 12 players"):
        develop_whist(kept("whist.json", "13"), 12)


def test_a_whist_starting_round_seating_a_player_twice_is_refused() -> None:
    # given Wh(13)'s starting round with one player written over another
    entry = kept("whist.json", "13")
    start = [list(t) for t in entry["start"]]
    start[0][0] = start[1][0]
    with pytest.raises(AssertionError, match="once each"):
        develop_whist({**entry, "start": start}, 13)


def test_the_kept_rotational_sizes_are_listed_by_table_size() -> None:
    assert {9, 27, 33, 51, 57} <= set(rotational_sizes(3))
    assert {16, 52} <= set(rotational_sizes(4))
    assert not set(rotational_sizes(3)) & set(rotational_sizes(4))


def test_rotational_base_blocks_for_another_size_are_refused() -> None:
    with pytest.raises(AssertionError, match="not for 34 players"):
        develop_rotational(kept("rotational.json", "33"), 34)


def test_rotational_base_blocks_over_a_group_without_the_subgroup_are_refused() -> None:
    # Z_2 x Z_16 has three subgroups of order 2, so the first round is not defined
    entry = {**kept("rotational.json", "33"), "group": [2, 16]}
    with pytest.raises(AssertionError, match="no single subgroup of order 2"):
        develop_rotational(entry, 33)


def test_rotational_base_blocks_missing_a_block_are_refused() -> None:
    # given KTS(33)'s base blocks with the last one dropped: the rounds seat 27 of 33
    entry = kept("rotational.json", "33")
    with pytest.raises(AssertionError, match="seat every player once"):
        develop_rotational({**entry, "base": entry["base"][:-1]}, 33)


def test_rotational_resolution_is_none_for_a_size_not_kept_or_another_table_size() -> None:
    assert rotational_resolution(15, 3) is None
    assert rotational_resolution(16, 3) is None


def test_a_leveled_design_for_another_size_is_refused() -> None:
    with pytest.raises(AssertionError, match="not for 22 players"):
        develop_leveled(kept("leveled.json", "21"), 22)


def test_a_leveled_design_missing_an_orbit_round_is_refused() -> None:
    # given KTS(21) on levels with one of its three orbit rounds dropped: 9 rounds, not 10
    entry = kept("leveled.json", "21")
    with pytest.raises(AssertionError, match=r"\(v - 1\)/\(k - 1\) rounds"):
        develop_leveled({**entry, "fixed_classes": entry["fixed_classes"][:-1]}, 21)


def test_a_leveled_design_with_a_pair_twice_is_refused() -> None:
    # given KTS(21) with two of its orbit rounds the same: those pairs meet twice
    entry = kept("leveled.json", "21")
    orbits = [entry["fixed_classes"][0]] * 2 + [entry["fixed_classes"][2]]
    with pytest.raises(AssertionError, match="meets twice"):
        develop_leveled({**entry, "fixed_classes": orbits}, 21)


def test_kirkman_systems_exist_only_for_3_mod_6_and_are_named_by_construction() -> None:
    assert kirkman_resolution(12) is None
    assert kirkman_resolution(27) is not None
    assert kirkman_resolution(27)[1] == "affine geometry AG(3, 3)"
    assert kirkman_resolution(21) is not None
    assert kirkman_resolution(21)[1] == "Kirkman triple system KTS(21) on levels"
    built = kirkman_resolution(63)
    assert built is not None and built[1] == "tripled KTS(21)"
    assert {meeting_counts(built[0])[p] for p in all_pairs(range(63))} == {1}


def test_resolvable_four_is_none_off_4_mod_12_and_names_its_construction() -> None:
    assert resolvable_four(20) is None
    assert resolvable_four(16) is not None and resolvable_four(16)[1] == "affine geometry AG(2, 4)"
    built = resolvable_four(52)
    assert built is not None and built[1] == "1-rotational resolvable (52, 4, 1) design"


def test_a_kept_leveled_design_with_tables_of_four_is_used(
    kept_data: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a (16, 4, 1) design on Z_5 x 3 plus a fixed point, kept as the only way to 16
    from pairing.algorithms import designs

    base = [[15, 0, 5, 10], [7, 8, 14, 11], [12, 4, 13, 1], [9, 3, 2, 6]]
    entry = {"q": 5, "levels": 3, "k": 4, "fixed_point": True, "base": base, "fixed_classes": []}
    kept_data({"leveled.json": {"16": entry}, "rotational.json": {}})
    monkeypatch.setattr(designs, "has_affine_resolution", lambda players, size: False)
    # when the resolvable design for 16 is asked for, then it is developed from the levels
    built = resolvable_four(16)
    assert built is not None
    design, name = built
    assert name == "resolvable (16, 4, 1) design on levels"
    assert len(design) == 5
    assert {meeting_counts(design)[p] for p in all_pairs(range(16))} == {1}


def test_no_social_golfer_schedule_is_offered_when_none_is_kept() -> None:
    assert golf_schedule(40) is None


def test_a_kept_golf_schedule_with_a_short_table_is_refused(kept_data: Any) -> None:
    # given the kept 32-player schedule with one table cut to three players
    entry = kept("golf.json", "32")
    rounds = [[list(t) for t in r] for r in entry["rounds"]]
    rounds[0][0] = rounds[0][0][:3]
    kept_data({"golf.json": {"32": {**entry, "rounds": rounds}}})
    with pytest.raises(AssertionError, match="wrong size"):
        golf_schedule(32)


def test_a_kept_golf_schedule_with_a_repeated_meeting_is_refused(kept_data: Any) -> None:
    # given the kept 32-player schedule with its first round played twice
    entry = kept("golf.json", "32")
    rounds = [entry["rounds"][0], *entry["rounds"]]
    kept_data({"golf.json": {"32": {**entry, "rounds": rounds}}})
    with pytest.raises(AssertionError, match="meets twice"):
        golf_schedule(32)
