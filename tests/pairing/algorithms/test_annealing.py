"""Annealing on one round's tables and on a schedule's labelling: the rules they keep
(conflicts never added, groups touched within the allowance, sizes kept) and the costs
they never raise, checked with independent counts on random instances."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from pairing.algorithms.annealing import (
    anneal_breaking_few,
    anneal_round,
    class_clashes,
    label_schedule,
    place_for_round,
    table_cost,
    two_of,
)
from pairing.algorithms.designs import affine_resolution

Tables = list[list[int]]


def matrix(n: int, rng: random.Random, density: float, top: int) -> list[list[int]]:
    out = [[0] * n for _ in range(n)]
    for a, b in combinations(range(n), 2):
        if rng.random() < density:
            out[a][b] = out[b][a] = rng.randint(1, top)
    return out


def total(tables: Tables, m: list[list[int]]) -> int:
    return sum(m[a][b] for t in tables for a, b in combinations(t, 2))


def shape(tables: Tables) -> list[int]:
    return sorted(len(t) for t in tables)


@pytest.mark.parametrize("seed", range(4))
def test_annealing_a_round_adds_no_conflict_and_never_costs_more(seed: int) -> None:
    rng = random.Random(seed)
    n = 20
    start = [list(range(i, i + 4)) for i in range(0, n, 4)]
    cost = matrix(n, rng, 1.0, 9)
    conflict = matrix(n, rng, 0.3, 1)
    out = anneal_round(start, cost, conflict, rng=rng, steps=2000)
    assert sorted(p for t in out for p in t) == list(range(n))
    assert shape(out) == shape(start)
    assert total(out, conflict) <= total(start, conflict)
    assert total(out, cost) <= total(start, cost)


@pytest.mark.parametrize("seed", range(4))
def test_annealing_touches_no_more_groups_than_allowed(seed: int) -> None:
    rng = random.Random(seed)
    n = 16
    rounds = affine_resolution(4, 2)  # five rounds of 16 points, no pair twice
    start = [list(t) for t in rounds[0]]
    group = [[-1] * n for _ in range(n)]
    for k, r in enumerate(rounds[1:]):
        for t in r:
            for a, b in combinations(t, 2):
                group[a][b] = group[b][a] = k
    cost = matrix(n, rng, 1.0, 9)
    none = [[0] * n for _ in range(n)]
    out = anneal_breaking_few(start, cost, none, group, 2, rng=rng, steps=3000)
    touched = {group[a][b] for t in out for a, b in combinations(t, 2)} - {-1}
    assert len(touched) <= 2
    assert sorted(p for t in out for p in t) == list(range(n))
    assert total(out, cost) <= total(start, cost)


def test_labelling_finds_rounds_clear_of_a_history_laid_on_the_same_schedule() -> None:
    rounds = affine_resolution(4, 2)
    rng = random.Random(3)
    names = list(range(16))
    rng.shuffle(names)
    clash = [[0] * 16 for _ in range(16)]
    for t in rounds[2]:
        for a, b in combinations(t, 2):
            clash[names[a]][names[b]] = clash[names[b]][names[a]] = 1
    plan, clashes = label_schedule(rounds, clash, wanted=4, rng=rng, steps=20000)
    assert clashes == 0
    assert len(plan) == 4
    assert total([t for r in plan for t in r], clash) == 0
    for r in plan:
        assert sorted(p for t in r for p in t) == list(range(16))


def test_placing_for_a_round_keeps_the_wanted_rounds_clear_and_seats_one_closer() -> None:
    # AG(2, 4): five rounds; one played (clash), four must stay clear, and of those the
    # chosen round should seat players closer under ``cost`` than the start's best.
    rounds = affine_resolution(4, 2)
    rng = random.Random(5)
    clash = [[0] * 16 for _ in range(16)]
    for t in rounds[0]:
        for a, b in combinations(t, 2):
            clash[a][b] = clash[b][a] = 1
    score = [rng.randrange(4) for _ in range(16)]
    cost = [[(score[a] - score[b]) ** 2 for b in range(16)] for a in range(16)]
    start = list(range(16))
    before = class_clashes(rounds, start, cost)
    player, chosen = place_for_round(
        rounds, clash, cost, wanted=4, start=start, rng=rng, steps=4000
    )
    assert sorted(player) == list(range(16))
    after = class_clashes(rounds, player, clash)
    assert after[chosen] == 0
    assert sum(1 for v in after if v == 0) >= 4
    best_before = min(before[c] for c in range(5) if c != 0)
    assert class_clashes(rounds, player, cost)[chosen] <= best_before
    with pytest.raises(ValueError):
        place_for_round(rounds, clash, cost, wanted=5, start=start, rng=rng, steps=10)


@pytest.mark.parametrize("n", [2, 3, 16, 21, 22, 64, 200])
def test_two_of_draws_what_sample_draws_from_the_same_state(n: int) -> None:
    # The searches' seatings for a seed stay what they were with random.sample.
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        for _ in range(50):
            a, b = two_of(ours, n)
            assert a != b and 0 <= a < n and 0 <= b < n
            assert [a, b] == theirs.sample(range(n), 2)
        assert ours.random() == theirs.random()


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_table_cost_sums_every_pair_at_the_table(size: int) -> None:
    rng = random.Random(size)
    cost = matrix(12, rng, 0.7, 50)
    for _ in range(30):
        table = rng.sample(range(12), size)
        assert table_cost(table, cost) == sum(cost[a][b] for a, b in combinations(table, 2))
