"""Reading a tournament's knockout: its brackets round by round, each match with its
entries, seeds, points and who advanced, for the public page, the desk and the API."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from allfives import side_of
from knockout.models import Bracket, BracketMatch, BracketSlot
from league.models import Entry, KnockoutTie, Round, Table, TableResultSide, Tournament


@dataclass(frozen=True, slots=True)
class SlotView:
    entry_id: int | None  # None: not known yet
    name: str
    seed: int | None
    points: Decimal | None
    is_winner: bool


@dataclass(frozen=True, slots=True)
class MatchView:
    id: int
    kind: str
    round_index: int
    position: int
    round_number: int | None  # the tournament round it is played in
    table_number: int | None
    state: str  # "waiting", "bye", "drafted", "playing", "finished", "tied", "decided"
    decided_by: str
    decided_label: str
    slots: tuple[SlotView, ...]


@dataclass(frozen=True, slots=True)
class RoundView:
    index: int
    name: str
    round_number: int
    matches: tuple[MatchView, ...]


@dataclass(frozen=True, slots=True)
class BracketView:
    section: str
    label: str
    per_table: int
    seeded_from: str
    seeded_label: str
    rounds: tuple[RoundView, ...]
    third_place: MatchView | None
    champion: SlotView | None


def _round_name(*, tables: int, index: int, per_table: int) -> str:
    if tables == 1:
        return pgettext("knockout round", "Final")
    if per_table == 2 and tables == 2:
        return _("Semi-finals")
    if per_table == 2 and tables == 4:
        return _("Quarter-finals")
    if per_table == 2:
        return _("Round of %(n)d") % {"n": tables * 2}
    return _("Knockout round %(n)d") % {"n": index}


def _match_view(
    match: BracketMatch, seeds: dict[int, int], width: int, extra_hand: bool
) -> MatchView:
    table = match.table
    points: dict[int, Decimal] = {}
    first: set[int] = set()
    state = "waiting"
    if match.decided_by == BracketMatch.Decision.BYE:
        state = "bye"
    elif match.winner_id is not None:
        state = "decided"
    elif table is not None:
        result = getattr(table, "result", None)
        if table.round.status == Round.Status.DRAFT:
            state = "drafted"
        elif result is not None:
            state = "tied" if result.is_tie and extra_hand else "finished"
        else:
            state = "playing"
    if table is not None and table.round.status != Round.Status.DRAFT:
        result = getattr(table, "result", None)
        if result is not None:
            lines = {line.side: line for line in result.sides.all()}
            for seat in table.seats.all():
                line = lines.get(side_of(seat.number, table.player_count))
                if line is not None:
                    points[seat.entry_id] = line.points
                    if line.placing == 1:
                        first.add(seat.entry_id)
            if result.is_tie:
                # Tied: nobody yet under the extra hand; the better seed under the other rule.
                best = min(first, key=lambda e: seeds.get(e, 0)) if first else None
                first = {best} if best is not None and not extra_hand else set()
    slots = [
        SlotView(
            entry_id=slot.entry_id,
            name=slot.entry.display_name,
            seed=seeds.get(slot.entry_id),
            points=points.get(slot.entry_id),
            is_winner=slot.entry_id == match.winner_id
            or (match.winner_id is None and slot.entry_id in first),
        )
        for slot in sorted(match.slots.all(), key=lambda s: s.place)
    ]
    shown = max(width, len(slots)) if state != "bye" else len(slots)
    while len(slots) < shown:
        slots.append(SlotView(entry_id=None, name="", seed=None, points=None, is_winner=False))
    public_table = table is not None and table.round.status != Round.Status.DRAFT
    return MatchView(
        id=match.pk,
        kind=match.kind,
        round_index=match.round_index,
        position=match.position,
        round_number=table.round.number if public_table and table is not None else None,
        table_number=table.number if public_table and table is not None else None,
        state=state,
        decided_by=match.decided_by,
        decided_label=match.get_decided_by_display() if match.decided_by else "",
        slots=tuple(slots),
    )


def tournament_brackets(*, tournament: Tournament) -> list[BracketView]:
    """The tournament's brackets (main first, then the plate), round by round."""
    views: list[BracketView] = []
    extra_hand = tournament.effective_rule_set.knockout_tie == KnockoutTie.EXTRA_HAND
    brackets = Bracket.objects.filter(tournament=tournament).order_by("section")
    for bracket in brackets:
        seeds = dict(bracket.entrants.values_list("entry_id", "seed"))
        matches = list(
            bracket.matches.select_related("table", "table__round", "table__result")
            .prefetch_related("slots__entry__player", "slots__entry__partnership")
            .prefetch_related("table__seats", "table__result__sides")
            .order_by("round_index", "position")
        )
        by_round: dict[int, list[BracketMatch]] = {}
        third: BracketMatch | None = None
        for match in matches:
            if match.kind == BracketMatch.Kind.THIRD_PLACE:
                third = match
            else:
                by_round.setdefault(match.round_index, []).append(match)
        rounds = tuple(
            RoundView(
                index=index,
                name=_round_name(tables=len(ms), index=index, per_table=bracket.per_table),
                round_number=bracket.first_round_number + index - 1,
                matches=tuple(_match_view(m, seeds, bracket.per_table, extra_hand) for m in ms),
            )
            for index, ms in sorted(by_round.items())
        )
        final = rounds[-1].matches[0] if rounds else None
        champion = next((s for s in final.slots if s.is_winner), None) if final else None
        views.append(
            BracketView(
                section=bracket.section,
                label=bracket.get_section_display(),
                per_table=bracket.per_table,
                seeded_from=bracket.seeded_from,
                seeded_label=bracket.get_seeded_from_display(),
                rounds=rounds,
                third_place=_match_view(third, seeds, 2, extra_hand) if third is not None else None,
                champion=champion,
            )
        )
    return views


