"""Live scores of the tables being played, as the public pages show them.

Score entry lives in ``matches``, which ``league`` must never import. So the
dependency is turned around: ``matches`` registers a *provider* when it starts
(``table_live_provider_set``), and the league's public pages ask for the tables
they show in one call (``tables_live``). Without a provider (``matches`` not
installed, or in tests of the league alone) there are no live scores, and the
pages show the tables' status and results only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

__all__ = ["TableLive", "TableLiveProvider", "table_live_provider_set", "tables_live"]


@dataclass(frozen=True, slots=True)
class TableLive:
    """The match at one table as score entry sees it now."""

    table_id: int
    totals: Mapping[int, Decimal]  # by side (named by its lowest seat)
    hands_count: int
    is_finished: bool
    url: str  # the match's public scoresheet
    #: Each side's chance of winning from here in whole percent (the sides' add up to
    #: 100), while the match is played.
    chances: Mapping[int, int] = field(default_factory=dict)


type TableLiveProvider = Callable[[Sequence[int]], Mapping[int, TableLive]]

_provider: TableLiveProvider | None = None


def table_live_provider_set(provider: TableLiveProvider | None) -> None:
    """Register (or, with ``None``, remove) the function that reads live scores."""
    global _provider
    _provider = provider


def tables_live(*, table_ids: Sequence[int]) -> Mapping[int, TableLive]:
    """Live scores of the given tables, by table id; tables with no match are left out."""
    if _provider is None or not table_ids:
        return {}
    return _provider(table_ids)
