"""Live chances of winning and the coach's marks, as the public pages show a match.

The chances come from the engine's simulation (``allfives.chances``): the rest of the
match is played out many times from where it stands, by simulated players whose
strength (greed, 0 = random, 1 = always the play that scores most) follows their
ratings before the match. The mapping is calibrated: ``GREED_CURVE`` holds, per table
size, the strength of a side of each greed against sides of greed 0.5 — measured by
simulation (``bench/chances.py --curve``) as the log-weight that the ratings' own
Plackett-Luce win probabilities (``ratings.maths.side_strengths``) give such a side —
so a side whose rating makes it x stronger than the table's average plays at the
greed that wins as often. The table's average player is taken to play at greed 0.5.
Friendly matches, and tables without ratings, are even.

Each estimate is cached (Django cache) by everything it depends on: the match's
version for the current chances, and for a hand's play-by-play chances and coach's
marks the hand itself, so a new hand adds its own work only. The simulated hands a
table needs (a ``HandBook``) are built once per process and table kind.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from django.core.cache import cache

from allfives import AllFivesError, HandState, Move, Rules, side_of, sides_of
from allfives.chances import (
    Forecast,
    HandBook,
    chances_after_hand,
    chances_in_hand,
    playing_off,
)
from allfives.coach import Advice, coach_hand
from matches.models import Hand, Match
from matches.selectors import clock_hands_left
from ratings.selectors import tables_side_strengths

#: Per table size, (greed, strength against greed-0.5 sides) from simulation of the
#: default rules (bench/chances.py --curve; about +-0.04 each).
GREED_CURVE: Final[Mapping[int, tuple[tuple[float, float], ...]]] = {
    2: ((0.0, -2.198), (0.25, -0.949), (0.5, 0.0), (0.75, 0.989), (1.0, 1.775)),
    3: ((0.0, -1.409), (0.25, -0.646), (0.5, 0.0), (0.75, 0.613), (1.0, 1.198)),
    4: ((0.0, -1.029), (0.25, -0.415), (0.5, 0.0), (0.75, 0.458), (1.0, 0.899)),
}
#: Greed is rounded to this step, so that tables of similar strength share a book.
GREED_STEP: Final = 0.05
#: The standard error asked of every estimate (one percentage point).
MAX_SE: Final = 0.01
_TIMEOUT: Final = 24 * 3600


def greed_for(strength: float, *, players: int) -> float:
    """The greed whose simulated side is `strength` stronger than greed-0.5 sides,
    clamped to 0..1 and rounded to ``GREED_STEP``.

    >>> greed_for(0.0, players=2), greed_for(0.989, players=2), greed_for(9.0, players=3)
    (0.5, 0.75, 1.0)
    """
    curve = GREED_CURVE[players]
    xs = [x for _g, x in curve]
    if strength <= xs[0]:
        return curve[0][0]
    if strength >= xs[-1]:
        return curve[-1][0]
    i = bisect.bisect_right(xs, strength)
    (g0, x0), (g1, x1) = curve[i - 1], curve[i]
    greed = g0 + (g1 - g0) * (strength - x0) / (x1 - x0)
    return round(round(greed / GREED_STEP) * GREED_STEP, 2)


@lru_cache(maxsize=32)
def _book(rules_json: str, players: int, greed: tuple[float, ...]) -> HandBook:
    seed = hashlib.sha256(f"{rules_json}|{players}|{greed}".encode()).hexdigest()[:16]
    return HandBook.build(
        players=players, rules=Rules.from_json(json.loads(rules_json)), greed=greed, seed=seed
    )


def match_greed(
    *, match: Match, strengths: Mapping[int, Mapping[int, float]] | None = None
) -> tuple[float, ...]:
    """Each seat's simulated greed, from its side's rating before the match (`strengths`
    by table and side, when already read for many tables)."""
    players = match.player_count
    sides: Mapping[int, float] = {}
    if match.table_id is not None:
        if strengths is None:
            strengths = tables_side_strengths(table_ids=[match.table_id])
        sides = strengths.get(match.table_id, {})
    return tuple(
        greed_for(sides.get(side_of(seat, players), 0.0), players=players)
        for seat in range(players)
    )


def whole_percents(percents: Sequence[float]) -> tuple[int, ...]:
    """Percentages (one per side, summing to about 100) as whole numbers that sum to
    exactly 100, by largest remainder: each is floored, and the points left go one each
    to the largest fractional parts (the earlier side first on a tie). Only a side
    whose chance is exactly 0 or 100 shows 0 or 100: a side with any chance shows at
    least 1, taken from the side shown highest, and so no other side shows 100.

    >>> whole_percents([22.6, 37.6, 39.8]), whole_percents([28.6, 42.8, 28.6])
    ((23, 37, 40), (29, 43, 28))
    >>> whole_percents([100 / 3] * 3), whole_percents([99.7, 0.2, 0.1]), whole_percents([100, 0])
    ((34, 33, 33), (98, 1, 1), (100, 0))
    """
    total = sum(percents)
    if not percents or total <= 0:
        return tuple(0 for _ in percents)
    scaled = [100 * p / total for p in percents]
    shown = [int(p) for p in scaled]
    by_remainder = sorted(range(len(scaled)), key=lambda i: (shown[i] - scaled[i], i))
    for i in by_remainder[: 100 - sum(shown)]:
        shown[i] += 1
    for i, p in enumerate(scaled):
        if p > 0 and shown[i] == 0:
            highest = max(range(len(shown)), key=lambda j: (shown[j], -j))
            shown[highest] -= 1
            shown[i] = 1
    return tuple(shown)


def _percent(forecast: Forecast) -> tuple[float, ...]:
    return tuple(100 * p for p in forecast.chances)


def _key(kind: str, *parts: Any) -> str:
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()
    return f"chances:{kind}:{digest[:32]}"


@dataclass(frozen=True, slots=True)
class Chances:
    """Each side's chance of winning in percent (side order), and the standard error
    of the estimate in percentage points."""

    percents: tuple[float, ...]
    error: float


def _chances(forecast: Forecast) -> Chances:
    return Chances(_percent(forecast), 100 * forecast.standard_error)


def chances_now(
    *,
    match: Match,
    totals_x2: Sequence[int],
    next_leader: int | None,
    greed: tuple[float, ...],
    hands_left: int | None = None,
) -> Chances:
    """Each side's chance between hands, from the totals, who leads next and the hands
    a called clock still allows."""
    rules = json.dumps(Rules.from_json(match.rules).to_json(), sort_keys=True)
    key = _key("now", rules, match.player_count, list(totals_x2), next_leader, greed, hands_left)
    found: Chances | None = cache.get(key)
    if found is None:
        book = _book(rules, match.player_count, greed)
        forecast = chances_after_hand(
            book,
            totals_x2=list(totals_x2),
            next_leader=next_leader,
            rng=random.Random(key),  # nosec B311 - a seeded estimate, not a secret
            max_se=MAX_SE,
            hands_left=hands_left,
        )
        found = _chances(forecast)
        cache.set(key, found, _TIMEOUT)
    return found


@dataclass(frozen=True, slots=True)
class PlayStep:
    """One play of a tile-by-tile hand: who laid which tile where for how many points,
    each side's chance after it, and the coach's better play (None when none was
    known to score more)."""

    move: int
    seat: int
    tile: str
    end: str | None
    points: int
    chances: Chances | None  # only in the latest hand of a match being played
    better: Advice | None


@dataclass(frozen=True, slots=True)
class HandSteps:
    """A tile-by-tile hand play by play, with each seat's points left on the table."""

    steps: tuple[PlayStep, ...]
    missed: Mapping[int, int]  # by seat


