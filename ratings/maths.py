"""Rating maths: OpenSkill ratings for one match or a sequence of matches, on plain values.

Vocabulary. A *subject* is whatever a rating belongs to, named by an integer id: a
player, or (in a separate pool) a fixed partnership rated as a unit. A *skill* is a
subject's belief ``(mu, sigma)``: the mean and the uncertainty of its strength. A
*match* lists its *sides* (docs/rules.md R2: one player, or a partnership at four-player
tables), each as the subjects that play for it, and each side's *placing* (1 = first;
equal placings are a tie and share the place). Two players are two sides of one, three
players three sides of one ranked by final score, four players two sides of two (seats
0+2 against 1+3). The *display rating* is the conservative ``mu - 3 sigma``: a new
subject starts at 0 and climbs as the system grows sure of it.

Model. OpenSkill's Plackett-Luce model (Weng & Lin 2011, algorithm 4) with the
package's defaults (mu 25, sigma 25/3, tau 25/300): it rates any number of sides of any
size in one update, and handles tied placings. Plackett-Luce was chosen over the
Bradley-Terry and Thurstone-Mosteller variants because it is the one multi-side model
(three-player tables) that treats a placing as a sequence of "who is best of those
left" choices, which is what a final score ranking is; tau keeps sigma from collapsing
so ratings still move across seasons.

Luck per table size. ``beta``, the spread of one performance around a side's skill, is
the default 25/6 at two- and three-player tables and three times that at four-player
tables (``BETA``): with five tiles each and a partner's play, a four-player match says
far less about who is stronger. With one beta for all sizes, simulated play (greedy
against random players, ``tests/league/ratings/test_calibration.py``) was overconfident
at four-player tables and failed calibration in 7 of 30 seeds; with 2x to 5x it failed
in 1 to 3 of 90, about the rate expected by chance. A partnership rated as a unit plays
at a four-player table, so it uses the four-player beta. Re-check on real results with
``manage.py ratings_recompute --calibration``.

Win probabilities use the same Plackett-Luce likelihood the updates assume: side ``i``
finishes first with probability ``exp(mu_i / c) / sum_q exp(mu_q / c)``, with ``c``
the model's spread ``sqrt(sum_q (sigma_q^2 + beta^2))``. (OpenSkill's own
``predict_win`` uses a normal CDF, which does not match the logistic likelihood the
Plackett-Luce update fits and is overconfident on these ratings: on the simulated
play above its 0.9-1.0 bin was won 85% of the time against 98% predicted.)

Everything here is deterministic: the same matches in the same order give bit-for-bit
the same skills, which is what lets the incremental update equal the full recompute.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating

from allfives import outcome

_DEFAULT_BETA: Final = 25.0 / 6.0
#: The spread of one performance, by the number of seats at the table (see above).
BETA: Final[Mapping[int, float]] = MappingProxyType(
    {2: _DEFAULT_BETA, 3: _DEFAULT_BETA, 4: 3 * _DEFAULT_BETA}
)
MODELS: Final[Mapping[int, PlackettLuce]] = MappingProxyType(
    {seats: PlackettLuce(beta=beta) for seats, beta in BETA.items()}
)
DISPLAY_Z: Final = 3.0


class RatingInputError(ValueError):
    """A match that cannot be rated (should never happen with validated results)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A subject's belief: mean strength ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def display(self) -> float:
        return conservative_rating(self)


INITIAL: Final = Skill(mu=MODELS[2].mu, sigma=MODELS[2].sigma)


@dataclass(frozen=True, slots=True)
class Match:
    """One finished match: each side's subjects and placing (1 = first; equal = tie).

    ``seats`` is the table size when it differs from the number of subjects (two
    partnerships rated as units sat at a four-player table).
    """

    sides: tuple[tuple[int, ...], ...]
    placings: tuple[int, ...]
    seats: int | None = None

    @property
    def table_size(self) -> int:
        return self.seats or sum(len(side) for side in self.sides)

    def __post_init__(self) -> None:
        if len(self.sides) < 2:
            raise RatingInputError("a match needs at least two sides")
        if len(self.placings) != len(self.sides):
            raise RatingInputError("one placing per side")
        if any(not side for side in self.sides):
            raise RatingInputError("every side needs a subject")
        subjects = [s for side in self.sides for s in side]
        if len(set(subjects)) != len(subjects):
            raise RatingInputError("a subject plays for one side only")
        if any(p < 1 for p in self.placings):
            raise RatingInputError("placings start at 1")
        if self.table_size not in MODELS:
            raise RatingInputError("a table seats two, three or four players")

    def first_place_share(self, side_index: int) -> float:
        """How much of first place this side took: 1, 1/k when k sides tie for it, or 0."""
        placing = self.placings[side_index]
        if outcome(placing, self.placings) == "loss":
            return 0.0
        return 1.0 / self.placings.count(placing)


@dataclass(frozen=True, slots=True)
class Update:
    """What one match did to one subject, and what was expected of its side."""

    subject: int
    side_index: int
    before: Skill
    after: Skill
    expected: float  # predicted probability that the subject's side finished first