def tournament_has_knockout(*, tournament_id: int) -> bool:
    return Bracket.objects.filter(tournament_id=tournament_id).exists()


def round_stages(*, round_id: int) -> dict[int, str]:
    """Each knockout table of the round (by table id) named by its stage, as the bracket
    page names its rounds: "Final", "Semi-finals", "Third place", and for the plate
    "Plate · Final"."""
    here = list(
        BracketMatch.objects.filter(table__round_id=round_id)
        .select_related("bracket")
        .only("table_id", "kind", "round_index", "bracket__section", "bracket__per_table")
    )
    sizes: dict[tuple[int, int], int] = {}
    for bracket_id, index in BracketMatch.objects.filter(
        bracket_id__in={m.bracket_id for m in here}, kind=BracketMatch.Kind.BRACKET
    ).values_list("bracket_id", "round_index"):
        sizes[bracket_id, index] = sizes.get((bracket_id, index), 0) + 1
    stages: dict[int, str] = {}
    for match in here:
        if match.kind == BracketMatch.Kind.THIRD_PLACE:
            name = _("Third place")
        else:
            name = _round_name(
                tables=sizes[match.bracket_id, match.round_index],
                index=match.round_index,
                per_table=match.bracket.per_table,
            )
        if match.bracket.section == Bracket.Section.PLATE:
            name = _("%(bracket)s · %(stage)s") % {
                "bracket": match.bracket.get_section_display(),
                "stage": name,
            }
        assert match.table_id is not None
        stages[match.table_id] = name
    return stages


def stage_shared(stages: Mapping[int, str]) -> str:
    """The stage every table of ``round_stages`` is at, or "" when they are at several
    (or none)."""
    names = set(stages.values())
    return next(iter(names)) if len(names) == 1 else ""


def round_bracket_reasons(round: Round) -> list[str]:
    """Why a round's tables must stay: they hold the knockout bracket's matches, which
    would lose their tables (``bracket_undo`` takes the bracket away first)."""
    if not BracketMatch.objects.filter(table__round=round).exists():
        return []
    return [
        _(
            "Round %(number)s holds the knockout bracket's matches: its tables and seats "
            "are the bracket's, and cannot be changed or deleted."
        )
        % {"number": round.number}
    ]


def entry_bracket_reasons(entry: Entry) -> list[str]:
    """Why an entry may not simply withdraw: it is still in the knockout, in a match not
    decided yet, which would seat it again. A walkover at that match's table sends the
    opponent through instead."""
    match = (
        BracketMatch.objects.filter(slots__entry=entry, winner__isnull=True)
        .select_related("table")
        .first()
    )
    if match is None:
        return []
    if match.table is not None:
        return [
            _(
                "%(who)s is still in the knockout: record a walkover at table %(number)s "
                "instead, which sends the opponent through."
            )
            % {"who": entry, "number": match.table.number}
        ]
    return [
        _(
            "%(who)s is still in the knockout: once their next match has its table, "
            "record a walkover there, which sends the opponent through."
        )
        % {"who": entry}
    ]


