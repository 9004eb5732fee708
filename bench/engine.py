"""Speed of the rules engine (``allfives``), printed as figures; not a test.

- *simulate*: complete tile-by-tile hands played per second by `simulate_matches`
  (deals, moves, scoresheet JSON objects, settlement), for each player count and
  strategy. Aim: at least 5,000 hands per second per core (hoped for: 20,000).
- *check*: recorded tile-by-tile hands judged per second from JSON text:
  ``json.loads`` then `check`, every rule of every move, output document
  included. Aim: at least 10,000 hands per second per core.

Rates are hands per second of this process's CPU time (one core), so that other
work on the machine does not count against the engine; the wall-clock rate is
printed alongside.

    .venv/bin/python bench/engine.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from allfives import Rules, check
from allfives.simulate import simulate_matches

SIMULATE_AIM = 5_000
CHECK_AIM = 10_000


def simulate_rate(players: int, strategy: str, seconds: float) -> tuple[float, float, int]:
    """Hands per CPU second and per wall second, and the hands played."""
    hands = 0
    cpu = time.process_time()
    wall = time.perf_counter()
    batch = 0
    while time.process_time() - cpu < seconds:
        for result in simulate_matches(
            players=players, matches=20, seed=f"bench-{batch}", strategies=[strategy]
        ):
            hands += len(result.stats.hands)
        batch += 1
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return hands / cpu, hands / wall, hands


def check_rate(players: int, seconds: float) -> tuple[float, float, int]:
    """Recorded hands checked per CPU second (JSON text in, verdict out)."""
    corpus = [
        json.dumps(result.document)
        for result in simulate_matches(players=players, matches=200, seed="bench-check")
    ]
    per_pass = sum(len(json.loads(text)["hands"]) for text in corpus)
    hands = 0
    cpu = time.process_time()
    wall = time.perf_counter()
    while time.process_time() - cpu < seconds:
        for text in corpus:
            verdict = check(json.loads(text))
            if not verdict["ok"]:
                raise SystemExit(f"a simulated scoresheet failed its check: {verdict}")
        hands += per_pass
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return hands / cpu, hands / wall, hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    args = parser.parse_args()
    print(f"allfives engine, Python {sys.version.split()[0]}, {args.seconds:g} CPU s per figure")
    print(f"{'':24}{'hands/s (CPU)':>15}{'hands/s (wall)':>16}{'hands':>9}   aim")
    for strategy in ("random", "greedy"):
        for players in (2, 3, 4):
            cpu, wall, hands = simulate_rate(players, strategy, args.seconds)
            mark = "ok" if cpu >= SIMULATE_AIM else "BELOW"
            label = f"simulate {players}p {strategy}"
            print(f"{label:24}{cpu:15,.0f}{wall:16,.0f}{hands:9,}   {SIMULATE_AIM:,} {mark}")
    for players in (2, 3, 4):
        cpu, wall, hands = check_rate(players, args.seconds)
        mark = "ok" if cpu >= CHECK_AIM else "BELOW"
        label = f"check {players}p (with JSON)"
        print(f"{label:24}{cpu:15,.0f}{wall:16,.0f}{hands:9,}   {CHECK_AIM:,} {mark}")
    rules = Rules()
    print(f"rules: targets {dict(rules.targets)}, hand sizes {dict(rules.hand_sizes)}")


if __name__ == "__main__":
    main()
