"""The house's shape: no import cycle between any two modules of the service, and the
apps named in the README's layout exist as Django apps with the pieces it promises.

Import-linter (``make lint``) checks that imports run downwards between layers; this
checks the finer property that no two modules, in any app or layer, import each other
directly or through others — imports inside functions included (grimp reads them all).
"""

from __future__ import annotations

import importlib

import grimp
import pytest

PACKAGES = (
    "config",
    "allfives",
    "league",
    "standings",
    "ratings",
    "pairing",
    "matches",
    "entrants",
    "knockout",
    "desk",
)


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    modules = sorted(m for m in graph.modules if m.split(".")[0] in PACKAGES)
    edges = {
        m: sorted(
            t for t in graph.find_modules_directly_imported_by(m) if t.split(".")[0] in PACKAGES
        )
        for m in modules
    }
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            targets = edges.get(node, [])
            if i < len(targets):
                work.append((node, i + 1))
                target = targets[i]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, include_external_packages=False)


def test_no_two_modules_of_the_service_import_each_other(graph: grimp.ImportGraph) -> None:
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle(graph: grimp.ImportGraph) -> None:
    # Given the real graph with one upward import added (the kind the layering forbids)
    graph.add_import(importer="league.models", imported="matches.models")
    try:
        # Then the finder reports it (so the test above can fail)
        assert any("league.models" in c and "matches.models" in c for c in _cycles(graph))
    finally:
        graph.remove_import(importer="league.models", imported="matches.models")


@pytest.mark.parametrize(
    "app",
    ["league", "standings", "ratings", "pairing", "matches", "entrants", "knockout", "desk"],
)
def test_every_domain_is_an_installed_app_of_its_own(app: str) -> None:
    from django.apps import apps

    config = apps.get_app_config(app)
    assert config.name == app
    assert importlib.import_module(f"{app}.services").__doc__  # writes live in services
