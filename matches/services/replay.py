"""The bridge to the rules engine: build a match's scoresheet and read the verdict.

The engine (``allfives``) is authoritative. This module turns stored hands into the
docs/scoresheet.md document, replays it, and reduces the engine's report to plain values
keyed the way the database stores them (sides as strings, points in half-points).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from allfives import replay


@dataclass(frozen=True, slots=True)
class HandVerdict:
    """The engine's verdict on one hand."""

    mode: str
    leader: int
    end: str
    hand_winner: list[int]
    points_x2: dict[str, int]
    bonus_x2: dict[str, int]
    plays: list[dict[str, Any]]
    next_leader: int | None


@dataclass(frozen=True, slots=True)
class MatchVerdict:
    """The engine's verdict on a whole match."""

    hands: list[HandVerdict]
    totals_x2: dict[str, int]
    winners: list[int]
    finished: bool
    next_leader: int | None

    @property
    def is_tie(self) -> bool:
        return len(self.winners) > 1

    def running_totals_x2(self) -> list[dict[str, int]]:
        """Totals per side after each hand."""
        running: dict[str, int] = dict.fromkeys(self.totals_x2, 0)
        out = []
        for hand in self.hands:
            for side, points in hand.points_x2.items():
                running[side] = running.get(side, 0) + points
            out.append(dict(running))
        return out


def _sides_x2(value: Any) -> dict[str, int]:
    return {str(side): int(points) for side, points in dict(value or {}).items()}


def _mode(hand: Mapping[str, Any], fallback: Any) -> str:
    mode = str(getattr(fallback, "mode", "") or "")
    if mode in ("tally", "tiles"):
        return mode
    return "tiles" if "moves" in hand else "tally"


def document_judge(document: Mapping[str, Any]) -> MatchVerdict:
    """Replay a scoresheet; raises ``allfives.AllFivesError`` when a rule is broken."""
    report = replay(dict(document))
    reports = list(report.hands)
    entries = list(document.get("hands", []))
    hands: list[HandVerdict] = []
    for index, hand in enumerate(reports):
        if index + 1 < len(reports):
            following = reports[index + 1]
            next_leader = int(following.leader) if hand.end == "domino" else None
        else:
            next_leader = None if report.next_leader is None else int(report.next_leader)
        plays = [dict(p) if isinstance(p, Mapping) else _play_json(p) for p in hand.plays]
        hands.append(
            HandVerdict(
                mode=_mode(entries[index] if index < len(entries) else {}, hand),
                leader=int(hand.leader),
                end=str(hand.end),
                hand_winner=[int(seat) for seat in hand.hand_winner],
                points_x2=_sides_x2(hand.points_x2),
                bonus_x2=_sides_x2(hand.bonus_x2),
                plays=plays,
                next_leader=next_leader,
            )
        )
    return MatchVerdict(
        hands=hands,
        totals_x2=_sides_x2(report.totals_x2),
        winners=[int(side) for side in report.winners],
        finished=bool(report.finished),
        next_leader=None if report.next_leader is None else int(report.next_leader),
    )


def _play_json(play: Any) -> dict[str, Any]:
    to_json = getattr(play, "to_json", None)
    if callable(to_json):
        return dict(to_json())
    if hasattr(play, "_asdict"):
        return dict(play._asdict())
    return {
        key: getattr(play, key) for key in ("move", "seat", "count", "points") if hasattr(play, key)
    }
