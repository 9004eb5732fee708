"""Reads of matches for the public, read-only site.

Two things: the live scores of league tables, which ``league``'s public pages get
through ``league.live`` (this app registers ``tables_live_read`` when it starts,
so that ``league`` never imports ``matches``); and a match's scoresheet hand by
hand — each scoring play, how each hand ended, the end-of-hand points, the
running totals and, for tile-by-tile hands, the final layout. Everything shown
is the engine's verdict as stored by score entry; nothing is computed anew
except the final layout, which is replayed from the recorded moves. Matches of
draft tournaments or of unpublished rounds are not public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext_lazy

from allfives import Tile, sides_of, went_out
from league.live import TableLive
from league.models import Round, Tournament
from matches.chances import (
    Chances,
    HandSteps,
    match_chances,
    matches_chances_now,
    whole_percents,
)
from matches.models import Hand, Match, MatchStatus
from matches.selectors import SeatInfo, match_seats
from ratings.selectors import table_win_probabilities

#: Where a play went, as the page says it (a lead takes no end, R7).
_END_PHRASES: Mapping[str | None, Any] = {
    "W": gettext_lazy("to the west"),
    "E": gettext_lazy("to the east"),
    "N": gettext_lazy("to the north"),
    "S": gettext_lazy("to the south"),
    None: gettext_lazy("as the lead"),
}


def _half(points_x2: int | str) -> Decimal:
    """Half-points as an exact number of points (7.5, never a float)."""
    return Decimal(int(points_x2)) / 2


def matches_public() -> QuerySet[Match]:
    """Friendly matches, and league matches of published rounds of public tournaments."""
    return Match.objects.filter(
        Q(table__isnull=True)
        | (
            Q(table__round__status__in=(Round.Status.PUBLISHED, Round.Status.FINISHED))
            & ~Q(table__round__tournament__status=Tournament.Status.DRAFT)
        )
    )


def tables_live_read(table_ids: Sequence[int]) -> dict[int, TableLive]:
    """Live totals of the matches at the given tables, in one query (league.live provider)."""
    matches = list(Match.objects.filter(table_id__in=list(table_ids)))
    chances = matches_chances_now(matches=matches)
    return {
        match.table_id: TableLive(
            table_id=match.table_id,
            totals={int(side): _half(x2) for side, x2 in (match.totals_x2 or {}).items()},
            hands_count=match.hands_count,
            is_finished=match.status == MatchStatus.FINISHED,
            url=reverse("matches:public_scoresheet", kwargs={"match_id": match.pk}),
            chances=dict(
                zip(
                    sides_of(match.player_count),
                    whole_percents(chances[match.pk].percents),
                    strict=True,
                )
            )
            if match.pk in chances
            else {},
        )
        for match in matches
        if match.table_id is not None
    }


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side of the match: its seats and its total so far (points, and half-points
    for the tally of R23)."""

    side: int
    seats: tuple[SeatInfo, ...]
    total: Decimal
    total_x2: int
    is_winner: bool

    @property
    def label(self) -> str:
        return " & ".join(seat.name for seat in self.seats)


@dataclass(frozen=True, slots=True)
class PlayLine:
    """One scoring play: who, and in tile-by-tile hands which tile on which end."""

    seat: SeatInfo
    points: int
    count: int | None
    tile: str | None
    end: str | None

    @property
    def end_phrase(self) -> str:
        """Where the tile went, in words (none for the lead)."""
        return "" if self.end is None else str(_END_PHRASES.get(self.end, self.end))


@dataclass(frozen=True, slots=True)
class SideHand:
    side: int
    plays: Decimal  # points from scoring plays in this hand
    bonus: Decimal  # end-of-hand points (R19, R20)
    points: Decimal  # plays + bonus
    total: Decimal  # running total after this hand
    total_x2: int


@dataclass(frozen=True, slots=True)
class HandLine:
    number: int
    mode: str
    leader: SeatInfo
    end: str  # domino, blocked or target
    went_out: SeatInfo | None  # who laid their last tile (domino)
    winners: tuple[SeatInfo, ...]  # the seats that won the hand (none after a tied block)
    plays: tuple[PlayLine, ...]  # scoring plays only, in order
    sides: tuple[SideHand, ...]
    layout_entry: Mapping[str, Any] | None  # tile-by-tile hands: the moves as entered


def _end_word(end: str | None) -> str:
    return str(_END_PHRASES[end])


def _label(tile: str | Tile) -> str:
    """A tile as the page writes it: [5|0]."""
    return (tile if isinstance(tile, Tile) else Tile.parse(tile)).label


@dataclass(frozen=True, slots=True)
class SideChance:
    """One side's chance of winning, in whole percent (the sides' add up to 100)."""

    side: SideSummary
    percent: int


@dataclass(frozen=True, slots=True)
class StepLine:
    """One play of a tile-by-tile hand as the page shows it: who laid which tile on
    which end (as words) for how much, each side's chance after it and, when another
    play known to be open would have scored more at once, that play."""

    seat: SeatInfo
    tile: str
    end_word: str
    points: int
    chances: tuple[SideChance, ...]
    better_tile: str | None
    better_end_word: str | None
    better_points: int | None
    missed: int


@dataclass(frozen=True, slots=True)
class HandForecast:
    """A hand with each side's chance after it and, tile by tile, its plays."""

    line: HandLine
    after: tuple[SideChance, ...]
    steps: tuple[StepLine, ...]
    missed: tuple[tuple[SeatInfo, int], ...]  # points left on the table, by seat


