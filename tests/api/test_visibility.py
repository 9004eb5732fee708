"""What each role sees in lists and details: no drafts, no unpublished rounds or their
tables, and no contact details for the public — list endpoints included."""

from __future__ import annotations

import pytest

from league.models import Tournament
from tests.api.conftest import World
from tests.factories import EntryFactory, RoundFactory, TableFactory

pytestmark = pytest.mark.django_db


def _ids(world: World, role: str, url: str) -> set[int]:
    joiner = "&" if "?" in url else "?"
    response = world.client(role).get(f"{url}{joiner}page_size=200")
    assert response.status_code == 200, response.content
    return {row["id"] for row in response.json()["results"]}


def test_public_lists_hide_draft_rounds_and_their_tables(world: World) -> None:
    # Given tournament A with a published and a draft round, each with a table
    # When the public lists rounds and tables
    rounds = _ids(world, "anonymous", "/api/rounds/")
    tables = _ids(world, "anonymous", "/api/tables/")
    # Then the published round and its table are listed and the draft ones are not
    assert world.own.round_published.pk in rounds
    assert world.own.round_draft.pk not in rounds
    assert world.own.table_published.pk in tables
    assert world.own.table_draft.pk not in tables


@pytest.mark.parametrize(
    ("role", "sees_draft_round"),
    [
        ("anonymous", False),
        ("outsider", False),
        ("scorekeeper_own", False),
        ("organiser_other", False),
        ("organiser_own", True),
        ("superuser", True),
    ],
)
def test_draft_round_is_seen_by_its_organisers_only(
    world: World, role: str, sees_draft_round: bool
) -> None:
    # Given tournament A's draft round
    draft = world.own.round_draft
    # When each role lists rounds and asks for the draft round and its table
    listed = draft.pk in _ids(world, role, "/api/rounds/")
    detail = world.client(role).get(f"/api/rounds/{draft.pk}/")
    table = world.client(role).get(f"/api/tables/{world.own.table_draft.pk}/")
    # Then only its organisers (and superusers) see it, in the list and in detail
    assert listed is sees_draft_round
    assert (detail.status_code == 200) is sees_draft_round
    assert (table.status_code == 200) is sees_draft_round
    if not sees_draft_round:
        assert detail.status_code == 404
        assert detail.json()["ok"] is False


@pytest.mark.parametrize(
    ("role", "sees_draft"),
    [
        ("anonymous", False),
        ("outsider", False),
        ("organiser_other", False),
        ("scorekeeper_other", False),
        ("scorekeeper_own", True),
        ("organiser_own", True),
        ("superuser", True),
    ],
)
def test_draft_tournament_is_seen_by_its_people_only(
    world: World, role: str, sees_draft: bool
) -> None:
    # Given tournament A is still a draft, with an entry, a published round and a table
    Tournament.objects.filter(pk=world.own.tournament.pk).update(status="draft")
    tid = world.own.tournament.pk
    # When each role lists tournaments, entries, rounds and tables
    tournaments = _ids(world, role, "/api/tournaments/")
    entries = _ids(world, role, f"/api/entries/?tournament={tid}")
    rounds = _ids(world, role, f"/api/rounds/?tournament={tid}")
    tables = _ids(world, role, f"/api/tables/?tournament={tid}")
    detail = world.client(role).get(f"/api/tournaments/{tid}/")
    # Then the draft and everything in it shows only to its organisers and scorekeepers
    assert (tid in tournaments) is sees_draft
    assert bool(entries) is sees_draft
    assert (world.own.round_published.pk in rounds) is sees_draft
    assert (world.own.table_published.pk in tables) is sees_draft
    assert detail.status_code == (200 if sees_draft else 404)
    # And the other tournament stays visible to everyone
    assert world.other.tournament.pk in tournaments


