"""Speed of the rules engine (``allfives``) beside a plain baseline run in the same process.

- *simulate*: complete tile-by-tile hands played per second by `simulate_matches`
  (deals, moves, scoresheet JSON objects, settlement), per player count and
  strategy. Aim: at least 30,000 hands per second per core.
- *check*: recorded tile-by-tile hands judged per second, JSON in and out:
  ``json.loads``, `check` (every rule of every move), ``json.dumps`` of the
  verdict. Aim: at least 30,000 hands per second per core.
- *command line*: what ``python -m allfives check --lines`` spends per document
  outside `check` itself (reading, parsing arguments, JSON in and out, writing),
  run in-process on simulated matches. Aim: at most 0.2 ms.

Each engine figure stands beside a *baseline* measured in the same run: a
straightforward replay or simulation written here through the engine's public,
fully checked API (`HandState.apply`, `Move.parse`, `MatchState`,
`HandState.legal_moves`), with no shortcut. Before timing, the bench checks that
the baseline and the engine agree on every document (the same verdicts; the
same simulated scoresheets, move for move), so the ratio compares equal work.

Rates are hands per second of this process's CPU time (one core), so that other
work on the machine counts less against the engine; a loaded machine still
slows both sides, which is why the ratio is printed.

    .venv/bin/python bench/engine.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from allfives import (
    FORMAT,
    HandState,
    MatchState,
    Move,
    Rules,
    check,
    side_of,
    sides_of,
    winner_json,
)
from allfives.cli import main as cli_main
from allfives.hand import deal_tiles
from allfives.simulate import simulate_matches
from allfives.tiles import PIPS, TEXT

#: JSON out as ``check --lines`` writes it: compact, no circular-reference bookkeeping.
encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
SIMULATE_AIM = 30_000
CHECK_AIM = 30_000
CLI_AIM_MS = 0.2


# --------------------------------------------------------------------------- baselines


def _points(points_x2: dict[int, int]) -> dict[str, int | float]:
    return {str(side): x2 // 2 if x2 % 2 == 0 else x2 / 2 for side, x2 in points_x2.items()}


def baseline_check(document: dict[str, object]) -> dict[str, object]:
    """The verdict on a scoresheet of tile-by-tile hands with deals, by `HandState.apply`."""
    players = document["players"]
    assert isinstance(players, int)
    rules = Rules.from_json(document.get("rules"))
    match = MatchState(players, rules)
    hands = []
    hands_in = document["hands"]
    assert isinstance(hands_in, list)
    for hand in hands_in:
        leader = hand["leader"]
        match.start_hand(leader)
        state = HandState(players, leader, rules=rules, deal=hand["deal"])
        plays = []
        points_x2 = dict.fromkeys(sides_of(players), 0)
        over = False
        for index, obj in enumerate(hand["moves"]):
            assert not over, "a move after the target"
            move = Move.parse(obj)
            scored = state.apply(move)
            if move.is_play:
                plays.append(
                    {"move": index, "seat": move.seat, "count": state.count, "points": scored}
                )
                if scored:
                    points_x2[side_of(move.seat, players)] += 2 * scored
                    over = match.score_play(move.seat, scored)
        if over:
            match.end_hand(None)
            end, winners, bonus = "target", [], {}
        else:
            settlement = state.settle()
            match.settle(settlement)
            match.end_hand(state.went_out)
            end, winners, bonus = settlement.end, list(settlement.hand_winner), settlement.bonus_x2
            for side, points in bonus.items():
                points_x2[side] += points
        hands.append(
            {
                "plays": plays,
                "end": end,
                "hand_winner": winners,
                "bonus": _points(dict(bonus)),
                "points": _points(points_x2),
                "leader": leader,
                "mode": "tiles",
            }
        )
    return {
        "ok": True,
        "hands": hands,
        "totals": _points(match.totals_x2),
        "winner": winner_json(match.winners),
        "finished": match.is_over,
        "next_leader": match.next_leader,
    }


def _choose(state: HandState, strategy: str, rng: random.Random) -> Move:
    """A simulated player's move: draw or pass when forced, else a play by `strategy`."""
    scored = state.scored_moves()
    plays = [(move, points) for move, points in scored if move.is_play]
    if not plays:
        return scored[0][0]
    if strategy == "random" and len(plays) > 1:
        return plays[int(rng.random() * len(plays))][0]
    # greedy: most points now, then the heaviest tile, then the first
    best = plays[0]
    for play in plays:
        assert play[0].tile is not None and best[0].tile is not None
        if play[1] * 16 + PIPS[play[0].tile.index] > best[1] * 16 + PIPS[best[0].tile.index]:
            best = play
    return best[0]


def baseline_match(players: int, strategy: str, rng: random.Random) -> dict[str, object]:
    """One simulated match through `legal_moves`/`apply`, as `simulate_matches` plays it."""
    rules = Rules()
    match = MatchState(players, rules)
    hands: list[object] = []
    leader = rng.randrange(players)
    while True:
        dealt, boneyard = deal_tiles(players, rules, rng)
        deal = [[TEXT[t] for t in hand] for hand in dealt]
        state = HandState(players, leader, rules=rules, deal=deal)
        moves = []
        over = False
        while not state.is_over():
            move = _choose(state, strategy, rng)
            if move.is_draw:
                move = Move.draw(move.seat, TEXT[boneyard.pop()])
            points = state.apply(move)
            moves.append(move.to_json())
            if points and match.score_play(move.seat, points):
                over = True
                break
        hands.append({"leader": leader, "deal": deal, "moves": moves})
        if over:
            break
        match.settle(state.settle())
        match.end_hand(state.went_out)
        if match.is_over:
            break
        leader = rng.randrange(players) if match.next_leader is None else match.next_leader
    return {"format": FORMAT, "players": players, "rules": rules.to_json(), "hands": hands}


