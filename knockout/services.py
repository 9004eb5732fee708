"""Making and filling knockout brackets: every rule of a knockout lives here.

``bracket_create`` seeds a bracket from the standings after the tournament's last
closed round (a top cut of 4, 8, 16 or 32, or the whole field) or from ratings, writes
all its matches, advances the byes, and drafts the first knockout round's tables.
``bracket_advance``, called by the desk's "next round" once a knockout round is closed,
decides each of its tables (the table's winner; a tie as the rule set says), moves the
winners on, opens the plate for the first round's losers and the third-place match for
the semi-finals' losers, and drafts the next round. ``bracket_match_decide`` records who
won the extra hand of a tied match. ``bracket_undo`` takes back a knockout none of whose
rounds was published, so that it can be seeded again. The bracket's shape comes from the pure
``pairing.algorithms.knockout``.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from knockout.models import Bracket, BracketEntrant, BracketMatch, BracketSlot, Decision
from knockout.selectors import table_placings, tied_on_top
from league.models import Entry, Round, TableSize, Tournament
from league.services.records import round_delete
from league.services.rounds import seats_for_entries, table_create, tournament_open_check
from pairing.algorithms import knockout as plan
from pairing.algorithms.knockout import TieRule
from ratings.selectors import tournament_entries_by_rating
from standings.selectors import tournament_ranking_after

CUTS = (4, 8, 16, 32)


def _per_table(tournament: Tournament) -> int:
    """Entries per knockout table: two (players, or partnerships at four), or three."""
    if tournament.table_size == TableSize.TWO and not tournament.is_partnership_format:
        return 2
    if tournament.table_size == TableSize.FOUR and tournament.is_partnership_format:
        return 2
    if tournament.table_size == TableSize.THREE and not tournament.is_partnership_format:
        return 3
    raise ValidationError(
        _(
            "A knockout is played at tables of two players, of two partnerships, or of "
            "three players; this tournament's tables cannot hold one."
        ),
        code="knockout_table_size",
    )


def _seeded_entries(*, tournament: Tournament, source: str, after_round: int | None) -> list[int]:
    active = set(
        Entry.objects.filter(tournament=tournament, is_withdrawn=False).values_list("id", flat=True)
    )
    if source == Bracket.Source.RATINGS:
        return [e.entry_id for e in tournament_entries_by_rating(tournament_id=tournament.pk)]
    if after_round is None:
        raise ValidationError(
            _("Seeding from the standings needs a closed round."), code="no_standings"
        )
    ranking = tournament_ranking_after(tournament=tournament, round_number=after_round)
    return [row.entrant_id for row in ranking.rows if row.entrant_id in active]


def _last_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


@transaction.atomic
def bracket_create(
    *,
    tournament: Tournament,
    source: str = Bracket.Source.STANDINGS,
    cut: int | None = None,
    third_place: bool = False,
    plate: bool = False,
) -> Bracket:
    """Seed the tournament's knockout and draft its first round (the next round)."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    tournament_open_check(tournament=tournament)
    per_table = _per_table(tournament)
    if tournament.brackets.exists():
        raise ValidationError(_("This tournament has its knockout already."), code="bracket_exists")
    last = _last_round(tournament)
    if last is not None and last.status != Round.Status.FINISHED:
        raise ValidationError(
            _("Round %(n)d is not closed yet: close it before starting the knockout.")
            % {"n": last.number},
            code="round_not_closed",
        )
    if source not in (Bracket.Source.STANDINGS, Bracket.Source.RATINGS):
        raise ValidationError(_("Seed from the standings or from ratings."), code="source")
    after_round = last.number if last is not None else None
    seeded = _seeded_entries(tournament=tournament, source=source, after_round=after_round)
    if cut is not None:
        if cut not in CUTS:
            raise ValidationError(_("The top cut is 4, 8, 16 or 32 entries."), code="cut")
        if cut > len(seeded):
            raise ValidationError(
                _("A top cut of %(cut)d needs %(cut)d entries; %(n)d are playing.")
                % {"cut": cut, "n": len(seeded)},
                code="cut_too_big",
            )
        seeded = seeded[:cut]
    if len(seeded) < 2:
        raise ValidationError(_("A knockout needs at least two entries."), code="too_few")
    first_number = (last.number if last is not None else 0) + 1
    needed = plan.rounds_count(field=len(seeded), per_table=per_table)
    plate_field = sum(
        len(t) - 1 for t in plan.first_round(field=len(seeded), per_table=per_table) if len(t) > 1
    )
    plate = plate and plate_field >= 2
    if plate:
        # The plate starts a round after the main bracket; at three per table it may
        # need as many rounds as the main bracket, and so end a round later.
        needed = max(needed, 1 + plan.rounds_count(field=plate_field, per_table=per_table))
    if first_number + needed - 1 > tournament.rounds_count:
        raise ValidationError(
            _(
                "The knockout needs %(k)d rounds after round %(after)d: set the tournament's "
                "number of rounds to at least %(total)d."
            )
            % {"k": needed, "after": first_number - 1, "total": first_number + needed - 1},
            code="too_few_rounds",
        )
    bracket = Bracket.objects.create(
        tournament=tournament,
        section=Bracket.Section.MAIN,
        seeded_from=source,
        after_round=after_round if source == Bracket.Source.STANDINGS else None,
        per_table=per_table,
        field_count=len(seeded),
        first_round_number=first_number,
        has_third_place=third_place and per_table == 2 and needed >= 2,
        has_plate=plate,
    )
    _bracket_fill(bracket=bracket, seeded=seeded)
    _round_draft(tournament=tournament, number=first_number)  # a field of two plays
    return bracket