def _totals(values: Mapping[str, Any], sides: Sequence[int]) -> list[int]:
    return [int(values.get(str(side), 0)) for side in sides]


def hand_steps(
    *,
    match: Match,
    hand: Hand,
    totals_before_x2: Sequence[int],
    greed: tuple[float, ...],
    with_chances: bool,
) -> HandSteps | None:
    """A tile-by-tile hand play by play with the coach's marks and, when asked, the
    chances after each play; None for a hand entered as a tally."""
    if hand.mode != Hand.Mode.TILES:
        return None
    players = match.player_count
    rules = Rules.from_json(match.rules)
    rules_json = json.dumps(rules.to_json(), sort_keys=True)
    left = clock_hands_left(match=match, played=hand.number - 1)
    key = _key(
        "hand", rules_json, players, hand.entry, list(totals_before_x2), greed, with_chances, left
    )
    found: HandSteps | None = cache.get(key)
    if found is None:
        found = _hand_steps(
            match, hand, rules, rules_json, list(totals_before_x2), greed, key, with_chances, left
        )
        cache.set(key, found, _TIMEOUT)
    return found


def _hand_steps(
    match: Match,
    hand: Hand,
    rules: Rules,
    rules_json: str,
    before: list[int],
    greed: tuple[float, ...],
    key: str,
    with_chances: bool,
    hands_left: int | None,
) -> HandSteps:
    players = match.player_count
    sides = sides_of(players)
    target_x2 = 2 * rules.target(players)
    book = _book(rules_json, players, greed)
    rng = random.Random(key)  # nosec B311 - a seeded estimate, not a secret
    try:
        advice = {a.move: a for a in coach_hand(hand.entry, players=players, rules=rules)}
    except (AllFivesError, ValueError):
        advice = {}
    deciding = playing_off(rules, players, before, hands_left)
    state = HandState(players, hand.leader, rules=rules)
    totals = before[:]
    steps = []
    missed = dict.fromkeys(range(players), 0)
    for index, raw in enumerate(hand.entry.get("moves", [])):
        move = Move.parse(raw)
        points = state.apply(move)
        if move.kind != "play" or move.tile is None:
            continue
        side = side_of(move.seat, players)
        totals[sides.index(side)] += 2 * points
        if not with_chances:
            now = None
        elif totals[sides.index(side)] >= target_x2 and not deciding:  # R22: won at this play
            now = Chances(tuple(100.0 if s == side else 0.0 for s in sides), 0.0)
        elif state.is_over():  # a domino: the hand's settlement is known
            now = chances_now(
                match=match,
                totals_x2=_totals(hand.totals_x2, sides),
                next_leader=hand.next_leader,
                greed=greed,
                hands_left=clock_hands_left(match=match, played=hand.number),
            )
        else:
            forecast = chances_in_hand(
                book,
                state=state,
                totals_x2=totals,
                rng=rng,
                max_se=MAX_SE,
                hands_left=hands_left,
                deciding=deciding,
            )
            now = _chances(forecast)
        better = advice.get(index)
        if better is not None and better.missed > 0:
            missed[move.seat] += better.missed
        else:
            better = None
        end = better.played.end if better is not None else move.end
        steps.append(PlayStep(index, move.seat, str(move.tile), end, points, now, better))
    return HandSteps(tuple(steps), missed)


