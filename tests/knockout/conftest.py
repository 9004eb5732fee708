"""Helpers for the knockout's tests: a tournament with seeded entries, and playing a
knockout round to its end through the league's services (agreed scores, as the desk
records them), the better seed winning unless told otherwise."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from knockout.models import BracketMatch
from knockout.services import bracket_create
from league.models import Entry, Round, Tournament
from league.services.registration import entry_create, partnership_create, player_create
from league.services.results import table_agreed_record
from league.services.rounds import round_close, round_publish
from tests.factories import ClubFactory, RuleSetFactory, SeasonFactory, TournamentFactory


def seeded_tournament(
    entries: int, *, partnerships: bool = False, knockout_tie: str = "extra_hand", **fields: Any
) -> Tournament:
    """A running tournament whose entries' own seeds (and so equal ratings) order them."""
    club = ClubFactory()
    rule_set = RuleSetFactory(club=club, knockout_tie=knockout_tie)
    season = SeasonFactory(club=club, rule_set=rule_set)
    fields.setdefault("rounds_count", 10)
    if partnerships:
        fields.setdefault("format", Tournament.Format.FIXED_PARTNERSHIP)
        fields.setdefault("table_size", Tournament.TableSize.FOUR)
    tournament = TournamentFactory(season=season, club=club, **fields)
    for seed in range(1, entries + 1):
        if partnerships:
            pair = partnership_create(
                player_a=player_create(name=f"Pemain {seed}A", home_club=club),
                player_b=player_create(name=f"Pemain {seed}B", home_club=club),
            )
            entry_create(tournament=tournament, partnership=pair, seed=seed)
        else:
            entry_create(
                tournament=tournament,
                player=player_create(name=f"Pemain {seed:02d}", home_club=club),
                seed=seed,
            )
    return tournament


def timed_semi_finals(
    organiser: Any, *, knockout_tie: str = "extra_hand", **fields: Any
) -> tuple[Tournament, Round]:
    """Four seeded entries whose knockout semi-finals are published, "to the target or 30
    minutes", ``knockout_tie`` deciding a tie; ``organiser`` runs the tournament."""
    tournament = seeded_tournament(4, knockout_tie=knockout_tie, **fields)
    rule_set = tournament.effective_rule_set
    rule_set.time_limit = 30
    rule_set.save()
    tournament.organisers.add(organiser)
    bracket_create(tournament=tournament, source="ratings")
    return tournament, round_publish(round=tournament.rounds.get(number=1))


def seed_of(entry_id: int) -> int:
    seed = Entry.objects.get(pk=entry_id).seed
    assert seed is not None
    return seed


Chooser = Callable[[list[int]], int | None]


def better_seed(entries: list[int]) -> int | None:
    return min(entries, key=seed_of)


def play_round(
    round: Round, choose: Chooser = better_seed, totals: Mapping[int, int] | None = None
) -> None:
    """Publish the round, give each table a result (the chosen entry on 50, the others on
    less; ``None`` from ``choose`` ties the table's first two), and close it."""
    round_publish(round=round)
    for table in round.tables.prefetch_related("seats").order_by("number"):
        entries = list(dict.fromkeys(s.entry_id for s in table.seats.order_by("number")))
        side_of_entry = {
            s.entry_id: (s.number if table.player_count != 4 else s.number % 2)
            for s in table.seats.all()
        }
        chosen = choose(entries)
        scores = {side_of_entry[e]: 10 * (i + 1) for i, e in enumerate(entries)}
        if chosen is None:
            scores[side_of_entry[entries[0]]] = scores[side_of_entry[entries[1]]] = 50
        else:
            scores[side_of_entry[chosen]] = 50
        table_agreed_record(table_id=table.pk, totals=scores, user=None)
    round_close(round=round)


def bracket_round(tournament: Tournament, section: str, index: int) -> list[list[int]]:
    """Each match of one bracket round, as the seeds of its entries in their places."""
    matches = BracketMatch.objects.filter(
        bracket__tournament=tournament,
        bracket__section=section,
        kind=BracketMatch.Kind.BRACKET,
        round_index=index,
    ).order_by("position")
    seeds = {}
    for m in matches:
        seeds[m.pk] = [
            m.bracket.entrants.get(entry_id=s.entry_id).seed for s in m.slots.order_by("place")
        ]
    return [seeds[m.pk] for m in matches]
