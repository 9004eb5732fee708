"""Giving the existing data a club keeps every row and every person's rights.

Given the demo club taken back to the layout before clubs (league ``0008``), with a few
more people of every kind made there through the historical models — an Organisers-group
member who runs no tournament, a guest organiser of one tournament, a scorekeeper of one
tournament, an inactive organiser, a plain user, players never entered — migrating to
the clubs layout keeps every row of every table (the new columns aside), puts everything
in one club, "Klub Utama", and leaves each user exactly the rights they had: the
tournaments they manage, score and see, the players whose contact details they read and
the players they may change, and whether they organise at all. The rights before are
the rules of the old layout (per-tournament organisers and scorekeepers, the Organisers
group, the superuser); the rights after are ``league.policy``'s answers. Runs on SQLite
and on PostgreSQL.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league import policy
from league.models import Club, Membership, Player, RuleSet, Season, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_CLUBS = [("league", "0008_standings_and_ratings_move_out")]
#: Tables whose rows the migrations add to (the new models' content types and
#: permissions, the Organisers group's new permissions): every old row is kept.
GROWING = {"django_content_type", "auth_permission", "auth_group_permissions"}

type Rights = dict[str, frozenset[int] | bool]


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor


def _leaves() -> list[tuple[str, str | None]]:
    """Every app's latest migration: the database must end where every other test expects it,
    with the apps built on league (taken back with it) migrated again too."""
    return list(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.fixture(autouse=True)
def _back_to_the_latest_layout() -> Any:
    """Whatever the test's outcome, the database ends on every app's latest migration."""
    yield
    _migrate(_leaves())


def _columns() -> dict[str, list[str]]:
    tables = set(connection.introspection.table_names()) - {"django_migrations"}
    with connection.cursor() as cursor:
        return {
            table: [c.name for c in connection.introspection.get_table_description(cursor, table)]
            for table in sorted(tables)
        }


def _rows(columns: dict[str, list[str]]) -> dict[str, list[str]]:
    """Every row of every table, read through the given columns only."""
    q = connection.ops.quote_name
    found = {}
    with connection.cursor() as cursor:
        for table, names in columns.items():
            cursor.execute(f"SELECT {', '.join(map(q, names))} FROM {q(table)}")  # noqa: S608
            found[table] = sorted(repr(tuple(row)) for row in cursor.fetchall())
    return found


def _more_people(apps: Any) -> None:
    """People of every kind the old layout knew, beside the demo's."""
    User = apps.get_model("auth", "User")
    Group = apps.get_model("auth", "Group")
    Tournament = apps.get_model("league", "Tournament")
    Player = apps.get_model("league", "Player")
    first, last = Tournament.objects.order_by("pk")[0], Tournament.objects.order_by("-pk")[0]
    chair = User.objects.create(username="ketua", is_staff=True)
    chair.groups.add(Group.objects.get(name="Organisers"))
    guest = User.objects.create(username="tamu", is_staff=True)
    last.organisers.add(guest)
    scorer = User.objects.create(username="pencatat")
    first.scorekeepers.add(scorer)
    gone = User.objects.create(username="pergi", is_staff=True, is_active=False)
    first.organisers.add(gone)
    User.objects.create(username="biasa")
    for name in ("Belum Main Satu", "Belum Main Dua"):
        Player.objects.create(name=name, slug=name.lower().replace(" ", "-"), email="x@y.id")


def _rights_before(apps: Any) -> dict[int, Rights]:
    """What each user could do on the old layout (the rules of its ``league.selectors``)."""
    User = apps.get_model("auth", "User")
    Tournament = apps.get_model("league", "Tournament")
    Player = apps.get_model("league", "Player")
    EntryMember = apps.get_model("league", "EntryMember")
    everything = frozenset(Tournament.objects.values_list("pk", flat=True))
    everyone = frozenset(Player.objects.values_list("pk", flat=True))
    public = frozenset(Tournament.objects.exclude(status="draft").values_list("pk", flat=True))
    entered = frozenset(EntryMember.objects.values_list("player_id", flat=True))
    found: dict[int, Rights] = {}
    for user in User.objects.all():
        if not user.is_active:
            found[user.pk] = _rights(public=public)
        elif user.is_superuser:
            found[user.pk] = _rights(everything, everything, everyone, everyone, True, public)
        else:
            manage = frozenset(
                Tournament.objects.filter(organisers=user).values_list("pk", flat=True)
            )
            score = manage | frozenset(
                Tournament.objects.filter(scorekeepers=user).values_list("pk", flat=True)
            )
            contact = frozenset(
                EntryMember.objects.filter(tournament__in=manage).values_list(
                    "player_id", flat=True
                )
            )
            organiser = bool(manage) or user.groups.filter(name="Organisers").exists()
            edit = contact | (everyone - entered) if organiser else frozenset()
            found[user.pk] = _rights(manage, score, contact, edit, organiser, public | score)
    return found


