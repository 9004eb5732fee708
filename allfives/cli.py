"""The command line: ``python -m allfives check`` and ``python -m allfives simulate``.

``check FILE|-`` prints the docs/scoresheet.md verdict on one scoresheet and exits
0 when it keeps every rule, 1 when it breaks one, 2 when it cannot be read or
is not the format (``bad_format``). With ``--lines`` the file holds one
scoresheet per line (JSON Lines, as ``simulate --out`` writes) and one compact
verdict is printed per line; the exit status is the worst. With ``--strict`` the
``format`` field must be given, as the API's import requires (else ``bad_format``).

``simulate --players N --matches M --seed S [--strategy random|greedy|a,b,…]
[--rules JSON] [--out FILE]`` plays M matches (deterministic for a seed),
writes their complete tile-by-tile scoresheets with deals to FILE as JSON Lines
(a single match is then also a plain JSON document) and prints a summary.

The parser is built once per process, not per call: building it looks up
argparse's gettext catalogue for every help string, which cost far more than
checking a scoresheet. Verdicts are encoded by one reusable encoder (compact,
no circular-reference bookkeeping: a verdict is a fresh tree).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from typing import Final, TextIO

from allfives.errors import AllFivesError, engine_error
from allfives.rules import Rules
from allfives.scoresheet import check, format_check
from allfives.simulate import simulate_matches, summarize
from allfives.strategies import STRATEGIES

__all__ = ["main"]

EXIT_OK = 0
EXIT_BROKEN = 1
EXIT_UNREADABLE = 2
#: One verdict per line (``--lines``): compact, at C speed.
_LINE: Final = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def _unreadable(detail: str) -> dict[str, object]:
    error = engine_error("bad_format", detail_code="unreadable", why=detail)
    return {"ok": False, "error": error.to_json()}


def _status(verdict: dict[str, object]) -> int:
    if verdict["ok"]:
        return EXIT_OK
    error = verdict["error"]
    code = error.get("code") if isinstance(error, dict) else None
    return EXIT_UNREADABLE if code in ("bad_format", "internal_error") else EXIT_BROKEN


def _verdict(text: str, *, strict: bool = False) -> dict[str, object]:
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        return _unreadable(f"not valid JSON: {error}")
    if strict and isinstance(document, dict):
        try:
            format_check(document, required=True)
        except AllFivesError as error:
            return {"ok": False, "error": error.to_json()}
    return check(document)


def _read(path: str, stdin: TextIO) -> str:
    if path == "-":
        return stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _check(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    try:
        text = _read(args.file, stdin)
    except (OSError, UnicodeDecodeError) as error:
        verdict = _unreadable(f"cannot read {args.file}: {error}")
        print(json.dumps(verdict, indent=2), file=stdout)
        return EXIT_UNREADABLE
    if not args.lines:
        verdict = _verdict(text, strict=args.strict)
        print(json.dumps(verdict, indent=2, ensure_ascii=False), file=stdout)
        return _status(verdict)
    worst = EXIT_OK
    out = []
    for line in text.splitlines():
        if line.strip():
            verdict = _verdict(line, strict=args.strict)
            out.append(_LINE(verdict))
            status = _status(verdict)
            if status > worst:
                worst = status
    if out:
        out.append("")
        stdout.write("\n".join(out))
    return worst


def _rules(text: str | None) -> Rules:
    if text is None:
        return Rules()
    if text.startswith("@"):
        with open(text[1:], encoding="utf-8") as handle:
            text = handle.read()
    return Rules.from_json(json.loads(text))


def _simulate(args: argparse.Namespace, stdout: TextIO) -> int:
    try:
        rules = _rules(args.rules)
    except (OSError, ValueError) as error:
        message = error.message if isinstance(error, AllFivesError) else str(error)
        print(f"simulate: bad --rules: {message}", file=sys.stderr)
        return EXIT_UNREADABLE
    strategies = args.strategy.split(",")
    if any(name not in STRATEGIES for name in strategies) or len(strategies) not in (
        1,
        args.players,
    ):
        print(
            f"simulate: --strategy takes one of {sorted(STRATEGIES)} or one per seat",
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    stats = []
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    try:
        for result in simulate_matches(
            players=args.players,
            matches=args.matches,
            seed=args.seed,
            rules=rules,
            strategies=strategies,
        ):
            stats.append(result.stats)
            if out is not None:
                out.write(json.dumps(result.document, separators=(",", ":")))
                out.write("\n")
    finally:
        if out is not None:
            out.close()
    summary = {
        "players": args.players,
        "strategies": strategies,
        "seed": args.seed,
        "rules": rules.to_json(),
        **summarize(stats),
    }
    print(json.dumps(summary, indent=2), file=stdout)
    return EXIT_OK


@functools.cache
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m allfives", description="All Fives rules engine: check and simulate."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check_cmd = commands.add_parser("check", help="judge a scoresheet (docs/scoresheet.md)")
    check_cmd.add_argument("file", help="the scoresheet JSON file, or - for standard input")
    check_cmd.add_argument(
        "--lines", action="store_true", help="one scoresheet per line (JSON Lines)"
    )
    check_cmd.add_argument(
        "--strict", action="store_true", help='"format" must be given, as the API import requires'
    )
    sim = commands.add_parser("simulate", help="play simulated matches")
    sim.add_argument("--players", type=int, choices=(2, 3, 4), required=True)
    sim.add_argument("--matches", type=int, required=True)
    sim.add_argument("--seed", required=True, help="any string or number; fixes the run")
    sim.add_argument(
        "--strategy", default="random", help="random or greedy, or one per seat: greedy,random"
    )
    sim.add_argument("--rules", help='the "rules" object as JSON, or @FILE')
    sim.add_argument("--out", help="write the scoresheets here, one per line")
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    if args.command == "check":
        return _check(args, stdin, stdout)
    if args.matches < 0:
        print("simulate: --matches must be at least 0", file=sys.stderr)
        return EXIT_UNREADABLE
    return _simulate(args, stdout)