@transaction.atomic
def bracket_undo(*, tournament: Tournament) -> int:
    """Take back the tournament's knockout before any of its rounds is published: its
    brackets go, and so do the knockout's draft rounds with their tables, so the
    organiser may seed it again (another cut or source, a third-place match, a plate).
    The number of the first round taken back."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if not tournament.brackets.exists():
        raise ValidationError(_("This tournament has no knockout."), code="no_bracket")
    rounds = list(
        Round.objects.select_for_update()
        .filter(tournament=tournament, stage=Round.Stage.KNOCKOUT)
        .order_by("number")
    )
    started = [r.number for r in rounds if r.status != Round.Status.DRAFT]
    if started:
        raise ValidationError(
            _(
                "Round %(n)d of the knockout is published: a knockout that has started "
                "cannot be taken back."
            )
            % {"n": started[0]},
            code="knockout_started",
        )
    tournament.brackets.all().delete()
    for round in rounds:
        round_delete(round=round)
    return rounds[0].number if rounds else 0


def _bracket_fill(*, bracket: Bracket, seeded: Sequence[int]) -> None:
    """Write a bracket's entrants, every match of every round, and its first round's
    seats; a bye advances its entrant at once."""
    per_table = bracket.per_table
    BracketEntrant.objects.bulk_create(
        BracketEntrant(bracket=bracket, entry_id=entry_id, seed=seed)
        for seed, entry_id in enumerate(seeded, start=1)
    )
    rounds = plan.rounds_count(field=len(seeded), per_table=per_table)
    BracketMatch.objects.bulk_create(
        BracketMatch(bracket=bracket, round_index=r, position=p)
        for r in range(1, rounds + 1)
        for p in range(plan.tables_in_round(field=len(seeded), round_number=r, per_table=per_table))
    )
    if bracket.has_third_place:
        BracketMatch.objects.create(
            bracket=bracket, kind=BracketMatch.Kind.THIRD_PLACE, round_index=rounds, position=0
        )
    matches = {
        m.position: m for m in bracket.matches.filter(kind=BracketMatch.Kind.BRACKET, round_index=1)
    }
    for position, seeds in enumerate(plan.first_round(field=len(seeded), per_table=per_table)):
        match = matches[position]
        BracketSlot.objects.bulk_create(
            BracketSlot(match=match, place=place, entry_id=seeded[seed - 1])
            for place, seed in enumerate(seeds)
        )
        if len(seeds) == 1:
            _winner_set(match=match, entry_id=seeded[seeds[0] - 1], decided_by=Decision.BYE)


def _winner_set(*, match: BracketMatch, entry_id: int, decided_by: str) -> None:
    """Record who advances from ``match`` and seat them at the table it feeds."""
    match.winner_id = entry_id
    match.decided_by = decided_by
    match.save(update_fields=["winner", "decided_by"])
    if match.kind != BracketMatch.Kind.BRACKET:
        return
    to, place = plan.fed_table(position=match.position, per_table=match.bracket.per_table)
    following = BracketMatch.objects.filter(
        bracket=match.bracket,
        kind=BracketMatch.Kind.BRACKET,
        round_index=match.round_index + 1,
        position=to,
    ).first()
    if following is not None:
        BracketSlot.objects.create(match=following, place=place, entry_id=entry_id)


def _tie_rule(tournament: Tournament) -> TieRule:
    return TieRule(tournament.effective_rule_set.knockout_tie)


def _seeds(bracket: Bracket) -> dict[int, int]:
    return dict(bracket.entrants.values_list("entry_id", "seed"))


def _decide(match: BracketMatch, seeds: dict[int, int], rule: TieRule) -> bool:
    """Decide a played match from its table's result; False while a tie waits for the
    extra hand (or the table has no result)."""
    if match.winner_id is not None:
        return True
    if match.table is None:
        return False
    placings = table_placings(match.table)
    if placings is None:
        return False
    advance = plan.advancer(placings=placings, seeds=seeds, tie_rule=rule)
    if advance.winner is None:
        return False
    decided = Decision.PLAYED if advance.decided_by == "played" else Decision.SEED
    _winner_set(match=match, entry_id=advance.winner, decided_by=decided)
    return True


def _round_matches(bracket: Bracket, *, kind: str, round_index: int) -> list[BracketMatch]:
    return list(
        bracket.matches.filter(kind=kind, round_index=round_index)
        .prefetch_related("slots")
        .order_by("position")
    )


def _plate_open(*, main: Bracket) -> None:
    """After the main bracket's first round, seed the plate with its losers."""
    first = _round_matches(main, kind=BracketMatch.Kind.BRACKET, round_index=1)
    if (
        not main.has_plate
        or main.tournament.brackets.filter(section=Bracket.Section.PLATE).exists()
    ):
        return
    if any(m.winner_id is None for m in first):
        return
    seeds = _seeds(main)
    losers = plan.plate_field(
        tables=[[s.entry_id for s in m.slots.all()] for m in first],
        winners=[m.winner_id for m in first if m.winner_id is not None],
        seeds=seeds,
    )
    if len(losers) < 2:
        return
    plate = Bracket.objects.create(
        tournament=main.tournament,
        section=Bracket.Section.PLATE,
        seeded_from=Bracket.Source.FIRST_ROUND_LOSERS,
        per_table=main.per_table,
        field_count=len(losers),
        first_round_number=main.first_round_number + 1,
    )
    _bracket_fill(bracket=plate, seeded=losers)


