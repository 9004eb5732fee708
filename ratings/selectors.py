"""Reads of the ratings: leaderboards, a player's history, win chances, rating seeds.

Leaderboards rank by the conservative display rating (``mu - 3 sigma``) and list only
subjects with at least ``min_matches`` rated matches in the scope: all time (the current
rating), or one season (the rating after the player's last match of that season, and the
matches they played in it). Win probabilities of a table are taken before its match: from
the ratings recorded when it was rated, else from the current ratings (new players at the
initial rating).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, OuterRef, Subquery

from allfives import outcome, side_of
from league.models import Entry, EntryMember, Seat, Table
from ratings.maths import (
    INITIAL,
    CalibrationBin,
    Skill,
    calibration_bins,
    conservative_rating,
    side_strengths,
    win_probabilities,
)
from ratings.models import PartnershipRating, PlayerRating, RatingEvent

DEFAULT_MIN_MATCHES = 5


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a leaderboard; ``rank`` is shared by equal display ratings."""

    rank: int
    subject_id: int  # a player id, or a partnership id on a partnership leaderboard
    name: str
    slug: str
    mu: float
    sigma: float
    display: float
    matches_count: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one match: one point of a rating chart."""

    at: datetime
    table_id: int
    season_id: int | None
    mu: float
    sigma: float
    display: float
    placing: int
    expected: float


@dataclass(frozen=True, slots=True)
class EntryRating:
    """An entry with its rating, for rating-based seeding (members' ratings combined)."""

    entry_id: int
    display: float
    mu: float
    sigma: float
    matches_count: int


def _ranked(rows: list[tuple[int, str, str, float, float, float, int]]) -> list[LeaderboardRow]:
    rows.sort(key=lambda r: (-r[5], -r[6], r[1], r[0]))
    board: list[LeaderboardRow] = []
    for index, (subject_id, name, slug, mu, sigma, display, count) in enumerate(rows):
        shared = board and board[-1].display == display
        rank = board[-1].rank if shared else index + 1
        board.append(LeaderboardRow(rank, subject_id, name, slug, mu, sigma, display, count))
    return board


def ratings_leaderboard(
    *,
    season_id: int | None = None,
    min_matches: int = DEFAULT_MIN_MATCHES,
    limit: int | None = None,
) -> list[LeaderboardRow]:
    """Players by rating: all time, or in one season; at least ``min_matches`` matches."""
    rows: list[tuple[int, str, str, float, float, float, int]]
    if season_id is None:
        rows = list(
            PlayerRating.objects.filter(matches_count__gte=min_matches, player__is_active=True)
            .order_by("-display")
            .values_list(
                "player_id",
                "player__name",
                "player__slug",
                "mu",
                "sigma",
                "display",
                "matches_count",
            )
        )
    else:
        in_season = RatingEvent.objects.filter(season_id=season_id, player__isnull=False)
        last = in_season.filter(player_id=OuterRef("player_id")).order_by("-at", "-table_id")
        rows = list(
            in_season.values("player_id")
            .annotate(
                count=Count("id"),
                last_mu=Subquery(last.values("mu_after")[:1]),
                last_sigma=Subquery(last.values("sigma_after")[:1]),
                last_display=Subquery(last.values("display_after")[:1]),
            )
            .filter(count__gte=min_matches, player__is_active=True)
            .values_list(
                "player_id",
                "player__name",
                "player__slug",
                "last_mu",
                "last_sigma",
                "last_display",
                "count",
            )
        )
    board = _ranked(rows)
    return board if limit is None else board[:limit]


def partnerships_leaderboard(
    *, min_matches: int = DEFAULT_MIN_MATCHES, limit: int | None = None
) -> list[LeaderboardRow]:
    """Fixed partnerships by their rating as a unit, all time."""
    rows = list(
        PartnershipRating.objects.filter(
            matches_count__gte=min_matches, partnership__is_active=True
        ).values_list(
            "partnership_id",
            "partnership__name",
            "partnership__slug",
            "mu",
            "sigma",
            "display",
            "matches_count",
        )
    )
    board = _ranked(rows)
    return board if limit is None else board[:limit]


def players_ratings(*, player_ids: Sequence[int]) -> dict[int, PlayerRating]:
    """The current rating of each rated player among ``player_ids`` (one query)."""
    return {r.player_id: r for r in PlayerRating.objects.filter(player_id__in=list(player_ids))}


def player_rating_history(*, player_id: int, season_id: int | None = None) -> list[RatingPoint]:
    """A player's rating after each rated match, oldest first (for charts)."""
    events = RatingEvent.objects.filter(player_id=player_id)
    if season_id is not None:
        events = events.filter(season_id=season_id)
    return [
        RatingPoint(
            at=at,
            table_id=table_id,
            season_id=s_id,
            mu=mu,
            sigma=sigma,
            display=display,
            placing=placing,
            expected=expected,
        )
        for at, table_id, s_id, mu, sigma, display, placing, expected in events.order_by(
            "at", "table_id"
        ).values_list(
            "at",
            "table_id",
            "season_id",
            "mu_after",
            "sigma_after",
            "display_after",
            "placing",
            "expected",
        )
    ]


def player_skill(*, player_id: int) -> Skill:
    """A player's current rating (the initial one before any rated match)."""
    row = PlayerRating.objects.filter(player_id=player_id).values_list("mu", "sigma").first()
    return INITIAL if row is None else Skill(mu=row[0], sigma=row[1])


def table_win_probabilities(*, table_id: int) -> dict[int, float]:
    """Each side's chance of winning the table's match, as it stood before the match.

    Keys are side numbers (the lowest seat of the side); empty when the table's seats
    are not all filled. For many tables at once use ``tables_win_probabilities``.
    """
    return tables_win_probabilities(table_ids=[table_id]).get(table_id, {})


def _side_skills(
    table_ids: Sequence[int],
) -> tuple[dict[int, int], dict[int, dict[int, list[Skill]]]]:
    """Each table's player count, and its sides (by side number) with their players'
    skills before its match, in four queries. A rated table uses the ratings its
    players had before it (stored with its rating events); any other table the
    current ratings (new players at the initial rating). Tables with an empty seat
    are left out."""
    counts = dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "player_count"))
    seats: dict[int, list[tuple[int, int]]] = {}
    for table_id, number, player_id in Seat.objects.filter(table_id__in=counts).values_list(
        "table_id", "number", "player_id"
    ):
        seats.setdefault(table_id, []).append((number, player_id))
    rated: dict[tuple[int, int], Skill] = {
        (table_id, player_id): Skill(mu=mu, sigma=sigma)
        for table_id, player_id, mu, sigma in RatingEvent.objects.filter(
            table_id__in=counts, player__isnull=False
        ).values_list("table_id", "player_id", "mu_before", "sigma_before")
    }
    current = {
        player_id: Skill(mu=mu, sigma=sigma)
        for player_id, mu, sigma in PlayerRating.objects.filter(
            player_id__in={p for table in seats.values() for _n, p in table}
        ).values_list("player_id", "mu", "sigma")
    }
    found: dict[int, dict[int, list[Skill]]] = {}
    for table_id, player_count in counts.items():
        table_seats = sorted(seats.get(table_id, []))
        if len(table_seats) != player_count:
            continue
        sides: dict[int, list[Skill]] = {}
        for number, player_id in table_seats:
            side = side_of(number, player_count)
            skill = rated.get((table_id, player_id)) or current.get(player_id, INITIAL)
            sides.setdefault(side, []).append(skill)
        if len(sides) >= 2:
            found[table_id] = dict(sorted(sides.items()))
    return counts, found


