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
- *round robin*: 21 to 63 players at three-player tables and 16 to 64 at four, as many
  rounds as a design allows. Required: no pair more than once where a design exists.
- *whist*: every count from 4 to 64 players. 4n and 4n + 1: the whist tournament, every
  pair partners once and opposes twice (required); 4n + 3: the whist with one empty seat;
  4n + 2: seated round by round. Each row gives the pairs partnered other than once and
  opposed other than twice, and the time.

Times are this process's CPU seconds (so that other work on the machine does not count
against the algorithms), wall seconds alongside. Exits 1 if a requirement is missed.

    .venv/bin/python bench/pairings.py [--skip-full] [--whist-only]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from functools import partial
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
    schedule_report,
    swiss_pair,
    whist_schedule,
)

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
        (21, 3, 10),
        (27, 3, 13),
        (33, 3, 16),
        (45, 3, 22),
        (63, 3, 31),
        (16, 4, 5),
        (28, 4, 9),
        (40, 4, 13),
        (52, 4, 17),
        (64, 4, 21),
        (32, 4, 7),
        (32, 4, 9),
    ):
        # 0 where a design exists; 32 at four: social-golfer schedules with no repeat are
        # published for up to 10 rounds.
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
    for name, optimum, build in cases:
        try:
            schedule, cpu, _ = timed(build)
        except Exception as error:  # a missing design is a figure, not a crash
            failures.append(name)
            print(f"  {name:32}  MISSED: {error}")
            continue
        repeats = schedule.report.excess_meetings
        verdict = require(repeats <= optimum, name)
        print(
            f"  {name:32}  {cpu:5.2f}  {len(schedule.rounds):6}  {repeats:7}  {optimum:7}"
            f"  {verdict}  {schedule.construction}"
        )


def one_round_at_a_time(ids: list[int], rounds: int) -> Schedule:
    """Rotating partners seated round by round (the dispatcher's way off the whist)."""
    history, draws = History(), []
    entrants = [Entrant(i, 0, rank=i + 1) for i in ids]
    smallest = 2 if len(ids) % 4 == 2 else 3
    for r in range(rounds):
        draw = rotating_seat(entrants, history, seed=r, by_standing=False, smallest=smallest)
        draws.append(draw)
        history = history.with_tables(draw.tables)
    return Schedule(tuple(draws), schedule_report(draws, ids), "seated round by round")


def partner_bound(schedule: Schedule, n: int) -> int:
    """Least number of pairs partnered other than once: every pair the schedule's
    four-player tables leave no room to partner (each partnership at most once)."""
    partnerships = sum(2 for d in schedule.rounds for t in d.tables if len(t.seats) == 4)
    return max(0, n * (n - 1) // 2 - partnerships)


def whists() -> None:
    print("\n== whist: pairs partnered other than once / opposed other than twice, against the")
    print("   known optimum (0 where a whist tournament exists; partners: the pairs the tables")
    print("   leave no room for; opponents: no bound known off the whist sizes)")
    print("  players  cpu s  rounds  partner dev  optimum  opponent dev  optimum  construction")
    cases: list[tuple[int, Callable[[], Schedule]]] = [
        (n, partial(whist_schedule, list(range(n)), seed=0))
        for n in range(4, 65)
        if n % 4 in (0, 1, 3)
    ]
    cases += [(n, partial(one_round_at_a_time, list(range(n)), n - 1)) for n in (6, 10, 18, 26)]
    for n, build in cases:
        try:
            schedule, cpu, _ = timed(build)
        except Exception as error:  # a missing design is a figure, not a crash
            if n % 4 in (0, 1):
                failures.append(f"whist {n}")
            print(f"  {n:7}  MISSED: {error}")
            continue
        report = schedule.report
        exact = n % 4 in (0, 1)
        partner_optimum = 0 if exact else partner_bound(schedule, n)
        opponent_optimum = "0" if exact else "-"
        ok = report.whist_partner_deviation <= partner_optimum
        if exact:
            ok = ok and report.whist_opponent_deviation == 0
        verdict = require(ok, f"whist {n}")
        print(
            f"  {n:7}  {cpu:5.2f}  {len(schedule.rounds):6}  {report.whist_partner_deviation:11}"
            f"  {partner_optimum:7}  {report.whist_opponent_deviation:12}  {opponent_optimum:>7}"
            f"  {verdict}  {schedule.construction}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-full", action="store_true", help="skip the all-pairs blossom")
    parser.add_argument("--whist-only", action="store_true", help="only the whist figures")
    args = parser.parse_args()
    if args.whist_only:
        whists()
        print("\nall requirements met" if not failures else f"\nMISSED: {', '.join(failures)}")
        return 1 if failures else 0
    swiss()
    if not args.skip_full:
        swiss_versus_full()
    rotating()
    group_swiss(64)
    group_swiss(32)
    round_robins()
    whists()
    print("\nall requirements met" if not failures else f"\nMISSED: {', '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
