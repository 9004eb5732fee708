"""Every page of the league's admin x every role x an object of the organiser's own club,
of another club, and a visiting player — read from the admin's URL patterns, so a new
admin page without an expectation here fails ``test_every_admin_page_has_an_expectation``.

Roles: anonymous, a club A scorekeeper, the organiser of club A, of club B, of both, and
the superuser. Contact details (email, phone) must appear only to the organisers of the
player's home club and the superuser — on change pages, history, export and autocomplete.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from league.models import Membership, Tournament
from league.services.clubs import membership_add
from tests.factories import (
    ClubFactory,
    DivisionFactory,
    EntryFactory,
    PartnershipFactory,
    PlayerFactory,
    RuleSetFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
)

ROLES = ("anonymous", "scorekeeper_a", "organiser_a", "organiser_b", "organiser_ab", "superuser")
KINDS = ("own", "other", "visitor")
VIEWS = ("changelist", "add", "change", "delete", "history", "export", "import", "autocomplete")

#: The league models whose admin pages are probed by club (the rest: below).
CLUB_MODELS = (
    "club",
    "membership",
    "ruleset",
    "season",
    "division",
    "player",
    "partnership",
    "tournament",
    "entry",
)
#: Admin pages of league models that hang off a tournament (rounds, tables, results) or
#: belong to one user (API tokens): tested by their own suites; here only the anonymous
#: and scorekeeper refusals are checked.
OTHER_MODELS = ("round", "table", "tableresult", "apitoken")


@dataclass
class World:
    objects: dict[tuple[str, str], Any]
    users: dict[str, Any]


def _world() -> World:
    a, b = ClubFactory(name="Klub A"), ClubFactory(name="Klub B")
    users = {"superuser": UserFactory(username="root", is_staff=True, is_superuser=True)}
    for role, clubs, kind in (
        ("scorekeeper_a", [a], Membership.Role.SCOREKEEPER),
        ("organiser_a", [a], Membership.Role.ORGANISER),
        ("organiser_b", [b], Membership.Role.ORGANISER),
        ("organiser_ab", [a, b], Membership.Role.ORGANISER),
    ):
        users[role] = UserFactory(username=role, is_staff=True)
        for club in clubs:
            membership_add(club=club, user=users[role], role=kind)
    objects: dict[tuple[str, str], Any] = {}
    for kind, club in (("own", a), ("other", b)):
        rules = RuleSetFactory(club=club)
        season = SeasonFactory(club=club, rule_set=rules)
        tournament = TournamentFactory(season=season, club=club, accepts_visitors=True)
        p1 = PlayerFactory(home_club=club, email=f"{kind}@example.org", phone=f"0812{kind}")
        p2 = PlayerFactory(home_club=club)
        objects.update(
            {
                ("club", kind): club,
                ("membership", kind): Membership.objects.get(
                    user=users["organiser_a" if kind == "own" else "organiser_b"], club=club
                ),
                ("ruleset", kind): rules,
                ("season", kind): season,
                ("division", kind): DivisionFactory(season=season),
                ("player", kind): p1,
                ("partnership", kind): PartnershipFactory(player_a=p1, player_b=p2),
                ("tournament", kind): tournament,
                ("entry", kind): EntryFactory(tournament=tournament, player=p1),
            }
        )
    # Club B's player entered in club A's inter-club tournament.
    visitor = PlayerFactory(home_club=b, email="visitor@example.org", phone="0812visitor")
    objects[("player", "visitor")] = visitor
    objects[("entry", "visitor")] = EntryFactory(
        tournament=objects[("tournament", "own")], player=visitor
    )
    return World(objects, users)


ORGANISERS_OF = {
    "own": {"organiser_a", "organiser_ab", "superuser"},
    "other": {"organiser_b", "organiser_ab", "superuser"},
    "visitor": {"organiser_b", "organiser_ab", "superuser"},  # the visitor's home club
}
ANY_ORGANISER = {"organiser_a", "organiser_b", "organiser_ab", "superuser"}

Rule = Callable[[str, str], bool]


def _owner(role: str, kind: str) -> bool:
    return role in ORGANISERS_OF[kind]


def _any(role: str, kind: str) -> bool:
    return role in ANY_ORGANISER


def _super(role: str, kind: str) -> bool:
    return role == "superuser"


def _host(role: str, kind: str) -> bool:
    # An entry belongs to its tournament's club: a visitor's entry is the host's (A).
    return role in ORGANISERS_OF["own" if kind == "visitor" else kind]


#: model → view → who may open it (for an object of that kind).
EXPECT: dict[str, dict[str, Rule]] = {
    "club": {
        "changelist": _any,
        "add": _super,
        "change": _owner,
        "delete": _super,
        "history": _owner,
    },
    "membership": {
        "changelist": _any,
        "add": _any,
        "change": _owner,
        "delete": _owner,
        "history": _owner,
    },
    "ruleset": {
        "changelist": _any,
        "add": _any,
        "change": _owner,
        "delete": _owner,
        "history": _owner,
    },
    "season": {
        "changelist": _any,
        "add": _any,
        "change": _owner,
        "delete": _owner,
        "history": _owner,
    },
    "division": {
        "changelist": _any,
        "add": _any,
        "change": _owner,
        "delete": _owner,
        "history": _owner,
    },
    # Names are public (as on the site): any organiser may open a player to enter them as
    # a visitor; only the home club changes them or reads their contact details.
    "player": {
        "changelist": _any,
        "add": _any,
        "change": _any,
        "delete": _super,
        "history": _any,
        "export": _any,
        "import": _any,
        "autocomplete": _any,
    },
    "partnership": {
        "changelist": _any,
        "add": _any,
        "change": _any,
        "delete": _super,
        "history": _any,
        "export": _any,
        "import": _any,
    },
    "tournament": {
        "changelist": _any,
        "add": _any,
        "change": _host,
        "delete": _super,
        "history": _host,
    },
    "entry": {
        "history": _host,
        "changelist": _any,
        "add": _any,
        "change": _host,
        "delete": _host,
        "export": _any,
        "import": _any,
    },
}
#: who changes (not only opens) a player: the home club.
PLAYER_WRITE: Rule = _owner


def admin_pages() -> set[tuple[str, str]]:
    """(model, view) for every league admin URL the admin's patterns define."""
    found = set()
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label != "league":
            continue
        prefix = f"league_{model._meta.model_name}_"
        for pattern in model_admin.get_urls():
            name = pattern.name or ""
            if name.startswith(prefix):
                view = name[len(prefix) :]
                # One version of a simple-history page answers like the history it lists.
                view = {"process_import": "import", "simple_history": "history"}.get(view, view)
                found.add((model._meta.model_name, view))
        if model_admin.get_search_fields(None):  # type: ignore[arg-type]
            found.add((model._meta.model_name, "autocomplete"))
    return found


