"""The exact designs, checked by the independent counters — and the counters checked
against published schedules, including one that looks right but is not a whist."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from pairing.algorithms.designs import (
    affine_resolution,
    develop_rotational,
    develop_whist,
    golf_schedule,
    has_affine_resolution,
    has_whist_tournament,
    is_whist_size,
    kirkman_15,
    kirkman_resolution,
    resolvable_four,
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


WHIST_RANGE = [v for v in range(4, 65) if v % 4 in (0, 1) and has_whist_tournament(v)]
KIRKMAN_RANGE = [v for v in range(9, 64, 6) if kirkman_resolution(v) is not None]
RESOLVABLE_FOUR_RANGE = [v for v in range(16, 65, 12) if resolvable_four(v) is not None]


def test_the_kept_designs_cover_at_least_the_sizes_searched_so_far() -> None:
    # Each size below is built from kept data or a construction; losing one fails here.
    assert set(WHIST_RANGE) >= {4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29}
    assert set(WHIST_RANGE) >= {37, 40, 41, 45, 49, 53, 61}
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
    assert len(design) == 7
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
