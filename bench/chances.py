"""Cost and precision of the live chances of winning (``allfives.chances``); not a test.

For each table size it prints the time to build the table's book of simulated hands
(once per process and table kind), then for a series of match states — between hands
at several scores, and in the middle of a hand after each of its plays — the CPU time
of one update and the standard error it reached. Aim: at most 100 ms per update on one
core with a standard error of at most one percentage point.

``--curve`` measures the strength of each greed against greed-0.5 sides (the
``matches.chances.GREED_CURVE`` that maps ratings to simulated players).

    .venv/bin/python bench/chances.py [--curve]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from allfives import HandState, Move, Rules, side_of, sides_of
from allfives.chances import HandBook, chances_after_hand, chances_in_hand
from allfives.simulate import play_match

AIM_MS = 100.0
AIM_SE = 0.01


def _timed(run: object) -> tuple[float, float]:
    assert callable(run)
    cpu = time.process_time()
    forecast = run()
    return 1000 * (time.process_time() - cpu), forecast.standard_error


def bench_updates(players: int) -> None:
    rules = Rules()
    greed = tuple(0.5 + 0.1 * (seat % 2) for seat in range(players))
    cpu = time.process_time()
    book = HandBook.build(players=players, rules=rules, greed=greed, seed="bench")
    print(
        f"{players} players: book of {len(book.hands[0])} hands per leader built in "
        f"{time.process_time() - cpu:.2f} s CPU"
    )
    sides = len(sides_of(players))
    target_x2 = book.target_x2
    rng = random.Random("bench")
    after: list[tuple[float, float]] = []
    for share in (0.0, 0.3, 0.6, 0.9):
        for lead in (None, 0):
            totals = [int(target_x2 * share * (1 - 0.2 * s)) // 10 * 10 for s in range(sides)]
            after.append(
                _timed(
                    lambda t=totals, lead=lead: chances_after_hand(
                        book, totals_x2=t, next_leader=lead, rng=rng
                    )
                )
            )
    # Mid-hand: the plays of a simulated hand, replayed without its deal.
    played = play_match(
        players=players, rules=rules, rng=random.Random(3), strategies=["greedy"] * players
    )
    hand_json = played.document["hands"][0]
    assert isinstance(hand_json, dict)
    state = HandState(players, hand_json["leader"], rules=rules)
    totals = [0] * sides
    within: list[tuple[float, float]] = []
    for raw in hand_json["moves"]:
        move = Move.parse(raw)
        points = state.apply(move)
        if points:
            totals[side_of(move.seat, players)] += 2 * points
        if move.kind == "play" and not state.is_over():
            within.append(
                _timed(lambda t=totals[:]: chances_in_hand(book, state=state, totals_x2=t, rng=rng))
            )
    for name, rows in (("between hands", after), ("within a hand", within)):
        times = [t for t, _ in rows]
        errors = [100 * e for _, e in rows]
        print(
            f"  {name:14} {len(rows):3} updates: CPU ms per update mean "
            f"{statistics.mean(times):6.1f}, max {max(times):6.1f} (aim {AIM_MS:.0f}); "
            f"standard error max {max(errors):.2f} points (aim {100 * AIM_SE:.0f})"
        )


def bench_curve() -> None:
    print("greed  strength against greed-0.5 sides (log-weight), by table size")
    for players in (2, 3, 4):
        for g in (0.0, 0.25, 0.75, 1.0):
            greed = [0.5] * players
            greed[0] = g
            if players == 4:
                greed[2] = g
            book = HandBook.build(
                players=players, rules=Rules(), greed=greed, hands=3000, seed="curve"
            )
            f = chances_after_hand(
                book,
                totals_x2=[0] * len(sides_of(players)),
                next_leader=None,
                rng=random.Random(1),
                max_se=0.005,
                max_samples=100_000,
            )
            p = f.chances[0]
            others = len(sides_of(players)) - 1
            print(
                f"  {players} players, greed {g:.2f}: wins {p:.3f}, strength "
                f"{math.log(others * p / (1 - p)):+.3f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--curve", action="store_true", help="measure the greed curve")
    args = parser.parse_args()
    if args.curve:
        bench_curve()
        return
    for players in (2, 3, 4):
        bench_updates(players)


if __name__ == "__main__":
    main()