@pytest.mark.django_db
def test_every_admin_page_has_an_expectation() -> None:
    # Given every page the league's admin serves
    pages = admin_pages()
    # Then each has an expectation here (or is one of the tournament-scoped pages)
    missing = {
        (m, v)
        for m, v in pages
        if m not in OTHER_MODELS and v not in EXPECT.get(m, {}) and v != "autocomplete"
    }
    assert not missing, f"admin pages without an expectation: {sorted(missing)}"
    assert {m for m, _ in pages} <= set(CLUB_MODELS) | set(OTHER_MODELS)


def _client(w: World, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(w.users[role])
    return client


def _url(model: str, view: str, obj: Any) -> str:
    if view in ("changelist", "add", "export", "import"):
        return reverse(f"admin:league_{model}_{view}")
    return reverse(f"admin:league_{model}_{view}", args=[obj.pk])


def _allowed(response: Any) -> bool:
    return response.status_code == 200


CASES = [
    (model, view, role, kind)
    for model, views in EXPECT.items()
    for view in views
    if view != "autocomplete"
    for role in ROLES
    for kind in (KINDS if model in ("player", "entry") else KINDS[:2])
    if not (kind != "own" and view in ("changelist", "add", "export", "import"))
]


@pytest.fixture
def world(db: None) -> World:
    return _world()


@pytest.mark.parametrize(("model", "view"), sorted({(m, v) for m, v, _, _ in CASES}))
def test_admin_page_opens_only_to_the_roles_it_should(world: World, model: str, view: str) -> None:
    wrong = []
    for m, v, role, kind in CASES:
        if (m, v) != (model, view):
            continue
        obj = world.objects[(model, kind)]
        response = _client(world, role).get(_url(model, view, obj))
        expected = role != "anonymous" and EXPECT[model][view](role, kind)
        if _allowed(response) != expected:
            wrong.append((role, kind, response.status_code, expected))
    assert not wrong, wrong


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("kind", KINDS)
def test_contact_details_show_only_to_the_home_clubs_organisers(
    world: World, role: str, kind: str
) -> None:
    # Given a player of one club (or a visitor entered in club A's tournament)
    player = world.objects[("player", kind)]
    client = _client(world, role)
    # When the role opens the change page, the history, the export and the autocomplete
    pages = [
        client.get(_url("player", "change", player)),
        client.get(_url("player", "history", player)),
        client.post(
            reverse("admin:league_player_export"),
            {
                "format": "0",
                "resource": "0",
                **{f"playerresource_{f}": "on" for f in ("id", "name", "email", "phone")},
            },
        ),
        client.get(
            reverse("admin:autocomplete"),
            {
                "app_label": "league",
                "model_name": "entry",
                "field_name": "player",
                "term": player.name,
            },
        ),
    ]
    # Then the email and phone appear only for the home club's organisers and the superuser
    shown = any(player.email in r.content.decode(errors="replace") for r in pages)
    assert shown == (role in ORGANISERS_OF[kind])
    assert all(player.phone not in r.content.decode(errors="replace") for r in pages) or (
        role in ORGANISERS_OF[kind]
    )


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("kind", KINDS)
def test_only_the_home_club_changes_a_player(world: World, role: str, kind: str) -> None:
    # Given a player
    player = world.objects[("player", kind)]
    # When the role posts a new email on the change page
    _client(world, role).post(
        _url("player", "change", player),
        {
            "name": player.name,
            "slug": player.slug,
            "email": "taken@example.org",
            "home_club": player.home_club_id,
            "is_active": "on",
        },
    )
    player.refresh_from_db()
    # Then it is stored only for the home club's organisers
    assert (player.email == "taken@example.org") == PLAYER_WRITE(role, kind)


@pytest.mark.parametrize("role", ("organiser_a", "organiser_b"))
def test_other_models_refuse_the_scorekeeper_and_the_public(world: World, role: str) -> None:
    for model in OTHER_MODELS:
        url = reverse(f"admin:league_{model}_changelist")
        assert Client().get(url).status_code == 302  # to the login page
        assert _client(world, "scorekeeper_a").get(url).status_code in (302, 403)
        if model != "apitoken":  # tokens are managed on the user's own token page
            assert _client(world, role).get(url).status_code == 200


def test_shipped_rule_sets_stay_read_only_to_organisers(world: World) -> None:
    from league.models import RuleSet

    shared = RuleSet.objects.filter(club__isnull=True).first() or RuleSetFactory(club=None)
    client = _client(world, "organiser_a")
    assert client.get(_url("ruleset", "change", shared)).status_code == 200  # view only
    client.post(
        _url("ruleset", "change", shared),
        {
            "name": "Diubah",
            "target_2": 1,
            "target_3": 1,
            "target_4": 1,
            "hand_size_2": 9,
            "hand_size_3": 7,
            "hand_size_4": 5,
            "blocked_award": "opponents",
        },
    )
    shared.refresh_from_db()
    assert shared.name != "Diubah"
    assert Tournament.objects.exists()