def table_bracket_result_reasons(table_id: int, placings: Mapping[int, int] | None) -> list[str]:
    """Why a table's result must stay: it has already sent an entry through in the
    knockout bracket (a correction would leave the bracket with the old winner). The
    same result again (the same placings) is no change."""
    match = (
        BracketMatch.objects.filter(table_id=table_id, winner__isnull=False)
        .select_related("table")
        .first()
    )
    if match is None or match.table is None:
        return []
    stored = {
        side.side: side.placing
        for side in TableResultSide.objects.filter(result__table_id=table_id)
    }
    if placings is not None and stored == dict(placings):
        return []
    return [
        _(
            "Table %(number)s has already sent %(who)s through in the knockout bracket: "
            "its result can no longer change."
        )
        % {"number": match.table.number, "who": match.winner}
    ]


@dataclass(frozen=True, slots=True)
class TiedMatch:
    """A tied knockout match waiting for its extra hand, and the entries tied on top
    (at a table of three, the one placed third is out whatever the extra hand gives)."""

    match: BracketMatch
    slots: tuple[BracketSlot, ...]


def table_placings(table: Table) -> dict[int, int] | None:
    """Each entry's placing at a finished table, or None while it has no result."""
    result = getattr(table, "result", None)
    if result is None:
        return None
    by_side = {line.side: line.placing for line in result.sides.all()}
    placings: dict[int, int] = {}
    for seat in table.seats.all():
        side = side_of(seat.number, table.player_count)
        placings[seat.entry_id] = by_side.get(side, 3)
    return placings


def bracket_undoable(*, tournament: Tournament) -> bool:
    """Whether the knockout may still be taken back (``bracket_undo``): it exists and
    none of its rounds was published."""
    return (
        tournament.brackets.exists()
        and not Round.objects.filter(tournament=tournament, stage=Round.Stage.KNOCKOUT)
        .exclude(status=Round.Status.DRAFT)
        .exists()
    )


@dataclass(frozen=True, slots=True)
class KnockoutProgress:
    """How far the tournament's knockout is, for the desk's "next round"."""

    #: Every match is decided: nothing is left to advance.
    is_over: bool
    #: A match still waits for its table: advancing drafts another round. When False
    #: and the knockout is not over, advancing decides the last round's matches only.
    has_round_to_draw: bool
    #: The main bracket's winner, once its final is decided.
    champion: str


def knockout_progress(*, tournament: Tournament) -> KnockoutProgress | None:
    """How far the tournament's knockout is, or None without one."""
    matches = list(
        BracketMatch.objects.filter(bracket__tournament=tournament)
        .select_related("bracket", "winner__player", "winner__partnership")
        .order_by("-round_index")
    )
    if not matches:
        return None
    final = next(
        (
            m
            for m in matches
            if m.bracket.section == Bracket.Section.MAIN and m.kind == BracketMatch.Kind.BRACKET
        ),
        None,
    )
    return KnockoutProgress(
        is_over=all(m.winner_id is not None for m in matches),
        has_round_to_draw=any(m.table_id is None and m.winner_id is None for m in matches),
        champion=final.winner.display_name if final is not None and final.winner else "",
    )


def tied_on_top(placings: Mapping[int, int]) -> list[int]:
    """The entries sharing the best placing (two or more: the table is tied on top)."""
    best = min(placings.values())
    return [entry for entry, placing in placings.items() if placing == best]


def bracket_matches_tied(*, tournament: Tournament) -> list[TiedMatch]:
    """Tied matches of a closed or published knockout round waiting for the extra hand
    (none when the rule set sends the higher seed through)."""
    if tournament.effective_rule_set.knockout_tie != KnockoutTie.EXTRA_HAND:
        return []
    tied = []
    for m in (
        BracketMatch.objects.filter(
            bracket__tournament=tournament,
            winner__isnull=True,
            table__result__isnull=False,
        )
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("table", "table__result", "bracket")
        .prefetch_related("slots__entry__player", "slots__entry__partnership")
        .prefetch_related("table__result__sides", "table__seats")
        .order_by("table__number")
    ):
        table = m.table
        if table is None or not table.result.is_tie:
            continue
        placings = table_placings(table)
        entries = set(tied_on_top(placings)) if placings else set()
        tied.append(TiedMatch(m, tuple(s for s in m.slots.all() if s.entry_id in entries)))
    return tied


def bracket_public(*, slug: str) -> tuple[Tournament, list[BracketView]] | None:
    """A public (not draft) tournament's brackets, or None without a public knockout."""
    tournament = (
        Tournament.objects.exclude(status=Tournament.Status.DRAFT).filter(slug=slug).first()
    )
    if tournament is None or not tournament_has_knockout(tournament_id=tournament.pk):
        return None
    return tournament, tournament_brackets(tournament=tournament)
