"""Placing rounds already played on a design's points so that each is one of its rounds:
every placing found is checked by an independent count, the list is compared with all
permutations on a small design, and rounds that cannot be placed are refused."""

from __future__ import annotations

import random
from itertools import combinations, permutations

import pytest

from pairing.algorithms.designs import affine_resolution, embedding, embeddings
from pairing.algorithms.group_swiss import _best_embedding, known_schedule

Rounds = list[list[list[int]]]


def relabelled(design: tuple, classes: list[int], rng: random.Random) -> Rounds:
    """The design's classes ``classes`` as rounds played by shuffled players, their tables
    and seats shuffled too."""
    n = sum(len(t) for t in design[0])
    name = list(range(n))
    rng.shuffle(name)
    rounds = []
    for c in classes:
        tables = [[name[x] for x in t] for t in design[c]]
        for t in tables:
            rng.shuffle(t)
        rng.shuffle(tables)
        rounds.append(tables)
    return rounds


def classes_under(design: tuple, player: list[int]) -> list[set[frozenset[int]]]:
    """Each class of the design as the set of tables of players it seats."""
    return [{frozenset(player[x] for x in t) for t in r} for r in design]


def is_embedding(design: tuple, rounds: Rounds, player: list[int]) -> bool:
    """Whether ``player`` is a permutation under which every round is a different class."""
    if sorted(player) != list(range(len(player))):
        return False
    under = classes_under(design, player)
    hit = []
    for r in rounds:
        tables = {frozenset(t) for t in r}
        hit.append(next((k for k, c in enumerate(under) if c == tables), None))
    return None not in hit and len(set(hit)) == len(hit)


@pytest.mark.parametrize(
    ("players", "size"), [(16, 4), (32, 4), (64, 4), (28, 4), (27, 3), (21, 3), (9, 3)]
)
@pytest.mark.parametrize("played", [1, 2, 3])
def test_rounds_of_a_relabelled_design_are_placed_back_on_it(
    players: int, size: int, played: int
) -> None:
    # given a known schedule, and some of its rounds played by players named at random
    design = known_schedule(players, size)
    assert design is not None
    rng = random.Random(players * 10 + played)
    rounds = relabelled(design, rng.sample(range(len(design)), played), rng)
    # when the rounds are placed on the schedule
    player = embedding(design, rounds, players)
    # then each round is one of its rounds, a different one each
    assert player is not None
    assert is_embedding(design, rounds, player)


def test_every_round_of_a_design_is_placed_back_at_once() -> None:
    # given all ten rounds of the 32-player schedule, relabelled
    design = known_schedule(32, 4)
    assert design is not None
    rounds = relabelled(design, list(range(len(design))), random.Random(5))
    # then one placing makes every one of them a round of the schedule
    player = embedding(design, rounds, 32)
    assert player is not None and is_embedding(design, rounds, player)


def test_rounds_that_share_a_pair_are_refused() -> None:
    # given a round of the schedule, and a second round seating one of its tables again
    design = known_schedule(32, 4)
    assert design is not None
    first = [list(t) for t in design[0]]
    second = [list(t) for t in design[1]]
    a, b = first[0][0], first[0][1]
    ta = next(t for t in second if a in t)
    tb = next(t for t in second if b in t)
    other = next(p for p in ta if p != a)
    ta[ta.index(other)], tb[tb.index(b)] = b, other
    # (players a and b meet in both rounds: no design seats a pair twice)
    # then no placing is found
    assert embedding(design, [first, second], 32) is None


def test_rounds_of_another_shape_or_field_are_refused() -> None:
    design = known_schedule(16, 4)
    assert design is not None
    fifteen = [[list(range(k, min(k + 4, 15))) for k in range(0, 15, 4)]]
    assert embedding(design, fifteen, 16) is None
    six_rounds = relabelled(design, [0, 1, 2, 3, 4], random.Random(1))
    six_rounds.append(six_rounds[0])
    assert embedding(design, six_rounds, 16) is None


@pytest.mark.parametrize("played", [1, 2])
def test_the_placings_listed_are_exactly_those_found_by_trying_every_permutation(
    played: int,
) -> None:
    # given AG(2, 3): nine players at tables of three, four rounds; some played, relabelled
    design = affine_resolution(3, 2)
    rounds = relabelled(design, list(range(played)), random.Random(played))
    # when every placing is listed
    listed = [tuple(p) for p in embeddings(design, rounds, 9)]
    # then they are distinct, and the same as every permutation that is a placing
    assert len(listed) == len(set(listed))
    every = {p for p in permutations(range(9)) if is_embedding(design, rounds, list(p))}
    assert set(listed) == every
    assert every


def test_the_budget_stops_the_list() -> None:
    design = affine_resolution(3, 2)
    rounds = relabelled(design, [0], random.Random(3))
    assert len(list(embeddings(design, rounds, 9, budget=50))) < len(
        list(embeddings(design, rounds, 9))
    )


def test_the_best_placing_seats_the_cheapest_clear_round_of_all_placings() -> None:
    # given two rounds of AG(2, 3) played, and a score gap between the players
    design = affine_resolution(3, 2)
    rng = random.Random(11)
    rounds = relabelled(design, [2, 0], rng)
    met = [[0] * 9 for _ in range(9)]
    for r in rounds:
        for t in r:
            for a, b in combinations(t, 2):
                met[a][b] = met[b][a] = 1
    score = [rng.randint(0, 3) for _ in range(9)]
    gap = [[(a - b) ** 2 for b in score] for a in score]
    start = embedding(design, rounds, 9)
    assert start is not None

    def cheapest(player: list[int]) -> int:
        return min(
            sum(gap[player[x]][player[y]] for t in r for x, y in combinations(t, 2))
            for r in design
            if not any(met[player[x]][player[y]] for t in r for x, y in combinations(t, 2))
        )

    # when the best placing is chosen
    played = tuple(tuple(tuple(t) for t in r) for r in rounds)
    best = list(_best_embedding(design, played, met, gap, start))
    # then it is a placing, and none seats a clear round closer in score
    assert is_embedding(design, rounds, best)
    assert cheapest(best) == min(cheapest(p) for p in embeddings(design, rounds, 9))
    assert cheapest(best) <= cheapest(start)
