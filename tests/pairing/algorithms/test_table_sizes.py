"""Splitting a field into tables: preferred size first, smaller tables for the rest,
byes only when allowed and no split fits."""

from __future__ import annotations

import pytest

from pairing.algorithms.table_sizes import table_sizes
from pairing.algorithms.types import PairingError


@pytest.mark.parametrize(
    ("count", "size", "smallest", "expected"),
    [
        (10, 4, None, (4, 3, 3)),
        (7, 4, None, (4, 3)),
        (6, 4, None, (3, 3)),
        (9, 4, None, (3, 3, 3)),
        (13, 4, None, (4, 3, 3, 3)),
        (16, 4, None, (4, 4, 4, 4)),
        (7, 3, None, (3, 2, 2)),
        (8, 3, None, (3, 3, 2)),
        (5, 4, 2, (3, 2)),
        (9, 2, 2, None),
    ],
)
def test_splits(
    count: int, size: int, smallest: int | None, expected: tuple[int, ...] | None
) -> None:
    if expected is None:
        with pytest.raises(PairingError):
            table_sizes(count, size=size, smallest=smallest)
    else:
        assert table_sizes(count, size=size, smallest=smallest) == (expected, 0)


def test_byes_only_when_allowed() -> None:
    assert table_sizes(5, size=4, byes_allowed=True) == ((4,), 1)
    assert table_sizes(10, size=4, smallest=4, byes_allowed=True) == ((4, 4), 2)
    assert table_sizes(9, size=2, smallest=2, byes_allowed=True) == ((2, 2, 2, 2), 1)
    with pytest.raises(PairingError) as error:
        table_sizes(5, size=4)
    assert error.value.code == "cannot_seat"


@pytest.mark.parametrize("size", [3, 4])
def test_every_count_is_seated_with_the_most_full_tables(size: int) -> None:
    for count in range(2, 80):
        # Independently: the most tables of `size` whose remainder splits into size - 1.
        fits = [k for k in range(count // size + 1) if (count - k * size) % (size - 1) == 0]
        if not fits or count < size - 1:
            with pytest.raises(PairingError):
                table_sizes(count, size=size)
            continue
        sizes, byes = table_sizes(count, size=size)
        assert sum(sizes) + byes == count and byes == 0
        assert all(size - 1 <= s <= size for s in sizes)
        assert sizes.count(size) == max(fits)


def test_table_sizes_out_of_range_are_refused() -> None:
    with pytest.raises(PairingError):
        table_sizes(10, size=5)
    with pytest.raises(PairingError):
        table_sizes(10, size=4, smallest=1)