def _third_place_open(*, main: Bracket) -> None:
    """Seat the semi-finals' losers at the third-place match once both are known."""
    third = main.matches.filter(kind=BracketMatch.Kind.THIRD_PLACE).first()
    if third is None or third.slots.exists():
        return
    semis = _round_matches(main, kind=BracketMatch.Kind.BRACKET, round_index=third.round_index - 1)
    if any(m.winner_id is None for m in semis):
        return
    losers = plan.third_place_field(
        semi_finals=[[s.entry_id for s in m.slots.all()] for m in semis],
        winners=[m.winner_id for m in semis if m.winner_id is not None],
    )
    seeds = _seeds(main)
    if len(losers) < 2:
        third.delete()  # a semi-final was a bye: nobody to play for third place
        return
    for place, entry_id in enumerate(sorted(losers, key=lambda e: seeds[e])):
        BracketSlot.objects.create(match=third, place=place, entry_id=entry_id)


def _ready(match: BracketMatch, number: int) -> bool:
    """A match is seated in its own tournament round once all its entries are known: the
    seeds of a first-round table (two at a short table of three), two for third place,
    else one per feeder (two byes meet in the second round, not the first)."""
    if match.table_id is not None or match.winner_id is not None:
        return False
    if match.bracket.first_round_number + match.round_index - 1 != number:
        return False
    slots = len(match.slots.all())
    if match.kind == BracketMatch.Kind.THIRD_PLACE:
        return slots == 2
    if match.round_index == 1:
        return slots >= 2
    return slots == match.bracket.per_table


