"""The access table: for every API endpoint and method, who may use it on things of
tournament A ("own"), and a valid request to try.

``LEVEL`` names the least role that may act, and the roles that pass follow from it:

- ``PUBLIC``: everyone, anonymous included.
- ``ORGANISER``: any organiser (of any club, acting for their own) and superusers.
- ``SCORE``: the scorekeepers and organisers of tournament A, and superusers.
- ``MANAGE``: the organisers of tournament A (they organise its club, A), and superusers.
- ``SUPER``: superusers only.

A row with a ``body`` sends a valid request and expects success from allowed roles.
A row without one (an endpoint of another app whose bodies this table does not know)
expects allowed roles to get past authentication and permissions (any status but
401/403/404) and denied roles to be stopped (401 anonymous, 403 or 404 otherwise).
Endpoints added later must get a row here: ``test_every_endpoint_has_an_expectation``
fails until they do.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PUBLIC = "public"
ORGANISER = "organiser"
SCORE = "score"
MANAGE = "manage"
SUPER = "super"

ALLOWED: dict[str, set[str]] = {
    PUBLIC: {
        "anonymous",
        "outsider",
        "scorekeeper_own",
        "scorekeeper_other",
        "organiser_own",
        "organiser_other",
        "superuser",
    },
    ORGANISER: {"organiser_own", "organiser_other", "superuser"},
    SCORE: {"scorekeeper_own", "organiser_own", "superuser"},
    MANAGE: {"organiser_own", "superuser"},
    SUPER: {"superuser"},
}

Builder = Callable[[Any], dict[str, Any]]
_seq = itertools.count(1)


def _n() -> int:
    return next(_seq)


@dataclass(frozen=True)
class Expect:
    level: str
    kwargs: Builder | None = None  # URL kwargs from the world
    body: Builder | None = None  # a valid body (None: see the module docstring)
    ok: int = 200  # the status an allowed role gets with ``body``
    anonymous: int = 401  # the status an anonymous caller gets when refused
    setup: Callable[[Any], Any] | None = None  # extra objects (e.g. a free rule set)


def pk(getter: Callable[[Any], Any]) -> Builder:
    return lambda w: {"pk": getter(w).pk}


def _free_rule_set(w: Any) -> Any:
    from tests.factories import RuleSetFactory

    w.free_rule_set = RuleSetFactory(club=w.club_a)
    return w.free_rule_set


def _knockout(w: Any) -> Any:
    from knockout.services import bracket_create
    from tests.factories import EntryFactory, TournamentFactory

    w.knockout = TournamentFactory(season=w.season, rounds_count=2)
    for seed in (1, 2):
        EntryFactory(tournament=w.knockout, seed=seed)
    return bracket_create(tournament=w.knockout, source="ratings")


def _free_season(w: Any) -> Any:
    from tests.factories import SeasonFactory

    w.free_season = SeasonFactory(rule_set=w.rule_set, club=w.club_a)
    return w.free_season


def _division(w: Any) -> Any:
    from league.models import Division

    w.division = Division.objects.create(season=w.season, name=f"Divisi {_n()}")
    return w.division


def _partnership_own(w: Any) -> Any:
    from tests.factories import PartnershipFactory

    a, b = w.own.players[:2]
    w.partnership = PartnershipFactory(player_a=a, player_b=b)
    return w.partnership


def _empty_tournament(w: Any) -> Any:
    from tests.factories import TournamentFactory

    w.empty_tournament = TournamentFactory(season=w.season)
    w.empty_tournament.organisers.add(w.users["organiser_own"])
    return w.empty_tournament


def _free_player(w: Any) -> Any:
    from tests.factories import PlayerFactory

    w.free_player = PlayerFactory(home_club=w.club_a)
    return w.free_player


def _unseated_entry(w: Any) -> Any:
    from tests.factories import EntryFactory

    w.unseated_entry = EntryFactory(tournament=w.own.tournament)
    return w.unseated_entry


def _finished_table(w: Any) -> Any:
    """Round 1 of tournament A with its only table finished, so it can be closed."""
    from league.models import Table

    Table.objects.filter(pk=w.own.table_published.pk).update(status=Table.Status.FINISHED)
    return w.own.round_published


def _rule_set_body(w: Any) -> dict[str, Any]:
    return {"name": f"Aturan {_n()}", "target_2": 150, "blocked_award": "difference"}


def _club_rule_set_body(w: Any) -> dict[str, Any]:
    return {**_rule_set_body(w), "club": w.club_a.pk}


def _scorekeeper_a(w: Any) -> Any:
    from league.models import Membership
    from tests.factories import MembershipFactory, UserFactory

    w.membership = MembershipFactory(
        user=UserFactory(username=f"pencatat{_n()}"),
        club=w.club_a,
        role=Membership.Role.SCOREKEEPER,
    )
    return w.membership


def _new_user(w: Any) -> Any:
    from tests.factories import UserFactory

    return UserFactory(username=f"anggota{_n()}")


def _season_body(w: Any) -> dict[str, Any]:
    return {
        "club": w.club_a.pk,
        "name": f"Musim {_n()}",
        "starts_on": "2026-01-01",
        "ends_on": "2026-06-30",
        "rule_set": w.rule_set.pk,
        "status": "planned",
    }


def _tournament_body(w: Any) -> dict[str, Any]:
    return {
        "name": f"Piala {_n()}",
        "season": w.season.pk,
        "format": "swiss",
        "table_size": "2",
        "rounds_count": 3,
        "placing_points_3": [3, 1.5, 0],
        "tiebreaks": ["match_points", "wins", "lot"],
    }


def _entry_body(w: Any) -> dict[str, Any]:
    from tests.factories import PlayerFactory

    player = PlayerFactory(home_club=w.club_a)
    return {"tournament": w.own.tournament.pk, "player": player.pk, "seed": 9}


def _table_body(w: Any) -> dict[str, Any]:
    from tests.factories import EntryFactory

    entries = [EntryFactory(tournament=w.own.tournament) for _ in range(2)]
    return {
        "round": w.own.round_draft.pk,
        "number": 2,
        "seats": [
            {"number": i, "entry": e.pk, "player": e.player_id} for i, e in enumerate(entries)
        ],
    }


TALLY_HAND = {"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}, "left": {"1": 10}}


WINNING_HAND = {"leader": 0, "scores": [[0, 10]], "end": {"target": True}}


def _match(w: Any) -> Any:
    """The match at tournament A's published table (created on first use)."""
    from league.models import Table
    from matches.models import Match
    from matches.services.lifecycle import match_for_table

    match = Match.objects.filter(table=w.own.table_published).first()
    return match or match_for_table(table=Table.objects.get(pk=w.own.table_published.pk))


