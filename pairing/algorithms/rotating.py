"""Rotating-partner individual events: four-player tables, partners assigned each round.

Vocabulary: each player plays for themself; at a four-player table seats 0+2 and 1+3 are
this round's *partners* (docs/rules.md R2) and the other four pairs *opponents*. A *whist
tournament* is the ideal schedule: with 4n players, 4n - 1 rounds in which every pair are
partners exactly once and opponents exactly twice (4n + 1 players: 4n + 1 rounds, one
sitting out each round). ``whist_schedule`` builds it (see ``designs.py``) for every such
count whose starting round is kept (``designs.whist_sizes()``, up to ``WHIST_MAX_PLAYERS``),
and for 4n + 3 players the nearest thing: Wh(4n + 4) with one seat left empty, so one table
a round plays three-handed; its report says how far the partner and opponent counts then
stray from once and twice (``whist_partner_deviation``, ``whist_opponent_deviation``).
Other counts (4n + 2) are seated one round at a time by ``rotating_seat``.

``rotating_seat`` seats one round at a time, for events that pair by standing or whose
field changes (withdrawals, late entrants). Costs, most important first:

1. partner repeats (partnered before, count squared) — zero whenever avoidable, since the
   partnerships are an exact minimum-cost perfect matching (blossom) over the players at
   four-player tables;
2. opponent repeats (opposed before, count squared) — the partnerships are then matched
   into tables by a second blossom and the tabu search of ``seating.py`` polishes both;
3. score cost (squared match-point gaps over the table) when seating by standing;
4. tie-break: distance in the standing order.

When the count is not a multiple of four, tables of three (everyone for themself) take
the rest, at the bottom of the standing order; byes only if the organiser allows them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from math import lcm

from pairing.algorithms.designs import has_whist_tournament, whist_sizes, whist_tournament
from pairing.algorithms.group_swiss import choose_byes, seat_by_tiers
from pairing.algorithms.matching import Edge, min_cost_matching
from pairing.algorithms.quality import make_draw, schedule_report
from pairing.algorithms.seating import Tier
from pairing.algorithms.swiss import standing_order
from pairing.algorithms.table_sizes import table_sizes
from pairing.algorithms.types import (
    Draw,
    Entrant,
    History,
    PairingError,
    Schedule,
    as_fraction,
)

WHIST_MAX_PLAYERS = max(whist_sizes())
"""Largest whist schedule built on request (starting rounds are kept as data)."""

CONFLICT_TIERS = 2
ROTATING_TIERS: tuple[Tier, ...] = ("partnered", "opposed", "gap", "position")
UNRANKED_TIERS: tuple[Tier, ...] = ("partnered", "opposed", "position")


def rotating_seat(
    entrants: Sequence[Entrant],
    history: History,
    *,
    seed: int,
    by_standing: bool = True,
    smallest: int = 3,
    byes_allowed: bool = False,
    max_steps: int = 300,
) -> Draw:
    """Seat one rotating-partner round: partner repeats zero whenever avoidable, then
    opponent repeats as few as possible, then tables close in standing (if ``by_standing``).
    """
    if len(entrants) < 2:
        raise PairingError("too_few", "a round needs at least two entrants")
    sizes, bye_count = table_sizes(
        len(entrants), size=4, smallest=smallest, byes_allowed=byes_allowed
    )
    field = list(entrants)
    if not by_standing:
        field = [replace(e, score=0) for e in field]
    standing = standing_order(field, seed)
    byes = choose_byes(standing, bye_count)
    seated = [e for e in standing if e.id not in byes]
    fours = sizes.count(4)
    initial = _initial_tables(seated, sizes, fours, history, by_standing)
    tiers = ROTATING_TIERS if by_standing else UNRANKED_TIERS
    draw = seat_by_tiers(
        field,
        history,
        seed=seed,
        table_size=4,
        smallest=smallest,
        byes_allowed=byes_allowed,
        tiers=tiers,
        conflict_tiers=CONFLICT_TIERS,
        seating_steps=max_steps,
        initial=initial,
    )
    if by_standing:
        return draw
    # Report the real match points, not the zeroed ones used for seating.
    real = {e.id: e for e in entrants}
    scores = {eid: as_fraction(e.score) for eid, e in real.items()}
    return make_draw(
        [t.seats for t in draw.tables], draw.byes, scores=scores, history=history, seed=seed
    )


def _initial_tables(
    seated: Sequence[Entrant],
    sizes: Sequence[int],
    fours: int,
    history: History,
    by_standing: bool,
) -> list[list[int]]:
    """Four-player tables from two blossoms (partners, then partnerships into tables);
    smaller tables from the bottom of the standing order."""
    top = list(seated[: 4 * fours])
    rest = list(seated[4 * fours :])
    tables: list[list[int]] = []
    if top:
        unit = _unit(seated)
        pos = {e.id: i for i, e in enumerate(seated)}
        points = {e.id: int(as_fraction(e.score) * unit) if by_standing else 0 for e in seated}

        def gap(a: int, b: int) -> int:
            return (points[a] - points[b]) ** 2

        ids = [e.id for e in top]
        edges: list[Edge] = []
        for i in range(len(ids)):
            for j in range(i + 1, len(ids)):
                a, b = ids[i], ids[j]
                edges.append((i, j, (history.partnerships(a, b) ** 2, gap(a, b), (i - j) ** 2)))
        partners = [(ids[i], ids[j]) for i, j in min_cost_matching(range(len(ids)), edges)]
        partners.sort(key=lambda p: min(pos[p[0]], pos[p[1]]))
        side_edges: list[Edge] = []
        for i in range(len(partners)):
            for j in range(i + 1, len(partners)):
                cross = [(x, y) for x in partners[i] for y in partners[j]]
                side_edges.append(
                    (
                        i,
                        j,
                        (
                            sum(history.oppositions(x, y) ** 2 for x, y in cross),
                            sum(gap(x, y) for x, y in cross),
                            (i - j) ** 2,
                        ),
                    )
                )
        for i, j in min_cost_matching(range(len(partners)), side_edges):
            (a, c), (b, d) = partners[i], partners[j]
            tables.append([a, b, c, d])
    start = 0
    for size in sorted(sizes)[: len(sizes) - fours]:
        tables.append([e.id for e in rest[start : start + size]])
        start += size
    return tables


def _unit(entrants: Sequence[Entrant]) -> int:
    return lcm(*(as_fraction(e.score).denominator for e in entrants))


def whist_schedule(entrant_ids: Sequence[int], *, seed: int) -> Schedule:
    """The whole whist tournament for 4n or 4n + 1 entrants (a size in ``whist_sizes()``):
    every pair partners exactly once and opponents exactly twice; with 4n + 1 entrants
    each sits out one round. With 4n + 3 entrants, Wh(4n + 4) with one empty seat: the
    table missing a player plays three-handed (everyone for themself), and the report
    gives the partner and opponent counts that result. Entrants are placed on the
    design's points by the seed."""
    count = len(entrant_ids)
    if len(set(entrant_ids)) != count:
        raise ValueError("entrant ids must be unique")
    design_size = count + 1 if count % 4 == 3 else count
    if not has_whist_tournament(design_size):
        raise PairingError(
            "whist_size",
            f"a whist schedule needs 4n, 4n + 1 or 4n + 3 players, a whist of {design_size} "
            f"being kept (up to {WHIST_MAX_PLAYERS}); got {count} (seat rounds one at a time "
            "with rotating_seat instead)",
        )
    rng = random.Random(seed)
    ids = sorted(entrant_ids)
    rng.shuffle(ids)
    points: list[int | None] = list(ids) + [None] * (design_size - count)
    history = History()
    scores = {eid: as_fraction(0) for eid in ids}
    rounds: list[Draw] = []
    for design_round in whist_tournament(design_size):
        tables = [[e for e in (points[p] for p in t) if e is not None] for t in design_round]
        seated = {e for t in tables for e in t}
        byes = sorted(set(ids) - seated)
        draw = make_draw(tables, byes, scores=scores, history=history, seed=seed)
        rounds.append(draw)
        history = history.with_tables(draw.tables)
    name = f"cyclic whist Wh({design_size})"
    if design_size != count:
        name += ", one seat empty"
    return Schedule(tuple(rounds), schedule_report(rounds, ids), construction=name)