def tables_win_probabilities(*, table_ids: Sequence[int]) -> dict[int, dict[int, float]]:
    """``table_win_probabilities`` for many tables in four queries (a round's page)."""
    chances: dict[int, dict[int, float]] = {}
    counts, found = _side_skills(table_ids)
    for table_id, sides in found.items():
        probabilities = win_probabilities(list(sides.values()), seats=counts[table_id])
        chances[table_id] = dict(zip(sides, probabilities, strict=True))
    return chances


def tables_side_strengths(*, table_ids: Sequence[int]) -> dict[int, dict[int, float]]:
    """Each side's strength before the table's match (``maths.side_strengths``: its
    log-weight in the win probabilities, less the table's mean), by table and side."""
    counts, found = _side_skills(table_ids)
    return {
        table_id: dict(
            zip(sides, side_strengths(list(sides.values()), seats=counts[table_id]), strict=True)
        )
        for table_id, sides in found.items()
    }


def tournament_entries_by_rating(*, tournament_id: int) -> list[EntryRating]:
    """The tournament's active entries, strongest first (seeding for a Swiss first round).

    An entry's rating is its members' mean mu with their root-mean-square sigma, shown
    conservatively, so a partnership compares with a single player on one scale; unrated
    players count at the initial rating. Equal ratings keep the entries' seed order.
    """
    entries = list(
        Entry.objects.filter(tournament_id=tournament_id, is_withdrawn=False)
        .order_by("seed", "id")
        .values_list("id", flat=True)
    )
    members: dict[int, list[int]] = {}
    for entry_id, player_id in EntryMember.objects.filter(entry_id__in=entries).values_list(
        "entry_id", "player_id"
    ):
        members.setdefault(entry_id, []).append(player_id)
    ratings = {
        player_id: (Skill(mu=mu, sigma=sigma), count)
        for player_id, mu, sigma, count in PlayerRating.objects.filter(
            player_id__in=[p for ps in members.values() for p in ps]
        ).values_list("player_id", "mu", "sigma", "matches_count")
    }
    seeded: list[EntryRating] = []
    for entry_id in entries:
        skills = [ratings.get(p, (INITIAL, 0)) for p in members.get(entry_id, [])] or [(INITIAL, 0)]
        mu = sum(s.mu for s, _c in skills) / len(skills)
        sigma = (sum(s.sigma**2 for s, _c in skills) / len(skills)) ** 0.5
        combined = Skill(mu=mu, sigma=sigma)
        seeded.append(
            EntryRating(
                entry_id=entry_id,
                display=conservative_rating(combined),
                mu=mu,
                sigma=sigma,
                matches_count=min(c for _s, c in skills),
            )
        )
    return sorted(seeded, key=lambda e: -e.display)  # stable: ties keep seed order


def ratings_calibration(*, bins: int = 10) -> list[CalibrationBin]:
    """How well the stored predictions came true: each rated side's chance of finishing
    first (recorded before its match) against its share of first place, in bins."""
    sides: dict[tuple[int, int], tuple[int, float]] = {}
    for table_id, side, placing, expected in RatingEvent.objects.filter(
        player__isnull=False
    ).values_list("table_id", "side", "placing", "expected"):
        sides[(table_id, side)] = (placing, expected)  # partners share one line
    placings: dict[int, list[int]] = {}  # table -> its sides' placings
    for (table_id, _side), (placing, _e) in sides.items():
        placings.setdefault(table_id, []).append(placing)
    outcomes = []
    for (table_id, _side), (placing, expected) in sides.items():
        table = placings[table_id]
        # A first place shared by k sides (a tie) counts 1/k to each of them.
        share = 0.0 if outcome(placing, table) == "loss" else 1.0 / table.count(placing)
        outcomes.append((expected, share))
    return calibration_bins(outcomes, bins=bins)
