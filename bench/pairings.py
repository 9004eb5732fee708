"""Speed and quality of the pure pairing algorithms (``pairing.algorithms``), printed as
figures; not a test.

- *swiss*: 1,000 entrants over 9 rounds with simulated results (the stronger entrant wins
  more often). Required: at most 5 s a round (aim 1.5 s), no rematch.
- *swiss vs all pairs*: fields of 100, 200 and 300 over 9 rounds; the restricted graph's
  score cost (with its own full-graph fallback switched off) against networkx's blossom
  over every pair. Required: equal every round.
- *rotating*: 64 players, rotating partners at four-player tables, 7 rounds. Required: at
  most 10 s a round, no partner repeat; aim: no repeated opponent either.
- *group swiss*: 64 (and 32) individuals at four-player tables, 7 rounds, planning the
  rounds still to come. Required: no repeated meeting.
- *round robin*: 27 players at three-player tables (and 16 at four; whist schedules for
  8, 12 and 16). Required: every pair exactly once.
- *round robins drawn*: the round robins where a design or a published social-golfer
  schedule exists, drawn round by round through the dispatcher as a tournament would.
  Required: no pair meets twice.

Times are this process's CPU seconds (so that other work on the machine does not count
against the algorithms), wall seconds alongside. Exits 1 if a requirement is missed.

    .venv/bin/python bench/pairings.py [--skip-full]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.algorithms import (
    Draw,
    Entrant,
    History,
    Schedule,
    group_round_robin_schedule,
    group_swiss_seat,
    rotating_seat,
    swiss_pair,
    whist_schedule,
)
from pairing.algorithms.designs import (
    _data,
    affine_resolution,
    golf_schedule,
    kirkman_resolution,
    kirkman_two_levels,
    resolvable_four,
    resolvable_four_three_levels,
    rotational_resolution,
)
from pairing.algorithms.dispatch import DrawField, EarlierRound, _group_round_robin, draw_compute

SWISS_REQUIRED, SWISS_AIM = 5.0, 1.5
ROTATING_REQUIRED = 10.0
failures: list[str] = []


def timed[T](run: Callable[[], T]) -> tuple[T, float, float]:
    """Result, CPU seconds, wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = run()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def require(ok: bool, what: str) -> str:
    if not ok:
        failures.append(what)
    return "ok" if ok else "MISSED"


def play(draw: Draw, strength: dict[int, float], rng: random.Random, score: dict[int, int]) -> None:
    """Simulated results: a side wins with probability proportional to its strength."""
    for table in draw.tables:
        sides = table.sides
        weights = [sum(strength[p] for p in side) for side in sides]
        for p in rng.choices(sides, weights)[0]:
            score[p] += 1
    for b in draw.byes:
        score[b] += 1


def swiss(n: int = 1000, rounds: int = 9) -> None:
    print(f"\n== swiss: {n} entrants, {rounds} rounds")
    print(" round   cpu s  wall s  rematches  largest gap  score cost  certified")
    rng = random.Random(1)
    strength = {i: rng.random() for i in range(n)}
    score = dict.fromkeys(range(n), 0)
    byes: set[int] = set()
    history = History()
    worst = 0.0
    rematches = 0
    for r in range(rounds):
        entrants = [Entrant(i, score[i], rank=i + 1, had_bye=i in byes) for i in range(n)]
        draw, cpu, wall = timed(partial(swiss_pair, entrants, history, seed=r))
        rep = draw.report
        print(
            f" {r + 1:5}  {cpu:6.2f}  {wall:6.2f}  {rep.rematches:9}  {rep.largest_score_gap!s:>11}"
            f"  {rep.score_cost!s:>10}  {rep.is_certified_optimal}"
        )
        worst, rematches = max(worst, cpu), rematches + rep.rematches
        play(draw, strength, rng, score)
        byes.update(draw.byes)
        history = history.with_tables(draw.tables)
    verdict = require(worst <= SWISS_REQUIRED, "swiss time")
    aim = "aim met" if worst <= SWISS_AIM else f"aim {SWISS_AIM} s missed"
    print(f" slowest round {worst:.2f} s CPU (required {SWISS_REQUIRED} s: {verdict}; {aim})")
    print(f" rematches in all: {rematches} ({require(rematches == 0, 'swiss rematches')})")


