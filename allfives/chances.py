"""Chances of winning a match from where it stands, estimated by simulating the rest.

A *strength* is a simulated player's greed, from 0 (every play chosen at random among
the legal ones) to 1 (always the play that scores most at once, `choose_greedy`); a
player of greed 0.7 plays greedily on 70% of its choices (`mixed_strategy`).

A `HandBook` is a library of simulated hands for one table — rule set, player count
and each seat's strength — for every possible leader: each hand kept as its scoring
plays in order and its end-of-hand points, per side in half-points, and the seat
that went out. It is built once by simulation (`HandBook.build`), and then the rest
of a match is played out by drawing whole hands from it, which costs a few integer
additions per hand instead of a hand's tile-by-tile play. The first side to reach
its target wins, in the middle of a hand too (R22); a three-player split (R20) that
carries two sides there goes to the higher total, and a tie shares the win. Once time
is called (R24) the estimate is given the hands the clock still lets the match play,
after which the higher total wins; under the rules' `tie_break` a tie, then or at the
target, is played off whole hand by whole hand (`playing_off`).

`chances_after_hand` estimates each side's chance from the totals and who leads
next (None: by lot after a block, R21). `chances_in_hand` starts from a hand in
progress as a spectator sees it — the layout, the tiles laid and each player's tile
count — deals the unseen tiles at random to fill the hands and the boneyard, plays
that hand out tile by tile, then finishes the match from the book. (It ignores what
draws and passes reveal about the hidden hands, R13-R15: a small bias, towards the
unconditioned deal.) Both stop once the standard error of every side's estimate is
at most `max_se`, or at `max_samples`; the `Forecast` says how many samples it took
and the standard error reached (binomial, ``sqrt(p(1-p)/n)``). A seeded
`random.Random` makes every estimate reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from allfives.hand import HandState, deal_tiles
from allfives.rules import Rules, check_players, side_of, sides_of
from allfives.strategies import Strategy, choose_greedy, choose_random
from allfives.tiles import BIT, LOW, tiles_in

__all__ = [
    "Forecast",
    "HandBook",
    "HandSample",
    "chances_after_hand",
    "chances_in_hand",
    "mixed_strategy",
    "playing_off",
]

#: Hands simulated per leader when a book is built.
BOOK_HANDS = 2000
#: Matches finished from the book after each hand played out from a hand in progress.
FINISHES_PER_DEAL = 8
#: Samples taken before the first check of the standard error.
MIN_SAMPLES = 400


def mixed_strategy(greed: float) -> Strategy:
    """A player who plays greedily with probability `greed`, else at random.

    >>> pick = mixed_strategy(1.0)
    >>> hand = HandState(2, 0, deal=[["5-5", "0-1", "0-2", "0-3", "0-4", "0-6", "1-1",
    ...     "1-2", "1-3"], ["0-5", "1-5", "1-4", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"]])
    >>> pick(hand, hand.options(0), random.Random(1))  # 5-5 (index 25) scores 10
    (25, -1)
    """
    if not 0.0 <= greed <= 1.0:
        raise ValueError(f"greed must be between 0 and 1, not {greed!r}")

    def choose(
        state: HandState, options: list[tuple[int, int]], rng: random.Random
    ) -> tuple[int, int]:
        if rng.random() < greed:
            return choose_greedy(state, options, rng)
        return choose_random(state, options, rng)

    return choose


@dataclass(frozen=True, slots=True)
class HandSample:
    """One simulated hand: scoring plays (side, half-points) in order, end-of-hand
    points per side (half-points), each side's gain in all, and who went out (-1:
    blocked)."""

    plays: tuple[tuple[int, int], ...]
    bonus_x2: tuple[int, ...]
    gain_x2: tuple[int, ...]
    went_out: int


@dataclass(frozen=True, slots=True)
class Forecast:
    """Each side's chance of winning (in side order), the largest standard error among
    them, and the simulated matches behind the estimate."""

    chances: tuple[float, ...]
    standard_error: float
    samples: int


def _play_out(
    state: HandState, choosers: Sequence[Strategy], rng: random.Random, boneyard: list[int]
) -> HandSample:
    """Play a hand with a deal to its end; the boneyard is drawn from its end."""
    players = state.players
    sides = len(sides_of(players))
    plays: list[tuple[int, int]] = []
    options_for = state.options
    lay = state.lay
    while not state.end_code:
        seat = state._turn
        options = options_for(seat)
        if options:
            t, e = options[0] if len(options) == 1 else choosers[seat](state, options, rng)
            points = lay(seat, t, e, LOW[t])
            if points:
                plays.append((side_of(seat, players), points + points))
        elif state.boneyard_count:
            state.draw(seat, boneyard.pop())
        else:
            state.pass_turn(seat)
    settlement = state.settle_pips(state.left_pips({}))
    bonus = [0] * sides
    for side, x2 in settlement.bonus_x2.items():
        bonus[side] += x2
    gain = bonus[:]
    for side, x2 in plays:
        gain[side] += x2
    went_out = -1 if state.went_out is None else state.went_out
    return HandSample(tuple(plays), tuple(bonus), tuple(gain), went_out)


class HandBook:
    """Simulated hands of one table (rules, players, each seat's greed) by leader.

    >>> book = HandBook.build(players=2, rules=Rules(), greed=(0.5, 0.5), hands=50, seed=1)
    >>> len(book.hands[0]), len(book.hands[1]), book.target_x2
    (50, 50, 500)
    """

    __slots__ = ("greed", "hands", "players", "rules", "target_x2")

    players: int
    rules: Rules
    greed: tuple[float, ...]
    target_x2: int
    #: Per leader seat, the simulated hands it led.
    hands: tuple[tuple[HandSample, ...], ...]

    def __init__(
        self,
        *,
        players: int,
        rules: Rules,
        greed: Sequence[float],
        hands: Sequence[Sequence[HandSample]],
    ) -> None:
        self.players = check_players(players)
        if len(greed) != players or len(hands) != players:
            raise ValueError(f"give one greed and one list of hands per seat ({players})")
        self.rules = rules
        self.greed = tuple(greed)
        self.target_x2 = 2 * rules.target(players)
        self.hands = tuple(tuple(by_leader) for by_leader in hands)

    @classmethod
    def build(
        cls,
        *,
        players: int,
        rules: Rules,
        greed: Sequence[float],
        hands: int = BOOK_HANDS,
        seed: int | str = 0,
    ) -> HandBook:
        """Simulate `hands` hands for each leader (seeded, so a book is reproducible)."""
        players = check_players(players)
        choosers = [mixed_strategy(g) for g in greed]
        rng = random.Random(f"book:{seed}")  # nosec B311 - a game's randomness
        by_leader: list[list[HandSample]] = []
        for leader in range(players):
            samples = []
            for _ in range(hands):
                dealt, boneyard = deal_tiles(players, rules, rng)
                masks = [sum(map(BIT.__getitem__, hand)) for hand in dealt]
                state = HandState.from_masks(players, leader, rules, masks)
                samples.append(_play_out(state, choosers, rng, boneyard))
            by_leader.append(samples)
        return cls(players=players, rules=rules, greed=greed, hands=by_leader)

    def finish(
        self,
        totals_x2: list[int],
        leader: int | None,
        rng: random.Random,
        *,
        hands_left: int | None = None,
        deciding: bool = False,
    ) -> tuple[int, ...]:
        """Play the rest of a match from the book; the winning sides (two only for a
        tied three-player split). `totals_x2` is changed in place.

        `hands_left` is how many hands the called clock still lets the match play (R24;
        None: no clock called): once they are played, the higher total wins. With the
        rules' `tie_break`, a tie then — or a split to the target on equal totals — is
        played off whole hand by whole hand until one side alone is highest;
        `deciding` says such a play-off is under way."""
        target = self.target_x2
        players = self.players
        sides = range(len(totals_x2))
        books = self.hands
        play_off = self.rules.tie_break is not None
        while True:
            if hands_left is not None and hands_left <= 0 and not deciding:
                top = _highest(totals_x2)
                if len(top) == 1 or not play_off:
                    return top
                deciding = True
            if leader is None:
                leader = int(rng.random() * players)
            by_leader = books[leader]
            hand = by_leader[int(rng.random() * len(by_leader))]
            gain = hand.gain_x2
            if deciding:
                won = _settle_whole(totals_x2, gain)
                if won:
                    return won
            elif all(totals_x2[s] + gain[s] < target for s in sides):
                for s in sides:
                    totals_x2[s] += gain[s]
            else:
                won = _settle(totals_x2, hand.plays, hand.bonus_x2, target)
                if len(won) > 1 and play_off:
                    deciding = True
                elif won:
                    return won
            if hands_left is not None:
                hands_left -= 1
            # R21: the player who went out leads next; after a block, by lot.
            leader = None if hand.went_out < 0 else hand.went_out


def _highest(totals_x2: Sequence[int]) -> tuple[int, ...]:
    """The sides on the highest total."""
    best = max(totals_x2)
    return tuple(side for side, total in enumerate(totals_x2) if total == best)


def _settle_whole(totals_x2: list[int], gain_x2: Sequence[int]) -> tuple[int, ...]:
    """Add a play-off hand to the totals whole (no play of it ends the match): the side
    then alone on the highest total, or () while sides are still level."""
    for side, x2 in enumerate(gain_x2):
        totals_x2[side] += x2
    top = _highest(totals_x2)
    return top if len(top) == 1 else ()


def playing_off(
    rules: Rules, players: int, totals_x2: Sequence[int], hands_left: int | None
) -> bool:
    """Whether a match standing at `totals_x2` between hands plays a tie off (the
    rules' `tie_break`): sides tied on the highest total once the called clock's hands
    are played (`hands_left` 0 or less), or tied on the highest total past the target.

    >>> extra = Rules.from_json({"tie_break": "extra_hand"})
    >>> playing_off(extra, 2, [300, 300], 0), playing_off(extra, 2, [300, 300], 1)
    (True, False)
    >>> playing_off(extra, 2, [510, 510], None), playing_off(Rules(), 2, [510, 510], None)
    (True, False)
    """
    if rules.tie_break is None:
        return False
    top = _highest(totals_x2)
    if len(top) < 2:
        return False
    timed_out = hands_left is not None and hands_left <= 0
    return timed_out or totals_x2[top[0]] >= 2 * rules.target(players)


def _settle(
    totals_x2: list[int],
    plays: Sequence[tuple[int, int]],
    bonus_x2: Sequence[int],
    target_x2: int,
) -> tuple[int, ...]:
    """Add one hand to the totals, play by play then its end (R22); the winning sides,
    or () while nobody has reached the target."""
    for side, x2 in plays:  # the target may be reached in the middle of a hand
        totals_x2[side] += x2
        if totals_x2[side] >= target_x2:
            return (side,)
    reached = []
    for side, x2 in enumerate(bonus_x2):
        totals_x2[side] += x2
        if totals_x2[side] >= target_x2:
            reached.append(side)
    if not reached:
        return ()
    best = max(totals_x2[side] for side in reached)
    return tuple(side for side in reached if totals_x2[side] == best)


def _estimate(
    sides: int,
    draw: Callable[[], Sequence[float]],
    max_se: float,
    max_samples: int,
) -> Forecast:
    """Run `draw` (one sample: each side's share of the win in a simulated rest of the
    match, or the mean over a few) until every side's standard error is at most
    `max_se` — checked after `MIN_SAMPLES`, then at the sample count that the
    estimate so far needs — or `max_samples` runs. The standard error is the sample
    standard deviation over the square root of the samples (for single matches,
    the binomial ``sqrt(p(1-p)/n)``)."""
    sums = [0.0] * sides
    squares = [0.0] * sides
    n = 0
    goal = min(MIN_SAMPLES, max_samples)
    while True:
        while n < goal:
            for side, share in enumerate(draw()):
                sums[side] += share
                squares[side] += share * share
            n += 1
        worst = max(max(q / n - (t / n) ** 2, 0.0) for t, q in zip(sums, squares, strict=True))
        needed = math.ceil(worst / (max_se * max_se)) if max_se > 0 else max_samples
        if n >= needed or n >= max_samples:
            break
        goal = min(max_samples, max(needed, n + 1))
    return Forecast(tuple(t / n for t in sums), math.sqrt(worst / n), n)


def _shares(sides: int, winners: tuple[int, ...]) -> list[float]:
    """Each side's share of the win: 1 for the winner, a half each for a tie."""
    shares = [0.0] * sides
    for side in winners:
        shares[side] = 1.0 / len(winners)
    return shares


def chances_after_hand(
    book: HandBook,
    *,
    totals_x2: Sequence[int],
    next_leader: int | None,
    rng: random.Random,
    max_se: float = 0.01,
    max_samples: int = 20_000,
    hands_left: int | None = None,
) -> Forecast:
    """Each side's chance of winning between hands: totals so far (half-points, in
    side order), the seat that leads next (None: by lot) and, once time is called, the
    hands the clock still lets the match play (R24; a tie then is played off under the
    rules' `tie_break`, see `HandBook.finish`).

    >>> book = HandBook.build(players=2, rules=Rules(), greed=(1.0, 0.0), hands=300)
    >>> even = chances_after_hand(book, totals_x2=[0, 0], next_leader=None,
    ...                           rng=random.Random(1), max_se=0.02)
    >>> even.chances[0] > 0.6, even.standard_error <= 0.02
    (True, True)
    >>> chances_after_hand(book, totals_x2=[490, 0], next_leader=0,
    ...                    rng=random.Random(1)).chances[0] > 0.99
    True
    """
    sides = len(sides_of(book.players))
    if len(totals_x2) != sides:
        raise ValueError(f"give one total per side ({sides})")
    if next_leader is not None and not 0 <= next_leader < book.players:
        raise ValueError(f"the next leader must be a seat, not {next_leader!r}")
    start = list(totals_x2)
    deciding = playing_off(book.rules, book.players, start, hands_left)
    reached = [s for s in range(sides) if start[s] >= book.target_x2]
    timed_out = hands_left is not None and hands_left <= 0
    if (reached or timed_out) and not deciding:
        among = reached or range(sides)
        best = max(start[s] for s in among)
        top = [s for s in among if start[s] == best]
        return Forecast(tuple(1.0 / len(top) if s in top else 0.0 for s in range(sides)), 0.0, 0)
    finish = book.finish

    def draw() -> list[float]:
        won = finish(start[:], next_leader, rng, hands_left=hands_left, deciding=deciding)
        return _shares(sides, won)

    return _estimate(sides, draw, max_se, max_samples)


def _spectator_deal(state: HandState, rng: random.Random) -> tuple[list[int], list[int]]:
    """Fill every hand up to its tile count from the unseen tiles, at random; the rest
    is the boneyard (in drawing order)."""
    unseen = list(tiles_in(state.free))
    rng.shuffle(unseen)
    hands = state.hands[:]
    at = 0
    for seat in range(state.players):
        missing = state.held[seat] - hands[seat].bit_count()
        for t in unseen[at : at + missing]:
            hands[seat] |= BIT[t]
        at += missing
    return hands, unseen[at:]


def chances_in_hand(
    book: HandBook,
    *,
    state: HandState,
    totals_x2: Sequence[int],
    rng: random.Random,
    max_se: float = 0.01,
    max_samples: int = 20_000,
    hands_left: int | None = None,
    deciding: bool = False,
) -> Forecast:
    """Each side's chance of winning in the middle of a hand: `state` is the hand so
    far without a deal (as entered), `totals_x2` the sides' totals with its plays so
    far. The unseen tiles are dealt at random for each sample. Once time is called,
    `hands_left` counts the hands the clock lets the match play, this one included;
    `deciding` says this hand plays a tie off (no play of it ends the match, R24).

    >>> from allfives.moves import Move
    >>> book = HandBook.build(players=2, rules=Rules(), greed=(0.5, 0.5), hands=300)
    >>> hand = HandState(2, 0)
    >>> hand.apply(Move.play(0, "5-5")), hand.apply(Move.play(1, "5-0", "W"))
    (10, 10)
    >>> now = chances_in_hand(book, state=hand, totals_x2=[20, 20], rng=random.Random(2),
    ...                       max_se=0.03)
    >>> round(sum(now.chances), 6), now.standard_error <= 0.03
    (1.0, True)
    """
    if state.dealt:
        raise ValueError("give the hand as a spectator sees it, without its deal")
    if not state.layout.laid:
        raise ValueError("a hand that has not started: use chances_after_hand")
    sides = len(sides_of(book.players))
    if state.end_code:
        raise ValueError("the hand is over: use chances_after_hand")
    choosers = [mixed_strategy(g) for g in book.greed]
    start = list(totals_x2)
    target = book.target_x2
    finish = book.finish
    play_off = book.rules.tie_break is not None
    left = None if hands_left is None else hands_left - 1

    def draw() -> list[float]:
        hands, boneyard = _spectator_deal(state, rng)
        hand = state.copy()
        hand.dealt = True
        hand.hands = hands
        hand.free = sum(map(BIT.__getitem__, boneyard))
        if hand.pending < -1:  # a face not seen, or a draw that did not fit: drawn anew
            hand.pending = -1
        if not hand.boneyard_count:
            hand._check_block()  # the dealt tiles may leave nobody a play (R16)
        sample = _play_out(hand, choosers, rng, boneyard)
        totals = start[:]
        after = deciding
        if deciding:
            won = _settle_whole(totals, sample.gain_x2)
            if won:
                return _shares(sides, won)
        else:
            won = _settle(totals, sample.plays, sample.bonus_x2, target)
            if len(won) > 1 and play_off:
                after = True
            elif won:
                return _shares(sides, won)
        # Playing a hand out costs ten times a match finished from the book, so each
        # dealt hand is followed by several finishes: more precision per unit of time.
        leader = None if sample.went_out < 0 else sample.went_out
        shares = [0.0] * sides
        for _ in range(FINISHES_PER_DEAL):
            winners = finish(totals[:], leader, rng, hands_left=left, deciding=after)
            for side in winners:
                shares[side] += 1.0 / len(winners)
        return [share / FINISHES_PER_DEAL for share in shares]

    return _estimate(sides, draw, max_se, max_samples)
