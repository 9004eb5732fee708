"""The engine documents itself: doctests pass, every module says what it is for,
every docs/rules.md rule has a test named for it, and nothing imports Django."""

from __future__ import annotations

import ast
import doctest
import importlib
import pathlib
import pkgutil
import re
import sys

import pytest

import allfives

PACKAGE = pathlib.Path(allfives.__file__).resolve().parent
MODULES = sorted(
    ["allfives"] + [f"allfives.{info.name}" for info in pkgutil.iter_modules([str(PACKAGE)])]
)
TESTS = pathlib.Path(__file__).resolve().parent


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_public_api_has_doctests() -> None:
    attempted = sum(doctest.testmod(importlib.import_module(name)).attempted for name in MODULES)
    assert attempted >= 40
    for name in ("Tile", "Layout", "Move", "HandState", "MatchState", "Rules", "check", "replay"):
        assert ">>>" in (getattr(allfives, name).__doc__ or ""), name


@pytest.mark.parametrize("name", MODULES)
def test_every_module_opens_with_what_it_is_responsible_for(name: str) -> None:
    doc = importlib.import_module(name).__doc__
    assert doc and len(doc.split()) >= 5


def test_the_engine_uses_the_standard_library_only() -> None:
    allowed = {"__future__", "allfives"}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in allowed or top in sys.stdlib_module_names, (path, name)
    assert (PACKAGE / "py.typed").exists()


def test_every_rule_r1_to_r24_has_a_test_named_for_it() -> None:
    named: set[int] = set()
    for path in TESTS.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                named |= {int(n) for n in re.findall(r"(?:^test_|_)r(\d+)(?=_)", node.name)}
    assert named >= set(range(1, 25)), sorted(set(range(1, 25)) - named)
