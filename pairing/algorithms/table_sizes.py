"""How many tables of which size seat the entrants present: tables of the preferred size
where possible, smaller tables (down to ``smallest``) for the rest — 10 players at tables
of four sit 4+3+3 — and byes only when the organiser allows them and no split fits.
Each table's target follows its own player count (docs/rules.md R4).
"""

from __future__ import annotations

from pairing.algorithms.types import PairingError

MIN_TABLE = 2
MAX_TABLE = 4


def table_sizes(
    count: int, *, size: int, smallest: int | None = None, byes_allowed: bool = False
) -> tuple[tuple[int, ...], int]:
    """Split ``count`` entrants into table sizes (largest first) and a number of byes.

    ``smallest`` defaults to one less than ``size`` (mixed 4/3 or 3/2 tables); pass
    ``smallest=size`` for fixed-size tables. Byes are used only if ``byes_allowed`` and
    then as few as possible.

    >>> table_sizes(10, size=4)
    ((4, 3, 3), 0)
    >>> table_sizes(10, size=4, smallest=4, byes_allowed=True)
    ((4, 4), 2)
    """
    low = max(MIN_TABLE, size - 1) if smallest is None else smallest
    if not MIN_TABLE <= low <= size <= MAX_TABLE:
        raise PairingError(
            "table_size", f"tables hold {MIN_TABLE} to {MAX_TABLE} players, got {low}..{size}"
        )
    if count < 0:
        raise ValueError("count must not be negative")
    for byes in range(count + 1 if byes_allowed else 1):
        split = _split(count - byes, size, low)
        if split is not None:
            return split, byes
    raise PairingError(
        "cannot_seat",
        f"{count} entrants cannot sit at tables of {low} to {size} players without byes",
    )


def _split(count: int, size: int, low: int) -> tuple[int, ...] | None:
    """The split with the most tables of ``size`` (so the fewest tables), or None."""
    if count == 0:
        return None
    for big in range(count // size, -1, -1):
        rest = count - big * size
        smaller = _fill(rest, size - 1, low)
        if smaller is not None:
            return (size,) * big + smaller
    return None


def _fill(count: int, size: int, low: int) -> tuple[int, ...] | None:
    if count == 0:
        return ()
    if size < low:
        return None
    for big in range(count // size, -1, -1):
        rest = _fill(count - big * size, size - 1, low)
        if rest is not None:
            return (size,) * big + rest
    return None
