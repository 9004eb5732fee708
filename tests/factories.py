"""Typed factory_boy factories shared by the app tests (extend with small edits)."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model
from django.utils.text import slugify
from factory.django import DjangoModelFactory

from league.models import (
    Club,
    Division,
    Entry,
    EntryMember,
    Membership,
    Partnership,
    Player,
    Round,
    RuleSet,
    Season,
    Seat,
    Table,
    TableResult,
    TableResultSide,
    Tournament,
)

User = get_user_model()


class UserFactory(DjangoModelFactory[User]):  # type: ignore[misc,valid-type]
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-kelipatan-123")
    is_staff = False


class ClubFactory(DjangoModelFactory[Club]):
    """A club; without arguments, the one club the factories' objects share."""

    class Meta:
        model = Club
        django_get_or_create = ("slug",)

    name = "Klub Domino Sejahtera"
    slug = factory.LazyAttribute(lambda o: slugify(o.name))
    city = "Surabaya"


class MembershipFactory(DjangoModelFactory[Membership]):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory, is_staff=True)
    # Saved even by ``build()``: a built row still points at a stored club.
    club = factory.LazyFunction(lambda: ClubFactory())
    role = Membership.Role.ORGANISER


class PlayerFactory(DjangoModelFactory[Player]):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Pemain {n}")
    slug = factory.Sequence(lambda n: f"pemain-{n}")
    club = "Klub Domino Sejahtera"
    home_club = factory.LazyFunction(lambda: ClubFactory())


class RuleSetFactory(DjangoModelFactory[RuleSet]):
    class Meta:
        model = RuleSet

    name = factory.Sequence(lambda n: f"Rules {n}")
    # Saved even by ``build()``: a built row still points at a stored club.
    club = factory.LazyFunction(lambda: ClubFactory())


class SeasonFactory(DjangoModelFactory[Season]):
    class Meta:
        model = Season

    name = factory.Sequence(lambda n: f"Musim {n}")
    slug = factory.Sequence(lambda n: f"musim-{n}")
    starts_on = factory.Faker("date_between", start_date="-90d", end_date="-60d")
    ends_on = factory.Faker("date_between", start_date="+60d", end_date="+90d")
    # Saved even by ``build()``: a built row still points at a stored club.
    club = factory.LazyFunction(lambda: ClubFactory())
    rule_set = factory.SubFactory(RuleSetFactory, club=factory.SelfAttribute("..club"))
    status = Season.Status.RUNNING


class DivisionFactory(DjangoModelFactory[Division]):
    class Meta:
        model = Division

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Divisi {n}")


class TournamentFactory(DjangoModelFactory[Tournament]):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Turnamen {n}")
    slug = factory.Sequence(lambda n: f"turnamen-{n}")
    season = factory.SubFactory(SeasonFactory)
    club = factory.LazyAttribute(lambda o: o.season.club if o.season else ClubFactory())
    format = Tournament.Format.SWISS
    table_size = Tournament.TableSize.TWO
    status = Tournament.Status.RUNNING


class PartnershipFactory(DjangoModelFactory[Partnership]):
    class Meta:
        model = Partnership

    name = factory.Sequence(lambda n: f"Pasangan {n}")
    slug = factory.Sequence(lambda n: f"pasangan-{n}")
    player_a = factory.SubFactory(PlayerFactory)
    player_b = factory.SubFactory(PlayerFactory)


class EntryFactory(DjangoModelFactory[Entry]):
    """An individual entry with its EntryMember row (as league services create it)."""

    class Meta:
        model = Entry
        skip_postgeneration_save = True

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)

    @factory.post_generation
    def members(self, create: bool, extracted: object, **kwargs: object) -> None:
        if not create:
            return
        players = (
            [self.partnership.player_a, self.partnership.player_b]
            if self.partnership is not None
            else [self.player]
        )
        for player in players:
            EntryMember.objects.get_or_create(entry=self, player=player, tournament=self.tournament)


class RoundFactory(DjangoModelFactory[Round]):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    status = Round.Status.PUBLISHED


class TableFactory(DjangoModelFactory[Table]):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)
    player_count = 2
    target = 250


class SeatFactory(DjangoModelFactory[Seat]):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    number = 0
    entry = factory.SubFactory(EntryFactory)
    player = factory.SelfAttribute("entry.player")


class TableResultFactory(DjangoModelFactory[TableResult]):
    """A table's result row; add its sides with ``TableResultSideFactory``."""

    class Meta:
        model = TableResult

    table = factory.SubFactory(TableFactory, status=Table.Status.FINISHED)
    finished_at = factory.Faker("date_time_this_month", tzinfo=datetime.UTC)
    hands_count = 8


class TableResultSideFactory(DjangoModelFactory[TableResultSide]):
    class Meta:
        model = TableResultSide

    result = factory.SubFactory(TableResultFactory)
    side = 0
    points_x2 = 500
    placing = 1
    is_winner = factory.LazyAttribute(lambda o: o.placing == 1)