def _match_with_hand(w: Any) -> Any:
    from matches.services.hands import hand_record

    match = _match(w)
    hand_record(match=match, number=1, hand=TALLY_HAND, version=match.version, user=None)
    return _match(w)


def _won_match(w: Any) -> Any:
    """A match to 10 points whose first hand reached the target."""
    from league.models import Table
    from matches.services.hands import hand_record

    Table.objects.filter(pk=w.own.table_published.pk).update(target=10)
    match = _match(w)
    hand_record(match=match, number=1, hand=WINNING_HAND, version=match.version, user=None)
    return _match(w)


def _finished_match(w: Any) -> Any:
    from matches.models import Match
    from matches.services.lifecycle import match_finish

    match = _won_match(w)
    if match.status != Match.Status.FINISHED:
        match_finish(match=match, version=match.version, user=w.users["superuser"])
    return _match(w)


def _reopened_match(w: Any) -> Any:
    from matches.services.lifecycle import match_reopen

    match = _finished_match(w)
    match_reopen(match=match, version=match.version, user=w.users["superuser"])
    return _match(w)


def _match_kwargs(w: Any) -> dict[str, Any]:
    return {"match_id": _match(w).pk}


def _hand_kwargs(w: Any) -> dict[str, Any]:
    return {"match_id": _match(w).pk, "number": 1}


def _version(w: Any) -> dict[str, Any]:
    return {"version": _match(w).version}


