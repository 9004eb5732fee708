"""Chances shown as whole percentages (``matches.chances.whole_percents``): the sides'
add up to exactly 100, and only a certain side shows 100 or a hopeless one 0."""

from __future__ import annotations

import random

import pytest

from matches.chances import whole_percents


@pytest.mark.parametrize(
    ("percents", "shown"),
    [
        # Rounded one by one these showed 23/38/40 and 29/43/29: 101 in all.
        ((22.6, 37.6, 39.8), (23, 37, 40)),
        ((28.6, 42.8, 28.6), (29, 43, 28)),
        # Equal remainders go to the earlier side.
        ((100 / 3, 100 / 3, 100 / 3), (34, 33, 33)),
        ((12.5, 12.5, 37.5, 37.5), (13, 13, 37, 37)),
        ((50.0, 50.0), (50, 50)),
        # A side with any chance shows at least 1, so the likeliest never shows 100.
        ((99.7, 0.2, 0.1), (98, 1, 1)),
        ((99.6, 0.4), (99, 1)),
        ((0.4, 99.6), (1, 99)),
        # A side that has won shows 100, the others 0.
        ((100.0, 0.0), (100, 0)),
        ((0.0, 0.0, 100.0), (0, 0, 100)),
    ],
)
def test_known_chances_show_as(percents: tuple[float, ...], shown: tuple[int, ...]) -> None:
    assert whole_percents(percents) == shown


def test_any_chances_add_up_to_100_and_keep_0_and_100_for_certainties() -> None:
    rng = random.Random(7)
    for _ in range(5000):
        sides = rng.choice((2, 3, 4))
        weights = [rng.random() ** rng.choice((1, 4, 12)) for _ in range(sides)]
        if rng.random() < 0.1:
            weights[rng.randrange(sides)] = 0.0
        if not any(weights):
            continue
        percents = [100 * w / sum(weights) for w in weights]
        shown = whole_percents(percents)
        assert sum(shown) == 100, (percents, shown)
        for i, (p, s) in enumerate(zip(percents, shown, strict=True)):
            alone = all(w == 0 for j, w in enumerate(weights) if j != i)
            assert (s == 0) == (weights[i] == 0), (percents, shown)
            assert (s == 100) == alone, (percents, shown)
            assert abs(s - p) < sides, (percents, shown)
        assert whole_percents(percents) == shown  # the same every time
