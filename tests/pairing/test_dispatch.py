"""The pure dispatcher: its table covers every format and table size a tournament may
have, refuses the rest with a PairingError, and needs nothing from the database once the
field is read."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from league.models import TableSize, Tournament, TournamentFormat
from league.services.rounds import round_create
from pairing.algorithms.dispatch import (
    DISPATCH,
    DrawField,
    FormatNotAvailable,
    PartnersNeedFour,
    draw_compute,
    pairer_for,
)
from pairing.algorithms.types import Entrant, History, PairingError
from pairing.selectors import pairing_field
from pairing.services.pairing import round_pair
from tests.pairing.conftest import play, tournament_with_entries


def _field(format: str, table_size: str, count: int = 8) -> DrawField:
    return DrawField(
        format=format,
        table_size=table_size,
        allow_byes=True,
        tournament_seed=1,
        rounds_count=3,
        round_number=1,
        entrants=tuple(Entrant(id=i, score=0, rank=i) for i in range(1, count + 1)),
        history=History(),
        earlier_rounds=(),
    )


@pytest.mark.parametrize(("format", "table_size"), list(product(TournamentFormat, TableSize)))
def test_every_format_and_table_size_a_tournament_allows_is_in_the_table(
    format: str, table_size: str
) -> None:
    # Every combination the model allows has an entry: a pairing function, or a refusal
    # with a clear reason (rotating partners at tables without partners)
    assert (str(format), str(table_size)) in DISPATCH
    field = _field(str(format), str(table_size))
    if format == TournamentFormat.ROTATING_PARTNER and table_size in (
        TableSize.TWO,
        TableSize.THREE,
    ):
        with pytest.raises(PartnersNeedFour) as raised:
            draw_compute(field, seed=1)
        assert raised.value.code == "partners_need_four"
    else:
        draw = draw_compute(field, seed=1)
        assert sorted(e for t in draw.tables for e in t.seats) + sorted(draw.byes) == sorted(
            e.id for e in field.entrants
        )


def test_the_table_names_no_format_or_size_the_model_does_not_know() -> None:
    formats, sizes = set(TournamentFormat.values), set(TableSize.values)
    assert {f for f, _s in DISPATCH} == formats
    assert {s for _f, s in DISPATCH} == sizes


@pytest.mark.parametrize(("format", "table_size"), [("knockout", "4"), ("swiss", "5")])
def test_an_unsupported_combination_raises_a_pairing_error(format: str, table_size: str) -> None:
    with pytest.raises(PairingError) as raised:
        pairer_for(format, table_size)
    assert isinstance(raised.value, FormatNotAvailable)
    assert raised.value.code == "format_not_available"
    assert format in str(raised.value) and table_size in str(raised.value)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "table_size"),
    [
        (Tournament.Format.SWISS, Tournament.TableSize.FOUR),
        (Tournament.Format.ROUND_ROBIN, Tournament.TableSize.FOUR),
        (Tournament.Format.ROTATING_PARTNER, Tournament.TableSize.FOUR),
    ],
)
def test_once_the_field_is_read_the_draw_needs_no_query(
    format: str, table_size: str, django_assert_num_queries: Any
) -> None:
    # Given round two of an eight-player event whose first round was paired and played
    tournament = tournament_with_entries(8, format=format, table_size=table_size)
    first = round_create(tournament=tournament)
    round_pair(round=first, seed=3)
    play(first)
    second = round_create(tournament=tournament)
    read = pairing_field(round=second)
    # When its draw is computed from the field, then the database is not asked again
    with django_assert_num_queries(0):
        draw = draw_compute(read.field, seed=3)
    # And the draw is the one round_pair stores
    assert [t.seats for t in draw.tables] == [
        t.seats for t in round_pair(round=second, seed=3).tables
    ]