TABLE: dict[tuple[str, str], Expect] = {
    # Schema and docs: public.
    ("api-schema", "GET"): Expect(PUBLIC),
    ("api-docs", "GET"): Expect(PUBLIC),
    ("api-redoc", "GET"): Expect(PUBLIC),
    # Clubs: anyone reads; the superuser founds one; its organisers change it.
    ("club-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("club-list", "POST"): Expect(
        SUPER, body=lambda w: {"name": f"Klub {_n()}", "city": "Malang"}, ok=201
    ),
    ("club-detail", "GET"): Expect(PUBLIC, pk(lambda w: w.club_a), body=lambda w: {}),
    ("club-detail", "PUT"): Expect(
        MANAGE, pk(lambda w: w.club_a), body=lambda w: {"name": "Klub A", "city": "Kediri"}
    ),
    ("club-detail", "PATCH"): Expect(
        MANAGE, pk(lambda w: w.club_a), body=lambda w: {"city": "Blitar"}
    ),
    ("club-detail", "DELETE"): Expect(SUPER, pk(lambda w: w.club_a)),
    # Memberships: a club's members see them (404 to others); its organisers manage them.
    ("membership-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("membership-list", "POST"): Expect(
        MANAGE,
        body=lambda w: {"club": w.club_a.pk, "user": _new_user(w).username, "role": "scorekeeper"},
        ok=201,
    ),
    ("membership-detail", "GET"): Expect(
        MANAGE, pk(lambda w: w.membership), body=lambda w: {}, anonymous=404, setup=_scorekeeper_a
    ),
    ("membership-detail", "PUT"): Expect(
        MANAGE,
        pk(lambda w: w.membership),
        body=lambda w: {
            "club": w.club_a.pk,
            "user": w.membership.user.username,
            "role": "organiser",
        },
        setup=_scorekeeper_a,
    ),
    ("membership-detail", "PATCH"): Expect(
        MANAGE,
        pk(lambda w: w.membership),
        body=lambda w: {"role": "organiser"},
        setup=_scorekeeper_a,
    ),
    ("membership-detail", "DELETE"): Expect(
        MANAGE, pk(lambda w: w.membership), body=lambda w: {}, ok=204, setup=_scorekeeper_a
    ),
    # Rule sets, seasons, divisions: a club's organisers write its own (club A's here).
    ("ruleset-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("ruleset-list", "POST"): Expect(MANAGE, body=_club_rule_set_body, ok=201),
    ("ruleset-detail", "GET"): Expect(PUBLIC, pk(lambda w: w.rule_set), body=lambda w: {}),
    # A club's organisers copy a rule set into it.
    ("ruleset-copy", "POST"): Expect(
        MANAGE, pk(lambda w: w.rule_set), body=lambda w: {"club": w.club_a.pk}, ok=201
    ),
    ("ruleset-detail", "PUT"): Expect(MANAGE, pk(lambda w: w.rule_set), body=_rule_set_body),
    ("ruleset-detail", "PATCH"): Expect(
        MANAGE, pk(lambda w: w.rule_set), body=lambda w: {"target_4": 300}
    ),
    ("ruleset-detail", "DELETE"): Expect(
        MANAGE, pk(lambda w: w.free_rule_set), body=lambda w: {}, ok=204, setup=_free_rule_set
    ),
    ("season-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("season-list", "POST"): Expect(MANAGE, body=_season_body, ok=201),
    ("season-detail", "GET"): Expect(PUBLIC, pk(lambda w: w.season), body=lambda w: {}),
    ("season-detail", "PUT"): Expect(MANAGE, pk(lambda w: w.season), body=_season_body),
    ("season-detail", "PATCH"): Expect(
        MANAGE, pk(lambda w: w.season), body=lambda w: {"status": "finished"}
    ),
    ("season-detail", "DELETE"): Expect(
        MANAGE, pk(lambda w: w.free_season), body=lambda w: {}, ok=204, setup=_free_season
    ),
    ("division-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("division-list", "POST"): Expect(
        MANAGE, body=lambda w: {"season": w.season.pk, "name": f"Divisi {_n()}"}, ok=201
    ),
    ("division-detail", "GET"): Expect(
        PUBLIC, pk(lambda w: w.division), body=lambda w: {}, setup=_division
    ),
    ("division-detail", "PUT"): Expect(
        MANAGE,
        pk(lambda w: w.division),
        body=lambda w: {"season": w.season.pk, "name": f"Divisi {_n()}", "order": 2},
        setup=_division,
    ),
    ("division-detail", "PATCH"): Expect(
        MANAGE, pk(lambda w: w.division), body=lambda w: {"order": 3}, setup=_division
    ),
    ("division-detail", "DELETE"): Expect(
        MANAGE, pk(lambda w: w.division), body=lambda w: {}, ok=204, setup=_division
    ),
    # Players: organisers add to their club; they change their club's players.
    ("player-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("player-list", "POST"): Expect(
        ORGANISER, body=lambda w: {"name": f"Budi {_n()}", "email": "b@example.org"}, ok=201
    ),
    ("player-detail", "GET"): Expect(PUBLIC, pk(lambda w: w.own.players[0]), body=lambda w: {}),
    ("player-detail", "PUT"): Expect(
        MANAGE,
        pk(lambda w: w.own.players[0]),
        body=lambda w: {"name": "Ani", "nickname": "A", "club": "Klub", "phone": "0813"},
    ),
    ("player-detail", "PATCH"): Expect(
        MANAGE, pk(lambda w: w.own.players[0]), body=lambda w: {"club": "Klub Baru"}
    ),
    ("player-detail", "DELETE"): Expect(
        SUPER, pk(lambda w: w.free_player), body=lambda w: {}, ok=204, setup=_free_player
    ),
    ("partnership-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("partnership-list", "POST"): Expect(
        MANAGE,
        body=lambda w: {"player_a": w.own.players[2].pk, "player_b": w.own.players[3].pk},
        ok=201,
    ),
    ("partnership-detail", "GET"): Expect(
        PUBLIC, pk(lambda w: w.partnership), body=lambda w: {}, setup=_partnership_own
    ),
    ("partnership-detail", "PUT"): Expect(
        MANAGE,
        pk(lambda w: w.partnership),
        body=lambda w: {
            "name": "Duo",
            "player_a": w.own.players[0].pk,
            "player_b": w.own.players[1].pk,
            "seasons": [w.season.pk],
        },
        setup=_partnership_own,
    ),
    ("partnership-detail", "PATCH"): Expect(
        MANAGE, pk(lambda w: w.partnership), body=lambda w: {"name": "Duo"}, setup=_partnership_own
    ),
    ("partnership-detail", "DELETE"): Expect(
        SUPER, pk(lambda w: w.partnership), body=lambda w: {}, ok=204, setup=_partnership_own
    ),
    # Tournaments: a club's organisers create them (in club A's season here) and manage them.
    ("tournament-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("tournament-list", "POST"): Expect(MANAGE, body=_tournament_body, ok=201),
    ("tournament-detail", "GET"): Expect(PUBLIC, pk(lambda w: w.own.tournament), body=lambda w: {}),
    ("tournament-detail", "PUT"): Expect(
        MANAGE, pk(lambda w: w.own.tournament), body=_tournament_body
    ),
    ("tournament-detail", "PATCH"): Expect(
        MANAGE, pk(lambda w: w.own.tournament), body=lambda w: {"venue": "Balai RW 3"}
    ),
    # A tournament whose tables were seated cannot be deleted at all (409): try an empty one.
    ("tournament-detail", "DELETE"): Expect(
        SUPER, pk(lambda w: w.empty_tournament), body=lambda w: {}, ok=204, setup=_empty_tournament
    ),
    ("tournament-duplicate", "POST"): Expect(
        MANAGE, pk(lambda w: w.own.tournament), body=lambda w: {}, ok=201
    ),
    # Entries.
    ("entry-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("entry-list", "POST"): Expect(MANAGE, body=_entry_body, ok=201),
    ("entry-detail", "GET"): Expect(PUBLIC, pk(lambda w: w.own.entries[0]), body=lambda w: {}),
    ("entry-detail", "PUT"): Expect(
        MANAGE, pk(lambda w: w.own.entries[0]), body=lambda w: {"seed": 3, "is_checked_in": True}
    ),
    ("entry-detail", "PATCH"): Expect(
        MANAGE, pk(lambda w: w.own.entries[0]), body=lambda w: {"seed": 4}
    ),
    ("entry-detail", "DELETE"): Expect(
        MANAGE, pk(lambda w: w.unseated_entry), body=lambda w: {}, ok=204, setup=_unseated_entry
    ),
    ("entry-withdraw", "POST"): Expect(
        MANAGE, pk(lambda w: w.own.entries[0]), body=lambda w: {"round_number": 2}
    ),
    # Rounds.
    ("round-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("round-list", "POST"): Expect(
        MANAGE, body=lambda w: {"tournament": w.own.tournament.pk}, ok=201
    ),
    ("round-detail", "GET"): Expect(PUBLIC, pk(lambda w: w.own.round_published), body=lambda w: {}),
    ("round-detail", "PUT"): Expect(
        MANAGE, pk(lambda w: w.own.round_published), body=lambda w: {"starts_at": None}
    ),
    ("round-detail", "PATCH"): Expect(
        MANAGE,
        pk(lambda w: w.own.round_published),
        body=lambda w: {"starts_at": "2026-05-01T19:00:00+07:00"},
    ),
    # A draft round is hidden from the public: denied roles get 404 there.
    ("round-detail", "DELETE"): Expect(
        MANAGE, pk(lambda w: w.own.round_draft), body=lambda w: {}, ok=204
    ),
    ("round-publish", "POST"): Expect(MANAGE, pk(lambda w: w.own.round_draft), body=lambda w: {}),
    ("round-close", "POST"): Expect(
        MANAGE, pk(lambda w: w.own.round_published), body=lambda w: {}, setup=_finished_table
    ),
    # Tables.
    ("table-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("table-list", "POST"): Expect(MANAGE, body=_table_body, ok=201),
    ("table-detail", "GET"): Expect(PUBLIC, pk(lambda w: w.own.table_published), body=lambda w: {}),
    ("table-detail", "DELETE"): Expect(
        MANAGE, pk(lambda w: w.own.table_draft), body=lambda w: {}, ok=204
    ),
    # Matches (the matches app): anyone reads a published table's match; its
    # scorekeepers and organisers score it; organisers reopen it.
    ("api-match-list", "GET"): Expect(PUBLIC, body=lambda w: {}),
    ("api-match-list", "POST"): Expect(
        SCORE, body=lambda w: {"table": w.own.table_published.pk}, ok=201
    ),
    ("api-match", "GET"): Expect(PUBLIC, _match_kwargs, body=lambda w: {}),
    # Who changed what (with user names) is for the match's scorekeepers and organisers.
    ("api-match-history", "GET"): Expect(SCORE, _match_kwargs, body=lambda w: {}, anonymous=403),
    ("api-match-scoresheet", "GET"): Expect(PUBLIC, _match_kwargs, body=lambda w: {}),
    ("api-match-scoresheet", "POST"): Expect(
        SCORE,
        _match_kwargs,
        body=lambda w: {"format": "allfives/1", "players": 2, "hands": [TALLY_HAND]},
        ok=201,
    ),
    ("api-match-hands", "POST"): Expect(
        SCORE,
        _match_kwargs,
        body=lambda w: {"number": 1, "hand": TALLY_HAND, **_version(w)},
        ok=201,
    ),
    ("api-match-hand", "PUT"): Expect(
        SCORE,
        _hand_kwargs,
        body=lambda w: {"hand": {**TALLY_HAND, "scores": [[1, 15]]}, **_version(w)},
        setup=_match_with_hand,
    ),
    ("api-match-hand", "DELETE"): Expect(
        SCORE, _hand_kwargs, body=_version, setup=_match_with_hand
    ),
    ("api-match-hand-confirm", "POST"): Expect(
        SCORE, _hand_kwargs, body=_version, setup=_match_with_hand
    ),
    ("api-match-start", "POST"): Expect(SCORE, _match_kwargs, body=_version),
    ("api-match-finish", "POST"): Expect(
        SCORE, _match_kwargs, body=_version, setup=_reopened_match
    ),
    ("api-match-reopen", "POST"): Expect(
        MANAGE, _match_kwargs, body=_version, setup=_finished_match
    ),
    ("api-match-mode", "POST"): Expect(
        SCORE, _match_kwargs, body=lambda w: {"entry_mode": "tiles", **_version(w)}
    ),
    # Standings: public for published tournaments and every season.
    ("api-tournament-standings", "GET"): Expect(
        PUBLIC, lambda w: {"slug": w.own.tournament.slug}, body=lambda w: {}
    ),
    # The knockout: public for published tournaments.
    ("api-tournament-bracket", "GET"): Expect(
        PUBLIC, lambda w: {"slug": w.knockout.slug}, body=lambda w: {}, setup=_knockout
    ),
    ("api-season-standings", "GET"): Expect(
        PUBLIC, lambda w: {"slug": w.season.slug}, body=lambda w: {}
    ),
    ("api-division-standings", "GET"): Expect(
        PUBLIC,
        lambda w: {"slug": w.season.slug, "division_id": w.division.pk},
        body=lambda w: {},
        setup=_division,
    ),
    # Pairings: a round's draw and its pairing progress are public once the
    # round is published; running the pairing is for the tournament's organisers (202).
    ("api-round-draw", "GET"): Expect(
        PUBLIC, lambda w: {"round_id": w.own.round_published.pk}, body=lambda w: {}
    ),
    ("api-round-pairing-progress", "GET"): Expect(
        PUBLIC, lambda w: {"round_id": w.own.round_published.pk}, body=lambda w: {}
    ),
    ("api-round-pair", "POST"): Expect(
        MANAGE, lambda w: {"round_id": w.own.round_draft.pk}, body=lambda w: {}, ok=202
    ),
}
