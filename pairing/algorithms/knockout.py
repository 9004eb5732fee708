"""Single-elimination brackets, pure: the seeding order, the first round with its byes,
which tables feed which, who advances from a table, and the plate (consolation) field.

Vocabulary. A *bracket* seeds ``field`` entrants (seed 1 the strongest) into tables of
``per_table`` entrants: two (two players, or two partnerships at a table of four) or
three (three players; the table's winner advances). Its *size* is the smallest power of
``per_table`` that holds the field; the seeds missing from a full bracket are *byes*, and
they fall to the top seeds, who advance without playing. Round ``r`` (from 1) has
``size / per_table ** r`` tables, numbered from 0 down the bracket; table ``p`` of round
``r`` is fed by tables ``p * per_table`` to ``p * per_table + per_table - 1`` of round
``r - 1``. The seeding order keeps the top seeds apart until the last rounds: with the
higher seed always winning, round ``r`` is won by seeds 1 to ``size / per_table ** r``.
The *third-place match* (two per table only) is played by the semi-finals' losers; the
*plate* is a second bracket of the first round's losers, seeded in their first seeding
order.

>>> first_round(field=6)
[(1,), (4, 5), (2,), (3, 6)]
>>> seeding_order(size=9, per_table=3)
[1, 6, 7, 2, 5, 8, 3, 4, 9]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

PER_TABLE = (2, 3)


class KnockoutError(ValueError):
    """A bracket that cannot be made: too small a field, or a table size it cannot use."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class TieRule(StrEnum):
    """How a tied knockout table is decided."""

    EXTRA_HAND = "extra_hand"  # one more hand, repeated while tied: the organiser records it
    HIGHER_SEED = "higher_seed"  # the better seed among the tied advances


def _check(field: int, per_table: int) -> None:
    if per_table not in PER_TABLE:
        raise KnockoutError("per_table", f"a bracket seats 2 or 3 per table, not {per_table}")
    if field < 2:
        raise KnockoutError("too_few", f"a bracket needs at least 2 entrants, not {field}")


def bracket_size(*, field: int, per_table: int = 2) -> int:
    """The smallest power of ``per_table`` that holds ``field`` entrants.

    >>> bracket_size(field=5), bracket_size(field=9, per_table=3)
    (8, 9)
    """
    _check(field, per_table)
    size = per_table
    while size < field:
        size *= per_table
    return size


def rounds_count(*, field: int, per_table: int = 2) -> int:
    """How many rounds the bracket plays until one entrant is left.

    >>> rounds_count(field=16), rounds_count(field=17), rounds_count(field=4, per_table=3)
    (4, 5, 2)
    """
    size, count = bracket_size(field=field, per_table=per_table), 0
    while size > 1:
        size //= per_table
        count += 1
    return count


def seeding_order(*, size: int, per_table: int = 2) -> list[int]:
    """The seeds down a full bracket of ``size``: each group of ``per_table`` is a table.

    Built outwards from the final: each seed ``s`` of a bracket of ``m`` is joined by the
    seeds that make the group's sums as even as they can be (``2m + 1 - s``, then
    ``2m + s`` for three), so 1 meets 2 only in the final.

    >>> seeding_order(size=8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if per_table not in PER_TABLE:
        raise KnockoutError("per_table", f"a bracket seats 2 or 3 per table, not {per_table}")
    order, m = [1], 1
    while m < size:
        grown: list[int] = []
        for s in order:
            grown.append(s)
            grown.append(2 * m + 1 - s)
            if per_table == 3:
                grown.append(2 * m + s)
        order, m = grown, m * per_table
    if m != size:
        raise KnockoutError("size", f"{size} is not a power of {per_table}")
    return order


def first_round(*, field: int, per_table: int = 2) -> list[tuple[int, ...]]:
    """The first round's tables, each the seeds present at it, best first; a table of
    one seed is a bye (that seed advances without playing)."""
    size = bracket_size(field=field, per_table=per_table)
    order = seeding_order(size=size, per_table=per_table)
    tables: list[tuple[int, ...]] = []
    for start in range(0, size, per_table):
        tables.append(tuple(sorted(s for s in order[start : start + per_table] if s <= field)))
    return tables


def feeders(*, position: int, per_table: int = 2) -> range:
    """The positions, in the round before, of the tables that feed table ``position``."""
    return range(position * per_table, (position + 1) * per_table)


def fed_table(*, position: int, per_table: int = 2) -> tuple[int, int]:
    """Where the winner of table ``position`` goes next: (table, place at that table)."""
    return position // per_table, position % per_table


def tables_in_round(*, field: int, round_number: int, per_table: int = 2) -> int:
    """How many tables round ``round_number`` (from 1) has, byes counted as tables."""
    divisor: int = per_table**round_number
    return bracket_size(field=field, per_table=per_table) // divisor


@dataclass(frozen=True, slots=True)
class Advance:
    """Who goes through from one table, and how it was decided."""

    winner: int | None  # None: tied, and the tie rule waits for another hand
    decided_by: str  # "played", "seed" (the tie rule) or "pending"


def advancer(
    *, placings: Mapping[int, int], seeds: Mapping[int, int], tie_rule: TieRule
) -> Advance:
    """The entrant who advances from a finished table: the one placed first alone; if
    several share first place, the tie rule says (the better seed, or nobody yet).

    >>> advancer(placings={7: 1, 9: 2}, seeds={7: 4, 9: 5}, tie_rule=TieRule.EXTRA_HAND)
    Advance(winner=7, decided_by='played')
    >>> advancer(placings={7: 1, 9: 1}, seeds={7: 4, 9: 5}, tie_rule=TieRule.HIGHER_SEED)
    Advance(winner=7, decided_by='seed')
    """
    best = min(placings.values())
    top = [entrant for entrant, placing in placings.items() if placing == best]
    if len(top) == 1:
        return Advance(winner=top[0], decided_by="played")
    if tie_rule == TieRule.HIGHER_SEED:
        return Advance(winner=min(top, key=lambda e: seeds[e]), decided_by="seed")
    return Advance(winner=None, decided_by="pending")


def plate_field(
    *, tables: Sequence[Sequence[int]], winners: Sequence[int], seeds: Mapping[int, int]
) -> list[int]:
    """The plate's entrants: every loser of a first-round table that was played (a bye
    loses nobody), best original seed first."""
    won = set(winners)
    losers = [e for table in tables if len(table) > 1 for e in table if e not in won]
    return sorted(losers, key=lambda e: seeds[e])


def third_place_field(*, semi_finals: Sequence[Sequence[int]], winners: Sequence[int]) -> list[int]:
    """The two semi-finals' losers, for the third-place match (two per table only)."""
    won = set(winners)
    return [e for table in semi_finals for e in table if e not in won]