def _round_draft(*, tournament: Tournament, number: int) -> Round | None:
    """Draft tournament round ``number`` with a table for every bracket match that has
    all its entries and no table yet: main bracket first, then third place, then plate;
    None when no match is left to play."""
    ready = [
        m
        for m in BracketMatch.objects.filter(bracket__tournament=tournament)
        .select_related("bracket")
        .prefetch_related("slots")
        .order_by("bracket__section", "kind", "round_index", "position")
        if _ready(m, number)
    ]
    if not ready:
        return None
    tournament_open_check(tournament=tournament)
    if number > tournament.rounds_count:
        raise ValidationError(
            _("The tournament has %(n)d rounds.") % {"n": tournament.rounds_count},
            code="too_many_rounds",
        )
    round = Round.objects.create(
        tournament=tournament,
        number=number,
        pairing_seed=tournament.seed,
        stage=Round.Stage.KNOCKOUT,
    )
    entries = {
        e.pk: e
        for e in Entry.objects.filter(
            pk__in={s.entry_id for m in ready for s in m.slots.all()}
        ).select_related("partnership", "player")
    }
    for number_at, match in enumerate(ready, start=1):
        seated = [entries[s.entry_id] for s in sorted(match.slots.all(), key=lambda s: s.place)]
        count = sum(2 if e.partnership_id is not None else 1 for e in seated)
        match.table = table_create(
            round=round,
            number=number_at,
            seats=seats_for_entries(seated, player_count=count),
            cost={"knockout": match.bracket.section},
        )
        match.save(update_fields=["table"])
    return round


@transaction.atomic
def bracket_advance(*, tournament: Tournament) -> Round | None:
    """Decide the closed knockout round's tables and draft the next knockout round;
    None once every match is decided (the knockout is over)."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    main = tournament.brackets.filter(section=Bracket.Section.MAIN).first()
    if main is None:
        raise ValidationError(_("This tournament has no knockout."), code="no_bracket")
    last = _last_round(tournament)
    if last is None or not last.is_knockout or last.status != Round.Status.FINISHED:
        raise ValidationError(
            _("Close the knockout round before drafting the next one."), code="round_not_closed"
        )
    rule = _tie_rule(tournament)
    waiting: list[str] = []
    for bracket in tournament.brackets.all():
        seeds = _seeds(bracket)
        played = (
            bracket.matches.filter(table__round=last)
            .select_related("table", "table__result", "bracket")
            .prefetch_related("table__seats", "table__result__sides")
            .order_by("table__number")
        )
        for match in played:
            if not _decide(match, seeds, rule):
                assert match.table is not None
                waiting.append(str(match.table.number))
    if waiting:
        raise ValidationError(
            ngettext(
                "Table %(tables)s is tied: record who won the extra hand first.",
                "Tables %(tables)s are tied: record who won the extra hands first.",
                len(waiting),
            )
            % {"tables": ", ".join(waiting)},
            code="tie_undecided",
        )
    _plate_open(main=main)
    _third_place_open(main=main)
    return _round_draft(tournament=tournament, number=last.number + 1)


@transaction.atomic
def bracket_match_decide(*, match: BracketMatch, winner: Entry) -> BracketMatch:
    """Record who won the extra hand(s) of a tied knockout match: they advance. Only
    under the rule set's extra-hand rule (under the other the higher seed advances when
    the round is closed); the tournament is locked first, as ``bracket_advance`` locks it."""
    tournament = Tournament.objects.select_for_update().get(brackets__matches=match.pk)
    if _tie_rule(tournament) != TieRule.EXTRA_HAND:
        raise ValidationError(
            _("Under this tournament's rule set a tied match sends the higher seed through."),
            code="tie_rule",
        )
    match = BracketMatch.objects.select_for_update().select_related("bracket").get(pk=match.pk)
    if match.winner_id is not None:
        raise ValidationError(_("This match is decided already."), code="decided")
    table = match.table
    placings = None if table is None else table_placings(table)
    if placings is None or table is None or table.round.status == Round.Status.DRAFT:
        raise ValidationError(_("This match has no result yet."), code="no_result")
    tied = tied_on_top(placings)
    if len(tied) < 2:
        raise ValidationError(_("This match was not tied."), code="not_tied")
    if winner.pk not in tied:
        raise ValidationError(
            _("%(who)s was not among the tied entries.") % {"who": winner.display_name},
            code="not_tied_entry",
        )
    _winner_set(match=match, entry_id=winner.pk, decided_by=Decision.EXTRA_HAND)
    return match
