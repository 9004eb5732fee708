"""Pure pairing and seating algorithms: plain dataclasses in, plain dataclasses out.

No Django and no ORM here (``pairing.selectors`` reads the models, ``dispatch`` picks and
runs the function for the tournament's format and table size, ``pairing.services`` stores
the result); only the standard library and networkx. One module per format.

Vocabulary (the same words in code, UI and docs; see also docs/rules.md):

- *entrant*: who is paired — a player, or a partnership in two-sided formats
  (:class:`Entrant`: id, match points, standing rank, whether it had a bye).
- *table*: the entrants seated together, in seat order; at four seats, seats 0+2 and 1+3
  are *partners* (docs/rules.md R2) and the two sides are *opponents*. Two-sided formats seat
  two entrants (players or partnerships) per table.
- *bye*: an entrant left out of a round (odd field in the Swiss, a count that does not
  split into tables when the organiser allows byes).
- *meeting*: two entrants sharing a table; a *rematch* (or *repeated meeting*) is a
  meeting of a pair that met before; a *partner repeat* two players partnered again.
- *history* (:class:`History`): how often each pair met and partnered before this round;
  for a league night, the season's history.
- *draw* (:class:`Draw`): one round's tables and byes with its quality report and seed;
  *schedule* (:class:`Schedule`): every round fixed in advance (round robins, whist).
- *cost*: what a table or draw costs, broken down (:class:`TableCost`); every format
  minimises its costs lexicographically, the order stated in its module docstring.
- *seed*: every function takes one; the same inputs and seed give the same draw.

Formats: ``round_robin`` (two-sided and at three- or four-player tables), ``swiss``
(two-sided), ``group_swiss`` (three- or four-player tables), ``rotating`` (rotating
partners and whist tournaments), ``league_night``; ``table_sizes`` splits a field into
tables; ``quality`` measures draws and checks hand-edited drafts; ``designs`` builds the
exact combinatorial designs the round robins and whist schedules use.
"""

from pairing.algorithms.group_swiss import group_swiss_seat
from pairing.algorithms.league_night import league_night_pair
from pairing.algorithms.quality import DraftWarning, schedule_report, validate_draft
from pairing.algorithms.rotating import rotating_seat, whist_schedule
from pairing.algorithms.round_robin import group_round_robin_schedule, round_robin_schedule
from pairing.algorithms.swiss import swiss_pair
from pairing.algorithms.types import (
    Draw,
    Entrant,
    History,
    PairingError,
    QualityReport,
    Schedule,
    ScheduleReport,
    Table,
    TableCost,
)

__all__ = [
    "DraftWarning",
    "Draw",
    "Entrant",
    "History",
    "PairingError",
    "QualityReport",
    "Schedule",
    "ScheduleReport",
    "Table",
    "TableCost",
    "group_round_robin_schedule",
    "group_swiss_seat",
    "league_night_pair",
    "rotating_seat",
    "round_robin_schedule",
    "schedule_report",
    "swiss_pair",
    "validate_draft",
    "whist_schedule",
]
