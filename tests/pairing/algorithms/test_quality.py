"""Cost breakdowns, quality reports, the history, and the warnings for hand-edited drafts."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from pairing.algorithms.quality import DraftWarning, costed_table, draw_report, validate_draft
from pairing.algorithms.types import Entrant, History, pair


def codes(warnings: tuple[DraftWarning, ...]) -> list[str]:
    return sorted(w.code for w in warnings)


def test_history_counts_meetings_partners_and_opponents() -> None:
    history = History.from_rounds([[(1, 2, 3, 4)], [(1, 3), (2, 4)], [(1, 2, 3)]])
    assert history.meetings(1, 3) == 3
    assert history.partnerships(1, 3) == 1
    assert history.oppositions(1, 3) == 2
    assert history.partnerships(1, 2) == 0 and history.oppositions(1, 2) == 2
    assert history.meetings(2, 4) == 2 and history.partnerships(2, 4) == 1
    with pytest.raises(ValueError, match="partnered"):
        History(met={}, partnered={pair(1, 2): 1})


def test_table_cost_breakdown() -> None:
    history = History.from_rounds([[(1, 2, 3, 4)]])  # partners 1+3, 2+4
    scores = {1: Fraction(3), 2: Fraction(5, 2), 3: Fraction(1), 4: Fraction(3)}
    table = costed_table((1, 4, 3, 2), scores, history)  # partners 1+3 again, 4+2 again
    assert table.cost.rematches == 6
    assert table.cost.partner_repeats == 2
    assert table.cost.opponent_repeats == 4
    assert table.cost.score_gap == 2
    # Opposing pairs: 1-4, 1-2, 3-4, 3-2.
    assert table.cost.score_cost == 0 + Fraction(1, 4) + 4 + Fraction(9, 4)
    report = draw_report([table], [9])
    assert (report.rematches, report.partner_repeats, report.bye_count) == (6, 2, 1)
    assert json.loads(json.dumps(report.as_dict()))["score_cost"] == "13/2"


def test_clean_draft_has_no_warnings() -> None:
    entrants = [Entrant(i) for i in range(6)]
    assert validate_draft([(0, 1, 2, 3)], [4, 5], entrants=entrants, history=History()) == ()


def test_draft_warnings_name_every_problem() -> None:
    entrants = [Entrant(i, had_bye=i == 7) for i in range(8)]
    history = History.from_rounds([[(0, 1, 2, 3)]])
    tables = [(0, 4, 2, 5), (1, 3, 1), (6, 9), (3,)]
    warnings = validate_draft(tables, [7], entrants=entrants, history=history)
    assert codes(warnings) == [
        "bye_repeat",
        "partner_repeat",
        "player_twice",
        "player_twice",
        "rematch",
        "table_size",
        "unknown_entrant",
    ]
    blocking = {w.code for w in warnings if w.is_blocking}
    assert blocking == {"player_twice", "table_size", "unknown_entrant"}
    rematch = next(w for w in warnings if w.code == "rematch")
    assert rematch.entrant_ids == (0, 2) and rematch.table_index == 0


def test_unseated_entrant_is_reported() -> None:
    entrants = [Entrant(i) for i in range(5)]
    warnings = validate_draft([(0, 1), (2, 3)], [], entrants=entrants, history=History())
    assert codes(warnings) == ["unseated"]
    assert warnings[0].entrant_ids == (4,) and not warnings[0].is_blocking