def _rights(
    manage: frozenset[int] = frozenset(),
    score: frozenset[int] = frozenset(),
    contact: frozenset[int] = frozenset(),
    edit: frozenset[int] = frozenset(),
    organiser: bool = False,
    public: frozenset[int] = frozenset(),
) -> Rights:
    return {
        "manage": manage,
        "score": score,
        "see": public | score,
        "contact": contact,
        "edit": edit,
        "organiser": organiser,
    }


def _rights_after() -> dict[int, Rights]:
    """What each user may do now, as ``league.policy`` answers."""

    def ids(qs: Any) -> frozenset[int]:
        return frozenset(qs.values_list("pk", flat=True))

    return {
        user.pk: {
            "manage": ids(policy.tournaments_managed_by(user=user)),
            "score": ids(policy.tournaments_scored_by(user=user)),
            "see": ids(policy.tournaments_visible_to(user=user)),
            "contact": ids(policy.players_with_contact_for(user=user)),
            "edit": ids(policy.players_editable_by(user=user)),
            "organiser": policy.user_is_organiser(user=user),
        }
        for user in get_user_model().objects.all()
    }


def test_moving_existing_data_into_one_club_keeps_every_row_and_every_right() -> None:
    # Given the demo club on the layout before clubs, with people of every kind
    call_command("demo", seed=7)
    leaf = _leaves()
    old = _migrate(BEFORE_CLUBS)
    old_apps = old.loader.project_state(BEFORE_CLUBS).apps
    _more_people(old_apps)
    columns = _columns()
    rows_before = _rows(columns)
    rights_before = _rights_before(old_apps)
    shipped = set(
        old_apps.get_model("league", "RuleSet")
        .objects.filter(name__in=["Pagat", "Seed tutorial"])
        .values_list("pk", flat=True)
    )

    # When the clubs migrations run
    _migrate(leaf)

    # Then every table keeps every row it held, read through its old columns
    rows_after = _rows(columns)
    for table, rows in rows_before.items():
        if table in GROWING:
            assert set(rows) <= set(rows_after[table]), table
        else:
            assert rows_after[table] == rows, table
    assert sum(len(r) for r in rows_before.values()) > 1000
    # And one club holds every player, season, tournament and the club's own rule sets
    club = Club.objects.get()
    assert club.name == "Klub Utama"
    assert not Player.objects.exclude(home_club=club).exists()
    assert not Season.objects.exclude(club=club).exists()
    assert not Tournament.objects.exclude(club=club).exists()
    assert set(RuleSet.objects.filter(club__isnull=True).values_list("pk", flat=True)) == shipped
    # And every organiser and scorekeeper is a member, none with a club-wide role
    members = set(Membership.objects.values_list("user__username", flat=True))
    assert {"organiser", "scorekeeper", "ketua", "tamu", "pencatat", "pergi"} <= members
    assert "biasa" not in members
    assert set(Membership.objects.values_list("role", flat=True)) == {Membership.Role.MEMBER}
    # And nobody gains or loses a right
    rights_after = _rights_after()
    assert set(rights_after) == set(rights_before)
    for user_id, before in rights_before.items():
        assert rights_after[user_id] == before, get_user_model().objects.get(pk=user_id).username
    # And the rights compared are not empty ones: the guest runs one tournament only and
    # reads the contact details of its players only; the group organiser edits only the
    # players nobody has entered yet
    by_name = {u.username: u.pk for u in get_user_model().objects.all()}
    guest, chair = rights_after[by_name["tamu"]], rights_after[by_name["ketua"]]
    assert len(guest["manage"]) == 1 and guest["contact"]  # type: ignore[arg-type]
    assert guest["contact"] < rights_after[by_name["admin"]]["contact"]  # type: ignore[operator]
    assert chair["organiser"] and not chair["manage"] and chair["edit"]
