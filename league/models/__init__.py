"""The league's data: who plays (players, partnerships), under which rules (rule sets),
when (seasons, divisions, tournaments, rounds) and where (tables and their seats), and
what came of it (table results).

Vocabulary (docs/rules.md): a *side* is one player, or a partnership at four-player tables;
seats 0+2 and 1+3 are partners. A *round* is a tournament round (Indonesian UI:
*putaran*); a match is played at a table until a side reaches its target.

Rules that must always hold are database constraints, not only form checks. Points
that can be halves (the three-player split, docs/rules.md R20) are stored as integer
half-points (``points_x2``). ``league`` never imports ``matches``: a finished match is
handed here as plain values (``league.services.results.table_result_record``).
"""

from league.models.base import PLAYER_COUNTS, TimeStamped
from league.models.clubs import Club, Membership, MembershipRole
from league.models.people import Partnership, Player
from league.models.rounds import ResultKind, Round, Seat, Table, TableResult, TableResultSide
from league.models.rules import BlockedAward, KnockoutTie, RuleSet
from league.models.seasons import Division, Season
from league.models.tokens import ApiToken
from league.models.tournaments import (
    Entry,
    EntryMember,
    EntryMode,
    TableSize,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)

__all__ = [
    "PLAYER_COUNTS",
    "ApiToken",
    "BlockedAward",
    "Club",
    "Division",
    "Entry",
    "EntryMember",
    "EntryMode",
    "KnockoutTie",
    "Membership",
    "MembershipRole",
    "Partnership",
    "Player",
    "ResultKind",
    "Round",
    "RuleSet",
    "Season",
    "Seat",
    "Table",
    "TableResult",
    "TableResultSide",
    "TableSize",
    "TimeStamped",
    "Tournament",
    "TournamentFormat",
    "TournamentStatus",
]
