"""HTML in names is escaped on every page: every page route (read from the URL
resolver) is opened, as the public and as a superuser, with names full of markup."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from league.models import Division, Round, Season, Tournament
from tests.factories import (
    ClubFactory,
    EntryFactory,
    PartnershipFactory,
    PlayerFactory,
    RoundFactory,
    RuleSetFactory,
    SeasonFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'
RAW = [b"<script>alert(", b"<img src=x onerror"]


def _walk(patterns: list[Any], prefix: str = "", ns: str = "") -> list[tuple[str, str, Any]]:
    found = []
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            inner = f"{ns}{p.namespace}:" if p.namespace else ns
            found += _walk(p.url_patterns, route, inner)
        elif isinstance(p, URLPattern) and p.name:
            found.append((route, ns + p.name, p.pattern.converters))
    return found


def _evil_world() -> dict[str, Any]:
    club = ClubFactory(name=f"Klub {EVIL}", city=EVIL)
    rules = RuleSetFactory(name=f"Aturan {EVIL}", club=club)
    season = SeasonFactory(name=f"Musim {EVIL}", rule_set=rules, club=club)
    division = Division.objects.create(season=season, name=f"Divisi {EVIL}")
    tournament = TournamentFactory(
        name=f"Piala {EVIL}", venue=EVIL, season=season, division=division
    )
    players = [
        PlayerFactory(name=f"Budi {EVIL}", nickname=EVIL, club=EVIL, home_club=club)
        for _ in range(2)
    ]
    partnership = PartnershipFactory(name=f"Duo {EVIL}", player_a=players[0], player_b=players[1])
    entries = [EntryFactory(tournament=tournament, player=p) for p in players]
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    table = TableFactory(round=round_, number=1, player_count=2, target=250)
    for i, entry in enumerate(entries):
        SeatFactory(table=table, number=i, entry=entry, player=entry.player)
    from matches.services.lifecycle import match_for_table

    match = match_for_table(table=table)
    return {
        "club": club,
        "tournament": tournament,
        "season": season,
        "division": division,
        "player": players[0],
        "partnership": partnership,
        "round": round_,
        "table": table,
        "match": match,
    }


def _kwargs(route: str, converters: dict[str, Any], w: dict[str, Any]) -> dict[str, Any] | None:
    kwargs: dict[str, Any] = {}
    for name in converters:
        if name == "slug":
            for prefix, key in (
                ("clubs/", "club"),
                ("tournaments/", "tournament"),
                ("seasons/", "season"),
                ("players/", "player"),
                ("partnerships/", "partnership"),
            ):
                if route.lstrip("^").split("/")[0] + "/" == prefix:
                    kwargs[name] = w[key].slug
        elif name == "number":
            kwargs[name] = w["round"].number
        elif name in ("table", "table_number"):
            kwargs[name] = w["table"].number
        elif name in ("table_id",):
            kwargs[name] = w["table"].pk
        elif name == "division_id":
            kwargs[name] = w["division"].pk
        elif name in ("match_id", "pk"):
            kwargs[name] = w["match"].pk
        else:
            return None
        if name not in kwargs:
            return None
    return kwargs


def test_markup_in_names_is_escaped_on_every_page() -> None:
    # Given names, venues and clubs full of markup, and every page route
    w = _evil_world()
    Tournament.objects.filter(pk=w["tournament"].pk).update(status="running")
    Season.objects.filter(pk=w["season"].pk).update(status="running")
    root = Client()
    root.force_login(UserFactory(is_superuser=True, is_staff=True))
    clients = {"public": Client(), "superuser": root}
    opened, showing, unresolved = [], [], []
    for route, name, converters in _walk(get_resolver().url_patterns):
        if route.lstrip("^").startswith(("api/", "admin/", "i18n/", "static/")) or name.startswith(
            "admin:"
        ):
            continue
        kwargs = _kwargs(route, converters, w)
        if kwargs is None:
            unresolved.append(name)
            continue
        url = reverse(name, kwargs=kwargs)
        for who, client in clients.items():
            # When each page is opened
            response = client.get(url)
            assert response.status_code < 500, f"{who} {url}: {response.status_code}"
            if response.status_code != 200:
                continue
            content = b"".join(response) if response.streaming else response.content
            opened.append(url)
            # Then no name's markup reaches the page unescaped
            for raw in RAW:
                assert raw not in content, f"unescaped markup on {url} ({who})"
            if b"&lt;script&gt;alert(" in content:
                showing.append(url)
    # And the check saw real pages that show those names
    assert len(set(opened)) >= 5, opened
    assert len(set(showing)) >= 4, showing
    assert not [
        n
        for n in unresolved
        if not n.endswith(("revoke", "_revoke")) and n not in ONE_TIME_LINKS | HISTORY_ACTIONS
    ], unresolved


#: Pages behind a secret of their own (a password-reset token, a table's or a player's
#: private link) show no names until the secret is checked; their own tests cover them.
ONE_TIME_LINKS = {
    "password_reset_confirm",
    "matches:table_link",
    "entrants:player",
    "entrants:player_check_in",
    "entrants:player_card",
}
#: Actions on one row of a match's history (restoring a deleted hand): a POST that shows
#: no page of its own; tests/matches/test_hand_repair.py covers it.
HISTORY_ACTIONS = {"matches:hand_restore"}


@pytest.mark.parametrize(
    "url",
    [
        "/en/admin/league/player/",
        "/en/admin/league/tournament/",
        "/en/admin/league/partnership/",
        "/en/admin/league/season/",
        "/en/admin/league/table/",
        "/en/admin/league/entry/",
    ],
)
def test_markup_in_names_is_escaped_in_the_admin(url: str) -> None:
    _evil_world()
    client = Client()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    response = client.get(url)
    assert response.status_code == 200
    for raw in RAW:
        assert raw not in response.content
    assert re.search(rb"&lt;script&gt;alert\(", response.content)
