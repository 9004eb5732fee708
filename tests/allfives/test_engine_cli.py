"""The command line: ``python -m allfives check`` and ``simulate``."""

from __future__ import annotations

import argparse
import io
import json
import pathlib
import subprocess
import sys
from typing import Any

import allfives.cli
from allfives.cli import main
from tests.allfives.engine_helpers import play, scoresheet

GOOD = scoresheet(2, [{"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}, "left": {"1": 8}}])
BROKEN = scoresheet(2, [{"leader": 0, "moves": [play(0, "3-6"), play(1, "1-4", "W")]}])


def run(args: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    status = main(args, stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue()


def write(tmp_path: pathlib.Path, name: str, content: Any) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_check_ok_exits_0_and_prints_the_verdict(tmp_path: pathlib.Path) -> None:
    status, out = run(["check", write(tmp_path, "good.json", GOOD)])
    assert status == 0
    verdict = json.loads(out)
    assert verdict["ok"] and verdict["totals"] == {"0": 20, "1": 0}


def test_check_a_broken_rule_exits_1(tmp_path: pathlib.Path) -> None:
    status, out = run(["check", write(tmp_path, "broken.json", BROKEN)])
    assert status == 1
    assert json.loads(out)["error"] == {
        "hand": 0,
        "move": 1,
        "code": "tile_does_not_match",
        "rule": "R7",
        "message": "seat 1: [1|4] does not match the west end (3)",
    }


def test_check_unreadable_or_not_the_format_exits_2(tmp_path: pathlib.Path) -> None:
    for content in ("{not json", "[1, 2]", '{"players": 2}', "", "[" * 100_000):
        status, out = run(["check", write(tmp_path, "bad.json", content)])
        assert status == 2, content[:20]
        assert json.loads(out)["error"]["code"] == "bad_format"
    status, out = run(["check", str(tmp_path / "missing.json")])
    assert status == 2 and json.loads(out)["error"]["code"] == "bad_format"
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    assert run(["check", str(tmp_path / "binary.json")])[0] == 2


def test_check_strict_needs_the_format_as_the_api_import_does(tmp_path: pathlib.Path) -> None:
    # Given a good scoresheet without "format"
    bare = {key: value for key, value in GOOD.items() if key != "format"}
    path = write(tmp_path, "bare.json", bare)
    # When it is checked, plainly and strictly
    plain, _ = run(["check", path])
    strict, out = run(["check", "--strict", path])
    # Then the plain check reads it as allfives/1; the strict one refuses it (exit 2)
    assert plain == 0
    assert strict == 2 and json.loads(out)["error"]["code"] == "bad_format"
    assert run(["check", "--strict", write(tmp_path, "good.json", GOOD)])[0] == 0


def test_check_reads_standard_input() -> None:
    status, out = run(["check", "-"], json.dumps(GOOD))
    assert status == 0 and json.loads(out)["ok"]


def test_simulate_writes_scoresheets_that_check_reproduces(tmp_path: pathlib.Path) -> None:
    out_file = tmp_path / "sim.jsonl"
    args = ["simulate", "--players", "3", "--matches", "4", "--seed", "42", "--out", str(out_file)]
    status, out = run([*args, "--strategy", "greedy,random,random"])
    assert status == 0
    summary = json.loads(out)
    assert summary["matches"] == 4 and summary["players"] == 3
    assert summary["strategies"] == ["greedy", "random", "random"]
    for key in ("play_points_per_hand", "hand_end_points_per_hand", "hands_per_match"):
        assert summary[key] > 0
    assert 0 <= summary["blocked_rate"] <= 1 and summary["ties"] >= 0
    lines = out_file.read_text().splitlines()
    assert len(lines) == 4
    status, out = run(["check", "--lines", str(out_file)])
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and all(v["ok"] and v["finished"] for v in verdicts)
    assert sum(len(v["hands"]) for v in verdicts) == summary["hands"]
    # Deterministic for a seed.
    again = tmp_path / "again.jsonl"
    run([*args[:-1], str(again), "--strategy", "greedy,random,random"])
    assert again.read_text() == out_file.read_text()


def test_simulate_one_match_is_a_plain_scoresheet(tmp_path: pathlib.Path) -> None:
    out_file = tmp_path / "one.json"
    rules = json.dumps({"targets": {"2": 60}, "blocked_award": "difference"})
    args = ["simulate", "--players", "2", "--matches", "1", "--seed", "7", "--rules", rules]
    status, _ = run([*args, "--out", str(out_file)])
    assert status == 0
    document = json.loads(out_file.read_text())
    assert document["rules"]["targets"]["2"] == 60
    assert run(["check", str(out_file)])[0] == 0


def test_simulate_refuses_bad_options(tmp_path: pathlib.Path) -> None:
    base = ["simulate", "--players", "2", "--matches", "1", "--seed", "1"]
    assert run([*base, "--strategy", "clever"])[0] == 2
    assert run([*base, "--strategy", "random,random,random"])[0] == 2
    assert run([*base, "--rules", "{bad"])[0] == 2
    assert run([*base, "--rules", '{"targets": {"2": -1}}'])[0] == 2
    assert run(["simulate", "--players", "2", "--matches", "-1", "--seed", "1"])[0] == 2
    rules_file = write(tmp_path, "rules.json", {"targets": {"2": 30}})
    status, out = run([*base, "--rules", f"@{rules_file}"])
    assert status == 0 and json.loads(out)["rules"]["targets"]["2"] == 30


def test_python_dash_m_allfives(tmp_path: pathlib.Path) -> None:
    path = write(tmp_path, "broken.json", BROKEN)
    done = subprocess.run(
        [sys.executable, "-m", "allfives", "check", path],
        capture_output=True,
        text=True,
        check=False,
        cwd=pathlib.Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["code"] == "tile_does_not_match"


def test_the_parser_is_built_once_for_many_calls(tmp_path: pathlib.Path, monkeypatch: Any) -> None:
    # Given a count of the argument parsers built from now on
    built = []
    original = argparse.ArgumentParser.__init__

    def counting(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        built.append(kwargs.get("prog"))
        original(self, *args, **kwargs)

    allfives.cli._parser.cache_clear()
    monkeypatch.setattr(argparse.ArgumentParser, "__init__", counting)
    path = write(tmp_path, "good.json", GOOD)
    # When the command line runs three times in one process
    results = [run(["check", path]) for _ in range(3)]
    # Then each call gives the verdict, and one parser (with its subcommands) served them all
    assert [status for status, _ in results] == [0, 0, 0]
    assert built.count("python -m allfives") == 1
    allfives.cli._parser.cache_clear()