@dataclass(frozen=True, slots=True)
class MatchChances:
    """A match's chances now, after each hand (by hand number), its tile-by-tile hands
    play by play, and each seat's points left on the table over the match."""

    now: Chances | None  # None once the match is over
    after_hand: Mapping[int, Chances]
    hands: Mapping[int, HandSteps]
    missed: Mapping[int, int]  # by seat, over the tile-by-tile hands

    @property
    def has_coach(self) -> bool:
        return bool(self.hands)


def match_chances(*, match: Match, hands: Sequence[Hand]) -> MatchChances:
    """Everything the scoresheet shows of the chances and the coach, cached per match
    version (each piece also by what it depends on)."""
    key = f"chances:match:{match.pk}:{match.version}"
    found: MatchChances | None = cache.get(key)
    if found is not None:
        return found
    greed = match_greed(match=match)
    sides = sides_of(match.player_count)
    before = [0] * len(sides)
    after: dict[int, Chances] = {}
    steps: dict[int, HandSteps] = {}
    missed = dict.fromkeys(range(match.player_count), 0)
    hands_count = max((hand.number for hand in hands), default=0)
    for hand in sorted(hands, key=lambda h: h.number):
        totals = _totals(hand.totals_x2, sides)
        after[hand.number] = chances_now(
            match=match,
            totals_x2=totals,
            next_leader=hand.next_leader,
            greed=greed,
            hands_left=clock_hands_left(match=match, played=hand.number),
        )
        # Play by play, the chances cost a simulation per play (up to 0.1 s each): they
        # follow the hand being played, the latest, while the match goes on.
        latest = not match.winners and hand.number == hands_count
        lines = hand_steps(
            match=match,
            hand=hand,
            totals_before_x2=before,
            greed=greed,
            with_chances=latest,
        )
        if lines is not None:
            steps[hand.number] = lines
            for seat, points in lines.missed.items():
                missed[seat] += points
        before = totals
    now = None
    if not match.winners:
        now = chances_now(
            match=match,
            totals_x2=before,
            next_leader=match.next_leader,
            greed=greed,
            hands_left=clock_hands_left(match=match, played=hands_count),
        )
    found = MatchChances(now=now, after_hand=after, hands=steps, missed=missed)
    cache.set(key, found, _TIMEOUT)
    return found


def matches_chances_now(*, matches: Sequence[Match]) -> dict[int, Chances]:
    """The chances now of many matches being played, by match id (a round's page):
    the ratings are read once for all of them, each estimate is cached."""
    playing = [m for m in matches if not m.winners and m.status == Match.Status.PLAYING]
    if not playing:
        return {}
    strengths = tables_side_strengths(
        table_ids=[m.table_id for m in playing if m.table_id is not None]
    )
    found = {}
    for match in playing:
        sides = sides_of(match.player_count)
        found[match.pk] = chances_now(
            match=match,
            totals_x2=[match.total_x2(side) for side in sides],
            next_leader=match.next_leader,
            greed=match_greed(match=match, strengths=strengths),
            hands_left=clock_hands_left(match=match, played=match.hands_count),
        )
    return found