def conservative_rating(skill: Skill) -> float:
    """The display rating ``mu - 3 sigma``: 0 for a new subject.

    >>> conservative_rating(Skill(mu=25.0, sigma=25.0 / 3))
    0.0
    """
    return skill.mu - DISPLAY_Z * skill.sigma


def win_probabilities(sides: Sequence[Sequence[Skill]], *, seats: int | None = None) -> list[float]:
    """Each side's probability of finishing first, under the Plackett-Luce likelihood.

    ``seats`` is the table size (by default, the number of skills given).

    >>> [round(p, 3) for p in win_probabilities([[INITIAL], [INITIAL]])]
    [0.5, 0.5]
    """
    if len(sides) < 2 or any(not side for side in sides):
        raise RatingInputError("win probabilities need at least two non-empty sides")
    size = seats or sum(len(side) for side in sides)
    if size not in BETA:
        raise RatingInputError("a table seats two, three or four players")
    beta_squared = BETA[size] ** 2
    mus = [sum(s.mu for s in side) for side in sides]
    spread = math.sqrt(sum(sum(s.sigma**2 for s in side) + beta_squared for side in sides))
    top = max(mus)
    weights = [math.exp((mu - top) / spread) for mu in mus]
    total = sum(weights)
    return [w / total for w in weights]


def side_strengths(sides: Sequence[Sequence[Skill]], *, seats: int | None = None) -> list[float]:
    """Each side's log-weight in `win_probabilities`, less their mean: how much stronger
    than the table's average a side plays, on the scale of the model's luck.

    >>> [round(x, 3) for x in side_strengths([[INITIAL], [INITIAL]])]
    [0.0, 0.0]
    """
    if len(sides) < 2 or any(not side for side in sides):
        raise RatingInputError("strengths need at least two non-empty sides")
    size = seats or sum(len(side) for side in sides)
    if size not in BETA:
        raise RatingInputError("a table seats two, three or four players")
    beta_squared = BETA[size] ** 2
    mus = [sum(s.mu for s in side) for side in sides]
    spread = math.sqrt(sum(sum(s.sigma**2 for s in side) + beta_squared for side in sides))
    mean = sum(mus) / len(mus)
    return [(mu - mean) / spread for mu in mus]


def rate_match(match: Match, skills: Mapping[int, Skill]) -> list[Update]:
    """Rate one match; subjects missing from ``skills`` start at ``INITIAL``.

    Updates come side by side, subjects in the order the match lists them.
    """
    before = [[skills.get(s, INITIAL) for s in side] for side in match.sides]
    expected = win_probabilities(before, seats=match.table_size)
    teams = [[PlackettLuceRating(k.mu, k.sigma) for k in side] for side in before]
    rated = MODELS[match.table_size].rate(teams, ranks=[float(p) for p in match.placings])
    updates: list[Update] = []
    for side_index, (side, old_side, new_side) in enumerate(
        zip(match.sides, before, rated, strict=True)
    ):
        for subject, old, new in zip(side, old_side, new_side, strict=True):
            updates.append(
                Update(
                    subject=subject,
                    side_index=side_index,
                    before=old,
                    after=Skill(mu=float(new.mu), sigma=float(new.sigma)),
                    expected=expected[side_index],
                )
            )
    return updates


@dataclass(frozen=True, slots=True)
class CalibrationBin:
    """Predictions that fell in ``[low, high)``: how many, their mean, how often it happened."""

    low: float
    high: float
    count: int
    predicted: float
    observed: float

    @property
    def standard_error(self) -> float:
        """The binomial standard error of ``observed`` if ``predicted`` were right."""
        p = min(max(self.predicted, 1e-9), 1 - 1e-9)
        return math.sqrt(p * (1 - p) / self.count)

    @property
    def z(self) -> float:
        """How many standard errors the outcome lies from the prediction."""
        return (self.observed - self.predicted) / self.standard_error


def calibration_bins(
    outcomes: Iterable[tuple[float, float]], *, bins: int = 10
) -> list[CalibrationBin]:
    """Group ``(predicted, happened)`` pairs into equal-width probability bins.

    ``happened`` is 1 or 0 (or a share of a tied first place); empty bins are left out.
    A calibrated predictor has ``observed`` close to ``predicted`` in every bin.
    """
    grouped: dict[int, list[tuple[float, float]]] = {}
    for predicted, happened in outcomes:
        grouped.setdefault(min(int(predicted * bins), bins - 1), []).append((predicted, happened))
    return [
        CalibrationBin(
            low=index / bins,
            high=(index + 1) / bins,
            count=len(pairs),
            predicted=sum(p for p, _h in pairs) / len(pairs),
            observed=sum(h for _p, h in pairs) / len(pairs),
        )
        for index, pairs in sorted(grouped.items())
    ]


def rate_matches(
    matches: Iterable[Match], skills: MutableMapping[int, Skill]
) -> Iterator[list[Update]]:
    """Rate matches in the order given, updating ``skills`` as it goes.

    Yields each match's updates; the final ``skills`` are everyone's current ratings.
    """
    for match in matches:
        updates = rate_match(match, skills)
        for update in updates:
            skills[update.subject] = update.after
        yield updates