def swiss_versus_full(sizes: tuple[int, ...] = (100, 200, 300), rounds: int = 9) -> None:
    print(f"\n== swiss vs all pairs: restricted graph against the full blossom, {rounds} rounds")
    print("  field  rounds equal  restricted cpu s (max)  full cpu s (max)")
    for n in sizes:
        rng = random.Random(n)
        strength = {i: rng.random() for i in range(n)}
        score = dict.fromkeys(range(n), 0)
        byes: set[int] = set()
        history = History()
        equal, slow_restricted, slow_full = 0, 0.0, 0.0
        for r in range(rounds):
            entrants = [Entrant(i, score[i], rank=i + 1, had_bye=i in byes) for i in range(n)]
            draw, cpu, _ = timed(partial(swiss_pair, entrants, history, seed=r, exact_limit=0))
            full, full_cpu, _ = timed(
                partial(swiss_pair, entrants, history, seed=r, strategy="full")
            )
            same = (draw.report.rematches, draw.report.score_cost, draw.byes) == (
                full.report.rematches,
                full.report.score_cost,
                full.byes,
            )
            equal += same
            slow_restricted, slow_full = max(slow_restricted, cpu), max(slow_full, full_cpu)
            play(draw, strength, rng, score)
            byes.update(draw.byes)
            history = history.with_tables(draw.tables)
        verdict = require(equal == rounds, f"swiss vs full at {n}")
        print(
            f"  {n:5}  {equal:>5}/{rounds} {verdict:<6}  {slow_restricted:22.2f}  {slow_full:16.2f}"
        )


def rotating(n: int = 64, rounds: int = 7) -> None:
    print(f"\n== rotating partners: {n} players, {rounds} rounds")
    print(" round   cpu s  wall s  partner repeats  opponent repeats  largest gap")
    rng = random.Random(2)
    strength = {i: rng.random() for i in range(n)}
    score = dict.fromkeys(range(n), 0)
    history = History()
    worst = 0.0
    for r in range(rounds):
        entrants = [Entrant(i, score[i], rank=i + 1) for i in range(n)]
        draw, cpu, wall = timed(partial(rotating_seat, entrants, history, seed=r))
        rep = draw.report
        print(
            f" {r + 1:5}  {cpu:6.2f}  {wall:6.2f}  {rep.partner_repeats:15}"
            f"  {rep.opponent_repeats:16}  {rep.largest_score_gap!s:>11}"
        )
        worst = max(worst, cpu)
        play(draw, strength, rng, score)
        history = history.with_tables(draw.tables)
    partners = max(history.partnered.values())
    opponents = max((history.met[p] - history.partnered.get(p, 0) for p in history.met), default=0)
    print(
        f" slowest round {worst:.2f} s CPU ({require(worst <= ROTATING_REQUIRED, 'rotating time')})"
    )
    print(
        f" most times one pair partnered: {partners} ({require(partners == 1, 'partner repeat')})"
    )
    aim = "aim met" if opponents == 1 else "aim missed"
    print(f" most times one pair opposed: {opponents} ({aim})")


def group_swiss(n: int, rounds: int = 7) -> None:
    print(f"\n== group swiss: {n} individuals at four-player tables, {rounds} rounds")
    print(" round   cpu s  wall s  repeated meetings  largest gap  score cost")
    rng = random.Random(3)
    strength = {i: rng.random() for i in range(n)}
    score = dict.fromkeys(range(n), 0)
    history = History()
    for r in range(rounds):
        entrants = [Entrant(i, score[i], rank=i + 1) for i in range(n)]
        draw, cpu, wall = timed(
            partial(group_swiss_seat, entrants, history, seed=r, rounds_left=rounds - r)
        )
        rep = draw.report
        print(
            f" {r + 1:5}  {cpu:6.2f}  {wall:6.2f}  {rep.rematches:17}"
            f"  {rep.largest_score_gap!s:>11}  {rep.score_cost!s:>10}"
        )
        play(draw, strength, rng, score)
        history = history.with_tables(draw.tables)
    most = max(history.met.values())
    print(f" most times one pair met: {most} ({require(most == 1, f'group swiss {n}')})")