@dataclass(frozen=True, slots=True)
class ScoresheetForecast:
    """The chances now (none once the match is over) and the coach over the match."""

    now: tuple[SideChance, ...]
    error: float
    hands: tuple[HandForecast, ...]
    missed: tuple[tuple[SeatInfo, int], ...]
    has_coach: bool


@dataclass(frozen=True, slots=True)
class ScoresheetView:
    match: Match
    seats: tuple[SeatInfo, ...]
    sides: tuple[SideSummary, ...]
    hands: tuple[HandLine, ...]
    hand_rows: tuple[Hand, ...] = ()

    def _side_chances(self, chances: Chances) -> tuple[SideChance, ...]:
        return tuple(
            SideChance(side, percent)
            for side, percent in zip(self.sides, whole_percents(chances.percents), strict=True)
        )

    def _missed(self, by_seat: Mapping[int, int]) -> tuple[tuple[SeatInfo, int], ...]:
        return tuple((seat, by_seat.get(seat.number, 0)) for seat in self.seats)

    def _steps(self, steps: HandSteps | None) -> tuple[StepLine, ...]:
        if steps is None:
            return ()
        by_number = {seat.number: seat for seat in self.seats}
        return tuple(
            StepLine(
                seat=by_number[step.seat],
                tile=_label(step.tile),
                end_word=_end_word(step.end),
                points=step.points,
                chances=() if step.chances is None else self._side_chances(step.chances),
                better_tile=None if step.better is None else _label(step.better.best.tile),
                better_end_word=None if step.better is None else _end_word(step.better.best.end),
                better_points=None if step.better is None else step.better.best.points,
                missed=0 if step.better is None else step.better.missed,
            )
            for step in steps.steps
        )

    def forecast(self) -> ScoresheetForecast:
        """The live chances of winning by simulation and the coach's marks (computed
        once per match version; read only when the page is rendered anew)."""
        found = match_chances(match=self.match, hands=self.hand_rows)
        hands = []
        for line in self.hands:
            steps = found.hands.get(line.number)
            hands.append(
                HandForecast(
                    line=line,
                    after=self._side_chances(found.after_hand[line.number]),
                    steps=self._steps(steps),
                    missed=self._missed(steps.missed) if steps is not None else (),
                )
            )
        return ScoresheetForecast(
            now=() if found.now is None else self._side_chances(found.now),
            error=0.0 if found.now is None else found.now.error,
            hands=tuple(hands),
            missed=self._missed(found.missed),
            has_coach=found.has_coach,
        )

    @property
    def is_live(self) -> bool:
        return self.match.status != MatchStatus.FINISHED

    def chances(self) -> list[tuple[SideSummary, int]]:
        """Each side's chance of winning from the ratings before the match,
        in whole percent adding up to 100; empty for a friendly. Read only when the
        page shows it."""
        if self.match.table_id is None:
            return []
        found = table_win_probabilities(table_id=self.match.table_id)
        sides = [side for side in self.sides if side.side in found]
        percents = whole_percents([100 * found[side.side] for side in sides])
        return list(zip(sides, percents, strict=True))

    @property
    def running_totals(self) -> tuple[tuple[Decimal, ...], ...]:
        """Each side's total after every hand, side by side (for the chart)."""
        return tuple(
            tuple(hand.sides[i].total for hand in self.hands) for i in range(len(self.sides))
        )


def _hand_line(hand: Hand, seats: Mapping[int, SeatInfo], sides: Sequence[int]) -> HandLine:
    moves = hand.entry.get("moves", []) if hand.mode == Hand.Mode.TILES else []
    plays = []
    for play in hand.plays:
        if not play.get("points"):
            continue
        move_index = play.get("move")
        move = moves[move_index] if isinstance(move_index, int) and move_index < len(moves) else {}
        plays.append(
            PlayLine(
                seat=seats[int(play["seat"])],
                points=int(play["points"]),
                count=play.get("count"),
                tile=move.get("play"),
                end=move.get("end"),
            )
        )
    side_hands = []
    for side in sides:
        key = str(side)
        bonus_x2 = int(hand.bonus_x2.get(key, 0))
        points_x2 = int(hand.points_x2.get(key, 0))
        total_x2 = int(hand.totals_x2.get(key, 0))
        side_hands.append(
            SideHand(
                side=side,
                plays=_half(points_x2 - bonus_x2),
                bonus=_half(bonus_x2),
                points=_half(points_x2),
                total=_half(total_x2),
                total_x2=total_x2,
            )
        )
    out = went_out(hand.entry, hand.end)
    return HandLine(
        number=hand.number,
        went_out=None if out is None else seats.get(out),
        mode=hand.mode,
        leader=seats[hand.leader],
        end=hand.end,
        winners=tuple(seats[s] for s in hand.hand_winner if s in seats),
        plays=tuple(plays),
        sides=tuple(side_hands),
        layout_entry=hand.entry if hand.mode == Hand.Mode.TILES else None,
    )


def scoresheet_public(*, match_id: int) -> ScoresheetView | None:
    """A public match hand by hand, or None if there is no such public match."""
    match = (
        matches_public()
        .select_related("table__round__tournament__season", "tournament")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return None
    seats = tuple(match_seats(match=match))
    by_number = {seat.number: seat for seat in seats}
    sides = sides_of(match.player_count)
    rows = tuple(match.hands.order_by("number"))
    hands = tuple(_hand_line(hand, by_number, sides) for hand in rows)
    summaries = tuple(
        SideSummary(
            side=side,
            seats=tuple(seat for seat in seats if seat.side == side),
            total=_half(match.total_x2(side)),
            total_x2=match.total_x2(side),
            is_winner=side in match.winners,
        )
        for side in sides
    )
    return ScoresheetView(match=match, seats=seats, sides=summaries, hands=hands, hand_rows=rows)
