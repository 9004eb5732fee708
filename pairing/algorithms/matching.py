"""Minimum-cost matching with lexicographic costs, on networkx's blossom algorithm.

Each edge carries a tuple of integer costs, most important first (rematches before byes
before score gaps before tie-breaks). The tuple is folded into one integer whose place
values exceed the largest total any lower tier can reach, so the blossom's maximum-weight,
maximum-cardinality matching is exactly the lexicographic optimum. Integer weights keep
networkx on exact integer arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

Edge = tuple[int, int, tuple[int, ...]]


def min_cost_matching(nodes: Sequence[int], edges: Sequence[Edge]) -> list[tuple[int, int]]:
    """A maximum-cardinality matching of least lexicographic cost, as sorted node pairs.

    The result is perfect whenever the graph has a perfect matching; the caller checks.
    Deterministic: depends only on the order of ``nodes`` and ``edges``.
    """
    if not edges:
        return []
    tiers = len(edges[0][2])
    most = [0] * tiers
    for _, _, cost in edges:
        if len(cost) != tiers:
            raise ValueError("every edge needs the same number of cost tiers")
        for k, c in enumerate(cost):
            if c < 0:
                raise ValueError("costs must not be negative")
            most[k] = max(most[k], c)
    pairs_max = len(nodes) // 2
    place = [1] * tiers
    for k in range(tiers - 2, -1, -1):
        place[k] = place[k + 1] * (pairs_max * most[k + 1] + 1)
    folded = [sum(c * p for c, p in zip(cost, place, strict=True)) for _, _, cost in edges]
    top = max(folded) + 1
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for (u, v, _), f in zip(edges, folded, strict=True):
        graph.add_edge(u, v, weight=top - f)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(u, v), max(u, v)) for u, v in matched)