def round_robins() -> None:
    print("\n== round robins and whist: repeats against the known optimum")
    print("  case                              cpu s  rounds  repeats  optimum  construction")
    cases: list[tuple[str, int, Callable[[], Schedule]]] = []
    for n, size, rounds in (
        *((n, 3, (n - 1) // 2) for n in range(9, 64, 6)),
        *((n, 4, (n - 1) // 3) for n in range(16, 65, 12)),
        (32, 4, 7),
        (32, 4, 9),
        (32, 4, 10),
        (36, 4, 9),
        (36, 4, 11),
    ):
        # 0 where a design exists (every Kirkman system and resolvable design with tables
        # of four); 32 and 36 at four: social-golfer schedules with no repeat are published
        # for 10 and 11 rounds, the most a player can have without meeting anyone twice.
        cases.append(
            (
                f"{n} players at {size}, {rounds} rounds",
                0,
                partial(
                    group_round_robin_schedule,
                    list(range(n)),
                    seed=0,
                    table_size=size,
                    rounds=rounds,
                ),
            )
        )
    for n in (8, 12, 16, 24, 28, 32, 36, 44, 48, 57, 60, 64, 11, 23):
        cases.append((f"whist, {n} players", 0, partial(whist_schedule, list(range(n)), seed=0)))
    for name, optimum, build in cases:
        try:
            schedule, cpu, _ = timed(build)
        except Exception as error:  # a missing design is a figure, not a crash
            failures.append(name)
            print(f"  {name:32}  MISSED: {error}")
            continue
        report = schedule.report
        if name.startswith("whist"):
            partners: Counter[frozenset[int]] = Counter()
            for d in schedule.rounds:
                for t in d.tables:
                    s = t.seats
                    if len(s) == 4:
                        partners.update([frozenset((s[0], s[2])), frozenset((s[1], s[3]))])
            ids = {e for d in schedule.rounds for t in d.tables for e in t.seats}
            # repeats: pairs partnered other than once plus pairs opposed other than twice
            repeats = sum(partners[frozenset(p)] != 1 for p in combinations(sorted(ids), 2))
            repeats += (
                0
                if report.opponent_counts == (2,)
                else sum(1 for _ in report.opponent_counts if _ != 2)
            )
            optimum = 0 if len(ids) % 4 in (0, 1) else repeats
        else:
            repeats = report.excess_meetings
        verdict = require(repeats <= optimum, name)
        print(
            f"  {name:32}  {cpu:5.2f}  {len(schedule.rounds):6}  {repeats:7}  {optimum:7}"
            f"  {verdict}  {schedule.construction}"
        )


def round_robins_drawn() -> None:
    print("\n== round robins drawn round by round through the dispatcher (byes refused)")
    print("  case                              cpu s  wall s  repeats  optimum")
    for n, size, rounds in (
        (21, "3", 10),
        (33, "3", 16),
        (39, "3", 19),
        (28, "4", 9),
        (40, "4", 13),
        (32, "4", 9),
        (32, "4", 10),
        (36, "4", 11),
    ):
        name = f"{n} players at {size}, {rounds} rounds"
        _forget_built_designs()  # timed from cold: the design is built as well as drawn
        draws, cpu, wall = timed(partial(_draw_round_robin, n, size, rounds))
        met = Counter(
            frozenset(p) for d in draws for t in d.tables for p in combinations(t.seats, 2)
        )
        repeats = sum(c - 1 for c in met.values())
        verdict = require(repeats == 0, f"round robin drawn, {name}")
        print(f"  {name:32}  {cpu:5.2f}  {wall:6.2f}  {repeats:7}  {0:7}  {verdict}")


def _forget_built_designs() -> None:
    for built in (
        _data,
        affine_resolution,
        kirkman_resolution,
        kirkman_two_levels,
        resolvable_four,
        resolvable_four_three_levels,
        rotational_resolution,
        golf_schedule,
        _group_round_robin,
    ):
        built.cache_clear()


def _draw_round_robin(n: int, table_size: str, rounds: int) -> list[Draw]:
    draws: list[Draw] = []
    history = History()
    for number in range(1, rounds + 1):
        field = DrawField(
            format="round_robin",
            table_size=table_size,
            allow_byes=False,
            tournament_seed=11,
            rounds_count=rounds,
            round_number=number,
            entrants=tuple(Entrant(i, 0, rank=i + 1) for i in range(n)),
            history=history,
            earlier_rounds=tuple(
                EarlierRound(k, tuple(t.seats for t in d.tables), frozenset(d.byes))
                for k, d in enumerate(draws, start=1)
            ),
        )
        draw = draw_compute(field, seed=number)
        draws.append(draw)
        history = history.with_tables(draw.tables)
    return draws


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-full", action="store_true", help="skip the all-pairs blossom")
    args = parser.parse_args()
    swiss()
    if not args.skip_full:
        swiss_versus_full()
    rotating()
    group_swiss(64)
    group_swiss(32)
    round_robins()
    round_robins_drawn()
    print("\nall requirements met" if not failures else f"\nMISSED: {', '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
