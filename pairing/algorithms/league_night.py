"""League nights: pair whoever has checked in this evening.

Vocabulary: the *present* entrants are those checked in tonight (withdrawn entrants are
never passed in; a late arrival simply is present next round). The *season history* —
every meeting and partnership of the season so far — is the repeat-avoidance memory, so
pairs who have met least this season are preferred (costs grow with the square of the
count). By default the standings play no part (``by_standing=False``): tonight's tables
are drawn by the seed among the seatings with the fewest repeats. With
``by_standing=True`` the night is a Swiss round on the season's match points.

The format follows the table: two-sided tables (players, or partnerships as entrants) use
``swiss.py``, three- or four-player tables of individuals ``group_swiss.py``, and
four-player tables with partners changing each round ``rotating.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pairing.algorithms.group_swiss import group_swiss_seat
from pairing.algorithms.quality import make_draw, score_map
from pairing.algorithms.rotating import rotating_seat
from pairing.algorithms.swiss import swiss_pair
from pairing.algorithms.types import Draw, Entrant, History, PairingError


def league_night_pair(
    present: Sequence[Entrant],
    season_history: History,
    *,
    seed: int,
    table_size: int = 2,
    rotating_partners: bool = False,
    smallest: int | None = None,
    byes_allowed: bool = False,
    by_standing: bool = False,
) -> Draw:
    """Pair or seat tonight's entrants against the season's history."""
    if rotating_partners and table_size != 4:
        raise PairingError("table_size", "rotating partners need four-player tables")
    field = list(present) if by_standing else [replace(e, score=0, rank=0) for e in present]
    if table_size == 2:
        draw = swiss_pair(field, season_history, seed=seed)
    elif rotating_partners:
        draw = rotating_seat(
            field,
            season_history,
            seed=seed,
            by_standing=by_standing,
            smallest=smallest if smallest is not None else 3,
            byes_allowed=byes_allowed,
        )
    else:
        draw = group_swiss_seat(
            field,
            season_history,
            seed=seed,
            table_size=table_size,
            smallest=smallest,
            byes_allowed=byes_allowed,
        )
    if by_standing:
        return draw
    # Seated without standings; report against the real match points.
    return make_draw(
        [t.seats for t in draw.tables],
        draw.byes,
        scores=score_map(present),
        history=season_history,
        seed=seed,
        is_certified_optimal=draw.report.is_certified_optimal,
    )