def baseline_matches(players: int, matches: int, seed: str, strategy: str) -> Iterator[object]:
    for k in range(matches):
        yield baseline_match(players, strategy, random.Random(f"{seed}:{k}"))  # nosec B311


# --------------------------------------------------------------------------- timing


def rate(run: Callable[[int], int], seconds: float) -> float:
    """Hands per CPU second of `run(batch)`, which returns the hands it did."""
    hands = 0
    batch = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        hands += run(batch)
        batch += 1
    return hands / (time.process_time() - start)


def simulate_figures(players: int, strategy: str, seconds: float) -> tuple[float, float]:
    engine_docs = [
        r.document
        for r in simulate_matches(players=players, matches=30, seed="agree", strategies=[strategy])
    ]
    baseline_docs = list(baseline_matches(players, 30, "agree", strategy))
    if engine_docs != baseline_docs:
        raise SystemExit(f"simulate {players}p {strategy}: the engine and the baseline disagree")

    def engine(batch: int) -> int:
        results = simulate_matches(
            players=players, matches=20, seed=f"bench-{batch}", strategies=[strategy]
        )
        return sum(len(result.stats.hands) for result in results)

    def baseline(batch: int) -> int:
        docs = baseline_matches(players, 5, f"bench-{batch}", strategy)
        return sum(len(doc["hands"]) for doc in docs)  # type: ignore[index]

    return rate(engine, seconds), rate(baseline, seconds)


def corpus(players: int) -> list[str]:
    results = simulate_matches(players=players, matches=200, seed="bench-check")
    return [json.dumps(result.document) for result in results]


def check_figures(players: int, seconds: float) -> tuple[float, float]:
    texts = corpus(players)
    for text in texts:
        verdict = check(json.loads(text))
        if verdict != baseline_check(json.loads(text)) or not verdict["ok"]:
            raise SystemExit(f"check {players}p: the engine and the baseline disagree")
    per_pass = sum(len(json.loads(text)["hands"]) for text in texts)

    def judge(replay: Callable[[dict[str, object]], dict[str, object]]) -> Callable[[int], int]:
        def run(batch: int) -> int:
            for text in texts:
                encode(replay(json.loads(text)))
            return per_pass

        return run

    return rate(judge(check), seconds), rate(judge(baseline_check), seconds / 4)


def cli_overhead_ms(texts: Iterable[str]) -> tuple[float, float]:
    """Milliseconds per document that ``check --lines`` and ``check FILE`` spend
    outside `check` itself."""
    lines = list(texts)
    documents = [json.loads(text) for text in lines]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "matches.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        single = Path(folder) / "match.json"
        single.write_text(lines[0], encoding="utf-8")
        best_lines = best_checks = best_single = float("inf")
        for _ in range(5):
            start = time.process_time()
            cli_main(["check", "--lines", str(path)], stdout=io.StringIO())
            best_lines = min(best_lines, time.process_time() - start)
            start = time.process_time()
            for document in documents:
                check(document)
            best_checks = min(best_checks, time.process_time() - start)
            start = time.process_time()
            for _ in range(100):
                cli_main(["check", str(single)], stdout=io.StringIO())
            best_single = min(best_single, (time.process_time() - start) / 100)
        one_check = float("inf")
        for _ in range(20):
            start = time.process_time()
            check(documents[0])
            one_check = min(one_check, time.process_time() - start)
    per_line = (best_lines - best_checks) / len(lines) * 1000
    return per_line, (best_single - one_check) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    args = parser.parse_args()
    print(f"allfives engine, Python {sys.version.split()[0]}, {args.seconds:g} CPU s per figure")
    print(f"{'hands/s per core (CPU)':28}{'engine':>10}{'baseline':>10}{'ratio':>8}   aim")
    for strategy in ("random", "greedy"):
        for players in (2, 3, 4):
            engine, baseline = simulate_figures(players, strategy, args.seconds)
            mark = "ok" if engine >= SIMULATE_AIM else "BELOW"
            label = f"simulate {players}p {strategy}"
            print(
                f"{label:28}{engine:10,.0f}{baseline:10,.0f}{engine / baseline:7.1f}x"
                f"   {SIMULATE_AIM:,} {mark}"
            )
    for players in (2, 3, 4):
        engine, baseline = check_figures(players, args.seconds)
        mark = "ok" if engine >= CHECK_AIM else "BELOW"
        label = f"check {players}p (JSON in, out)"
        print(
            f"{label:28}{engine:10,.0f}{baseline:10,.0f}{engine / baseline:7.1f}x"
            f"   {CHECK_AIM:,} {mark}"
        )
    per_line, per_file = cli_overhead_ms(corpus(2))
    mark = "ok" if per_line <= CLI_AIM_MS else "ABOVE"
    print(f"check --lines: {per_line:.3f} ms per document outside check   {CLI_AIM_MS} {mark}")
    print(f"check FILE (one call in-process): {per_file:.3f} ms outside check")
    rules = Rules()
    print(f"rules: targets {dict(rules.targets)}, hand sizes {dict(rules.hand_sizes)}")


if __name__ == "__main__":
    main()
