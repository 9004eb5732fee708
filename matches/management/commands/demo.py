"""``python manage.py demo``: two realistic clubs to explore, with results simulated by the engine.

Creates two clubs — Klub Domino Sejahtera (Surabaya) and Spinner Malang — each with its
organiser (``organiser`` and ``organiser-malang``), a scorekeeper and a superuser login,
40 players (28 of the first club, 12 of the second), partnerships, a running season with
its division, a finished Swiss tournament at two-player tables, a finished fixed-
partnership tournament at four-player tables, and a running inter-club three-player
tournament (four visiting players from Malang) with its first round played and the
second under way, and the Malang club's own season (on its copy of the Pagat rule set)
with a tournament taking registrations, its sign-up open (16 places, 8 taken). Every
match is simulated tile by tile by ``allfives`` (greedy and random players) and stored
through the same service score entry uses, so the engine has checked every hand.
Deterministic for ``--seed``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from allfives import simulate_match
from league.models import Club, Division, Entry, MembershipRole, Player, RuleSet, Season, Tournament
from league.roles import ORGANISERS_GROUP, SCOREKEEPERS_GROUP
from league.services.clubs import club_create, membership_add, rule_set_copy
from league.services.registration import (
    entry_create,
    partnership_create,
    player_create,
)
from league.services.rounds import (
    round_close,
    round_create,
    round_publish,
    seats_for_entries,
    table_create,
    tournament_finish,
)
from matches.services.lifecycle import match_import

FIRST_NAMES = [
    "Agus",
    "Budi",
    "Citra",
    "Dewi",
    "Eko",
    "Fitri",
    "Gilang",
    "Hendra",
    "Indah",
    "Joko",
    "Kartika",
    "Lestari",
    "Made",
    "Nur",
    "Oki",
    "Putri",
    "Rahmat",
    "Sari",
    "Taufik",
    "Utami",
    "Wahyu",
    "Yanti",
    "Zainal",
    "Andi",
    "Bayu",
    "Dian",
    "Fajar",
    "Gita",
    "Hadi",
    "Intan",
    "Kadek",
    "Lina",
    "Maya",
    "Nanda",
    "Rizky",
    "Siti",
    "Tono",
    "Wati",
    "Yusuf",
    "Ratna",
]
LAST_NAMES = [
    "Santoso",
    "Wijaya",
    "Saputra",
    "Lestari",
    "Pratama",
    "Hidayat",
    "Nugroho",
    "Kusuma",
    "Siregar",
    "Hutapea",
    "Wibowo",
    "Setiawan",
    "Purnomo",
    "Rahayu",
    "Gunawan",
]
HOME, AWAY = ("Klub Domino Sejahtera", "Surabaya"), ("Spinner Malang", "Malang")
HOME_PLAYERS = 28  # the first 28 players are the home club's, the rest Malang's
DEMO_PASSWORDS = {
    "admin": "kelipatan-admin",
    "organiser": "kelipatan-demo",
    "organiser-malang": "kelipatan-demo",
    "scorekeeper": "kelipatan-demo",
}


class Command(BaseCommand):
    help = "Create a demo club with simulated results (deterministic for --seed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing when players already exist."
        )

    def handle(self, *args: Any, seed: int, if_empty: bool, **options: Any) -> None:
        if if_empty and Player.objects.exists():
            self.stdout.write("Demo data already present; nothing to do.")
            return
        rng = random.Random(seed)
        with transaction.atomic():
            users = self._users()
            home = club_create(name=HOME[0], city=HOME[1], organiser=users["organiser"])
            away = club_create(name=AWAY[0], city=AWAY[1], organiser=users["organiser-malang"])
            membership_add(club=home, user=users["scorekeeper"], role=MembershipRole.SCOREKEEPER)
            players = self._players(rng, home=home, away=away)
            pagat = RuleSet.objects.get(name="Pagat")
            tutorial = RuleSet.objects.get(name="Seed tutorial")
            season = Season.objects.create(
                club=home,
                name="Musim 2026",
                slug="musim-2026",
                starts_on=date(2026, 7, 1),
                ends_on=date(2026, 12, 31),
                rule_set=pagat,
                status=Season.Status.RUNNING,
            )
            division = Division.objects.create(
                season=season, name="Divisi Utama", promotion_count=2, relegation_count=2
            )
            partnerships = [
                partnership_create(player_a=players[i], player_b=players[i + 1])
                for i in range(0, 16, 2)
            ]
            for p in partnerships:
                p.seasons.add(season)

            swiss = self._tournament(
                "Piala Kemerdekaan",
                season,
                users,
                fmt=Tournament.Format.SWISS,
                table_size="2",
                rounds=3,
                division=division,
                starts=date(2026, 8, 17),
            )
            entries = [entry_create(tournament=swiss, player=p) for p in players[:16]]
            for number in range(1, 4):
                self._play_round(swiss, entries, 2, number, rng, users["organiser"], finish=True)
            self._finish(swiss)

            pairs = self._tournament(
                "Liga Pasangan",
                season,
                users,
                fmt=Tournament.Format.FIXED_PARTNERSHIP,
                table_size="4",
                rounds=2,
                rule_set=tutorial,
                starts=date(2026, 9, 20),
            )
            pair_entries = [entry_create(tournament=pairs, partnership=p) for p in partnerships]
            for number in range(1, 3):
                self._play_round(
                    pairs,
                    pair_entries,
                    2,
                    number,
                    rng,
                    users["organiser"],
                    finish=True,
                    per_table_players=4,
                )
            self._finish(pairs)

            running = self._tournament(
                "Turnamen Malam Jumat",
                season,
                users,
                fmt=Tournament.Format.ROUND_ROBIN,
                table_size="3",
                rounds=3,
                starts=date(2026, 11, 27),
                accepts_visitors=True,
            )
            # Inter-club: eight home players and four visitors from Malang.
            trio_entries = [
                entry_create(tournament=running, player=p)
                for p in players[16:24] + players[HOME_PLAYERS : HOME_PLAYERS + 4]
            ]
            self._play_round(running, trio_entries, 3, 1, rng, users["organiser"], finish=True)
            self._play_round(
                running, trio_entries, 3, 2, rng, users["organiser"], finish=False, tables_to_play=2
            )
            self._away_club(away, players[HOME_PLAYERS:], pagat, users)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo clubs created: {Club.objects.count()} clubs, "
                f"{Player.objects.count()} players, "
                f"{Tournament.objects.count()} tournaments."
            )
        )

    def _users(self) -> dict[str, Any]:
        User = get_user_model()
        users: dict[str, Any] = {}
        for name, password in DEMO_PASSWORDS.items():
            user, _created = User.objects.get_or_create(username=name)
            user.is_staff = name != "scorekeeper"
            user.is_superuser = name == "admin"
            user.set_password(password)
            user.save()
            users[name] = user
        for name in ("organiser", "organiser-malang"):
            users[name].groups.add(Group.objects.get(name=ORGANISERS_GROUP))
        users["scorekeeper"].groups.add(Group.objects.get(name=SCOREKEEPERS_GROUP))
        return users

    def _players(self, rng: random.Random, *, home: Club, away: Club) -> list[Player]:
        players = []
        for i, first in enumerate(FIRST_NAMES):
            club = home if i < HOME_PLAYERS else away
            players.append(
                player_create(
                    name=f"{first} {LAST_NAMES[i % len(LAST_NAMES)]}",
                    nickname=first if i % 3 == 0 else "",
                    club=club.name,
                    home_club=club,
                    email=f"{first.lower()}{i}@example.org",
                )
            )
        return players

    def _away_club(
        self, club: Club, players: Sequence[Player], pagat: RuleSet, users: dict[str, Any]
    ) -> None:
        """The Malang club's own season, on its copy of Pagat, with a tournament whose sign-up
        is open."""
        rules = rule_set_copy(rule_set=pagat, club=club, name="Pagat Malang")
        season = Season.objects.create(
            club=club,
            name="Musim Malang 2026",
            slug="musim-malang-2026",
            starts_on=date(2026, 9, 1),
            ends_on=date(2026, 12, 31),
            rule_set=rules,
            status=Season.Status.RUNNING,
        )
        cup = self._tournament(
            "Malam Domino Malang",
            season,
            users,
            fmt=Tournament.Format.SWISS,
            table_size="2",
            rounds=3,
            starts=date(2026, 12, 12),
            organiser="organiser-malang",
        )
        for player in players[:8]:
            entry_create(tournament=cup, player=player)
        # Its sign-up is open, so a visitor finds it under the home page's "Taking sign-ups"
        # and can sign up from its page. By the model's name: matches is below entrants.
        apps.get_model("entrants", "SignUp").objects.create(tournament=cup, is_open=True, cap=16)

    def _tournament(
        self,
        name: str,
        season: Season,
        users: dict[str, Any],
        *,
        fmt: str,
        table_size: str,
        rounds: int,
        starts: date,
        rule_set: RuleSet | None = None,
        division: Division | None = None,
        accepts_visitors: bool = False,
        organiser: str = "organiser",
    ) -> Tournament:
        tournament = Tournament.objects.create(
            club=season.club,
            accepts_visitors=accepts_visitors,
            name=name,
            slug=name.lower().replace(" ", "-"),
            season=season,
            division=division,
            rule_set=rule_set,
            format=fmt,
            table_size=table_size,
            rounds_count=rounds,
            status=Tournament.Status.REGISTRATION,
            starts_on=starts,
            venue="Balai Warga RW 05",
            seed=rounds * 7919,
        )
        tournament.organisers.add(users[organiser])
        if organiser == "organiser":
            tournament.scorekeepers.add(users["scorekeeper"])
        return tournament

    def _play_round(
        self,
        tournament: Tournament,
        entries: Sequence[Entry],
        per_table: int,
        number: int,
        rng: random.Random,
        user: Any,
        *,
        finish: bool,
        per_table_players: int | None = None,
        tables_to_play: int | None = None,
    ) -> None:
        round_ = round_create(tournament=tournament, number=number)
        order = list(entries)
        rng.shuffle(order)
        groups = [order[i : i + per_table] for i in range(0, len(order), per_table)]
        tables = []
        for t, group in enumerate(groups, start=1):
            seats = seats_for_entries(group, player_count=per_table_players or per_table)
            tables.append(table_create(round=round_, number=t, seats=seats))
        round_publish(round=round_)
        rules = tournament.effective_rule_set.to_rules()
        for i, table in enumerate(tables):
            if tables_to_play is not None and i > tables_to_play:
                break
            strategies = [
                rng.choice(["greedy", "greedy", "random"]) for _ in range(table.player_count)
            ]
            document = simulate_match(
                players=table.player_count, rules=rules, rng=rng, strategies=strategies
            )
            if tables_to_play is not None and i == tables_to_play:
                # One match still under way: its first two hands are in.
                hands = document["hands"]
                assert isinstance(hands, list)
                document = {**document, "hands": hands[:2]}
            match_import(table=table, document=document, user=user)
        if finish:
            round_close(round=round_)

    def _finish(self, tournament: Tournament) -> None:
        tournament_finish(tournament=tournament)
