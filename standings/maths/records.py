"""What the ranking reads: the scoring configuration (match points per result) and the
plain records of tables, byes and withdrawals, with the ``StandingsError`` their checks
raise.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Final, NoReturn


class StandingsError(ValueError):
    """A record or configuration the maths cannot rank; ``code`` is stable for callers,
    ``tiebreak`` names the tiebreak an order was refused for."""

    def __init__(self, code: str, message: str, *, tiebreak: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.tiebreak = tiebreak


@dataclass(frozen=True, slots=True)
class ScoringConfig:
    """Match points per result; defaults 2/1/0 at two-sided tables, 3/1/0 by placing at three."""

    win_points: Decimal = Decimal(2)
    tie_points: Decimal = Decimal(1)
    loss_points: Decimal = Decimal(0)
    placing_points: tuple[Decimal, Decimal, Decimal] = (Decimal(3), Decimal(1), Decimal(0))
    bye_points: Decimal = Decimal(2)

    def __post_init__(self) -> None:
        if len(self.placing_points) != 3:
            raise StandingsError("placing_points", "three-player placing points need 3 values")
        for value in (self.win_points, self.tie_points, self.loss_points, self.bye_points):
            _require_finite(value)
        for value in self.placing_points:
            _require_finite(value)


def _require_finite(value: Decimal) -> None:
    if not Decimal(value).is_finite():
        raise StandingsError("points_not_finite", f"match points must be finite, not {value}")


DEFAULT_SCORING: Final = ScoringConfig()


@dataclass(frozen=True, slots=True)
class SideResult:
    """One side at a table: the entrants credited, its points in half-points, placing, hands."""

    entrant_ids: tuple[int, ...]
    points_x2: int
    placing: int | None = None
    hands_won: int = 0


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One match at one table; ``placing`` left out on every side is derived from the points."""

    round_number: int
    table_id: int
    player_count: int
    target: int
    sides: tuple[SideResult, ...]
    is_finished: bool = True
    scoring: ScoringConfig | None = None  # the table's own scoring (season tables), else the call's
    #: False for a forfeit whose rule set keeps its points out of the points tiebreaks
    #: (points scored, difference, target share, hands won): only its result counts.
    counts_points: bool = True
    #: A double forfeit: every side loses, nobody met anybody (no opponents for tiebreaks).
    all_lose: bool = False

    def __post_init__(self) -> None:
        if self.player_count not in (2, 3, 4):
            self._refuse("player_count", "player count must be 2, 3 or 4 (R2)")
        expected_sides = 3 if self.player_count == 3 else 2
        if len(self.sides) != expected_sides:
            self._refuse(
                "side_count", f"{self.player_count} players make {expected_sides} sides (R2)"
            )
        if self.target <= 0:
            self._refuse("target", "the target must be positive (R4)")
        credited = 0
        seen: set[int] = set()
        some_placing = False
        for side in self.sides:
            if not side.entrant_ids:
                self._refuse("empty_side", "a side credits no entrant")
            if side.points_x2 < 0 or side.hands_won < 0:
                self._refuse("negative", "points and hands cannot be negative")
            credited += len(side.entrant_ids)
            seen.update(side.entrant_ids)
            some_placing = some_placing or side.placing is not None
        if len(seen) != credited:
            self._refuse("entrant_twice", "an entrant is credited twice")
        if (
            some_placing
            and self.is_finished
            and any(side.placing is None or side.placing < 1 for side in self.sides)
        ):
            self._refuse("placing_invalid", "give every placing (from 1) or none")

    def _refuse(self, code: str, message: str) -> NoReturn:
        raise StandingsError(code, f"table {self.table_id}: {message}")

    def placings(self) -> tuple[int, ...]:
        """Each side's placing as 1 + the sides placed above it (given placings, else points)."""
        # Given placings are normalised too: 1, 3, 3 reads as 1, 2, 2.
        if self.sides[0].placing is None:
            scores = [side.points_x2 for side in self.sides]
        else:
            # Lower placing is better; negate so "more is better" as with points.
            scores = [-(side.placing or 0) for side in self.sides]
        return tuple(1 + sum(other > own for other in scores) for own in scores)


@dataclass(frozen=True, slots=True)
class Bye:
    """A round the entrant sat out with the bye (``scoring`` as for ``TableRecord``)."""

    entrant_id: int
    round_number: int
    scoring: ScoringConfig | None = None


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """The entrant left the event; ``round_number`` is the first round they do not play."""

    entrant_id: int
    round_number: int