@pytest.mark.parametrize(
    ("role", "sees_contact"),
    [
        ("anonymous", False),
        ("outsider", False),
        ("scorekeeper_own", False),
        ("organiser_other", False),
        ("organiser_own", True),
        ("superuser", True),
    ],
)
def test_contact_details_only_for_the_players_organisers(
    world: World, role: str, sees_contact: bool
) -> None:
    # Given players of tournament A with an email and a phone
    player = world.own.players[0]
    # When each role reads the player list and the player
    listing = world.client(role).get("/api/players/", {"page_size": 200}).json()["results"]
    row = next(r for r in listing if r["id"] == player.pk)
    detail = world.client(role).get(f"/api/players/{player.pk}/").json()
    # Then email and phone appear only for the organisers of A and superusers
    for shown in (row, detail):
        assert ("email" in shown) is sees_contact
        assert ("phone" in shown) is sees_contact
    if sees_contact:
        assert detail["email"] == player.email
    # And B's players show theirs only to B's organiser and superusers
    other = next(r for r in listing if r["id"] == world.other.players[0].pk)
    assert ("email" in other) is (role in ("organiser_other", "superuser"))


def test_no_public_payload_contains_an_email(world: World) -> None:
    # Given players with emails entered in tournaments, partnerships and tables
    anonymous = world.client("anonymous")
    # When the public reads every list of the league API
    bodies = [
        anonymous.get(url, {"page_size": 200}).content
        for url in (
            "/api/players/",
            "/api/partnerships/",
            "/api/entries/",
            "/api/tables/",
            "/api/tournaments/",
        )
    ]
    # Then no email address appears anywhere
    for body in bodies:
        assert b"@example.org" not in body


def test_organiser_cannot_attach_a_table_to_another_organisers_round(world: World) -> None:
    # Given tournament B's draft round and entries of B
    entries = [EntryFactory(tournament=world.other.tournament) for _ in range(2)]
    body = {
        "round": world.other.round_draft.pk,
        "number": 5,
        "seats": [
            {"number": i, "entry": e.pk, "player": e.player_id} for i, e in enumerate(entries)
        ],
    }
    # When A's organiser posts a table into it
    response = world.client("organiser_own").post("/api/tables/", body, format="json")
    # Then it is refused and nothing is created
    assert response.status_code == 403
    assert not world.other.round_draft.tables.filter(number=5).exists()


def test_table_seats_must_belong_to_the_rounds_tournament(world: World) -> None:
    # Given A's draft round and entries of tournament B
    round_ = RoundFactory(tournament=world.own.tournament, number=3, status="draft")
    b1, b2 = world.other.entries[:2]
    body = {
        "round": round_.pk,
        "number": 1,
        "seats": [
            {"number": 0, "entry": b1.pk, "player": b1.player_id},
            {"number": 1, "entry": b2.pk, "player": b2.player_id},
        ],
    }
    # When A's organiser seats B's entries at it
    response = world.client("organiser_own").post("/api/tables/", body, format="json")
    # Then the request is refused as invalid
    assert response.status_code == 400
    assert response.json()["error"]["fields"]["seats"]
    assert not TableFactory._meta.model.objects.filter(round=round_).exists()


def test_public_cannot_see_the_match_of_a_draft_rounds_table(world: World) -> None:
    # Given a match at tournament A's draft-round table
    from league.models import Table
    from matches.services.lifecycle import match_for_table

    match = match_for_table(table=Table.objects.get(pk=world.own.table_draft.pk))
    anonymous = world.client("anonymous")
    # When the public asks for it and lists matches
    detail = anonymous.get(f"/api/matches/{match.pk}/")
    listed = [m["id"] for m in anonymous.get("/api/matches/").json()]
    # Then it is hidden
    assert detail.status_code == 404
    assert match.pk not in listed


def test_public_cannot_see_a_draft_tournaments_standings(world: World) -> None:
    Tournament.objects.filter(pk=world.own.tournament.pk).update(status="draft")
    response = world.client("anonymous").get(
        f"/api/tournaments/{world.own.tournament.slug}/standings/"
    )
    assert response.status_code == 404
    assert response.json()["ok"] is False
