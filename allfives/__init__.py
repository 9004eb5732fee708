"""All Fives (Kelipatan 5): the rules engine of Kelipatan.

Pure Python, standard library only. It implements the rules of ``docs/rules.md`` (R1-R24)
and reads and writes the scoresheet of docs/scoresheet.md. One module per concept:

- `errors` — `AllFivesError` and its families, one table of codes and messages;
- `tiles` — `Tile` and the double-six set (R1);
- `rules` — `Rules` (targets, hand sizes, blocked award; R3, R4, R20), sides (R2):
  `side_of`, `sides_of`, `side_seats`;
- `layout` — `Layout`: the line of play, the spinner, the count (R7-R11);
- `moves` — `Move`: play, draw, pass;
- `hand` — `HandState`: turns, legal moves, drawing and passing, end (R12-R16);
  `scored_moves()` (each legal move with the points it scores at once) and
  `move_points(move)`, for a coach comparing a play with the others;
- `entry` — a hand's entry read and checked: the deal (R1, R3), the tiles left;
- `settlement` — end-of-hand points (R18-R20);
- `match` — `MatchState`: totals in half-points, target, next leader (R21, R22);
  `outcome`: a side's win, tie or loss from the placings;
- `scoresheet`, `tally`, `reports` — `check`/`replay` of a whole scoresheet
  (tile-by-tile and tally entry) and what they report; `went_out` (R16);
  `winner_json` (a match's ``winner``, both sides' names for a tie);
- `dealt` — the fast path of a hand with its deal: one tight loop that accepts
  a right hand and hands anything else to the checked replay, and `check`'s
  verdict on a document of such hands written as JSON directly;
- `strategies`, `simulate` — simulated players and matches; `cli` — ``python -m allfives``;
- `tally_marks` — the traditional paper tally (R23).

The round clock (R24) is a rule-set option (`Rules.time_limit`) and a scoresheet field
(`time_called_after`), judged by `match` and `scoresheet`.

>>> report = check({"format": "allfives/1", "players": 2, "hands": [{"leader": 0,
...     "moves": [{"seat": 0, "play": "5-5"}, {"seat": 1, "play": "5-0", "end": "W"}]}]})
>>> report["ok"], report["error"]["code"]
(False, 'hand_incomplete')
"""

from __future__ import annotations

from allfives.errors import (
    ERRORS,
    AllFivesError,
    FormatError,
    IllegalMoveError,
    MatchError,
    ScoreError,
)
from allfives.hand import HandState
from allfives.layout import Layout, Placement
from allfives.match import MatchState, Outcome, outcome, points_json
from allfives.moves import Move
from allfives.reports import HandReport, MatchReport, PlayReport, winner_json
from allfives.rules import (
    DEFAULT_BLOCKED_AWARD,
    DEFAULT_HAND_SIZES,
    DEFAULT_TARGETS,
    Rules,
    side_of,
    side_seats,
    sides_of,
)
from allfives.scoresheet import FORMAT, check, format_check, replay, went_out
from allfives.settlement import Settlement, round_to_five
from allfives.simulate import simulate_match, simulate_matches
from allfives.tally_marks import TallyMarks, tally_marks
from allfives.tiles import ALL_TILES, Tile

__all__ = [
    "ALL_TILES",
    "DEFAULT_BLOCKED_AWARD",
    "DEFAULT_HAND_SIZES",
    "DEFAULT_TARGETS",
    "ERRORS",
    "FORMAT",
    "AllFivesError",
    "FormatError",
    "HandReport",
    "HandState",
    "IllegalMoveError",
    "Layout",
    "MatchError",
    "MatchReport",
    "MatchState",
    "Move",
    "Outcome",
    "Placement",
    "PlayReport",
    "Rules",
    "ScoreError",
    "Settlement",
    "TallyMarks",
    "Tile",
    "check",
    "format_check",
    "outcome",
    "points_json",
    "replay",
    "round_to_five",
    "side_of",
    "side_seats",
    "sides_of",
    "simulate_match",
    "simulate_matches",
    "tally_marks",
    "went_out",
    "winner_json",
]
