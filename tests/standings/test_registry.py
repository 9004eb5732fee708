"""A tiebreak is one registered spec: a toy one, registered by the test alone, is
accepted in an order, ranks (lower first, as its spec says), is stored with the rows,
and shows on the page, in the CSV and in the API, with nothing else changed."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.hooks import tiebreaks_clean
from league.models import Tournament
from standings import maths
from standings.maths import (
    RankingContext,
    SideResult,
    StandingsError,
    TableRecord,
    TiebreakSpec,
    TiebreakValue,
    compute_standings,
    validate_tiebreaks,
)
from standings.models import StandingsRow
from standings.services.refresh import standings_refresh
from tests.standings.conftest import League

KEY = "points_conceded"
LABEL = "Points conceded"


def _points_conceded(context: RankingContext, entrant_id: int) -> TiebreakValue:
    """What the best other side scored against the entrant, summed: fewer is better."""
    tally = context.tallies[entrant_id]
    return Fraction(tally.scored_x2 - tally.diff_x2, 2)


@pytest.fixture
def conceded(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = TiebreakSpec(KEY, LABEL, _points_conceded, higher_is_better=False)
    monkeypatch.setitem(maths.TIEBREAKS, KEY, spec)


def two(table_id: int, a: int, b: int, a_points: int, b_points: int) -> TableRecord:
    return TableRecord(
        1, table_id, 2, 250, (SideResult((a,), 2 * a_points), SideResult((b,), 2 * b_points))
    )


def test_an_unregistered_tiebreak_is_refused_by_the_maths_and_the_validator() -> None:
    with pytest.raises(StandingsError) as error:
        validate_tiebreaks([KEY, "lot"])
    assert error.value.code == "tiebreak_unknown"
    with pytest.raises(ValidationError):
        tiebreaks_clean([KEY, "lot"])


@pytest.mark.usefixtures("conceded")
def test_a_registered_tiebreak_validates_and_ranks_in_its_own_direction() -> None:
    assert validate_tiebreaks([KEY, "lot"]) == (KEY, "lot")
    assert tiebreaks_clean(["match_points", KEY]) == ["match_points", KEY]
    tables = [two(1, 1, 2, 250, 100), two(2, 3, 4, 250, 40)]
    ranking = compute_standings(tables=tables, tiebreaks=["match_points", KEY])
    assert [row.entrant_id for row in ranking.rows] == [3, 1, 2, 4]
    assert [row.rank for row in ranking.rows] == [1, 2, 3, 3]  # 250 conceded each
    first = ranking.separations[0]
    assert (first.tiebreak, first.upper_value, first.lower_value) == (KEY, 40, 100)
    assert ranking.row_for(3).values.points_conceded == 40
    assert ranking.row_for(3).values.value(KEY) == Fraction(40)


@pytest.fixture
def ranked(conceded: None, league: League) -> League:
    """Ani and Citra win (Citra conceding less), Budi and Dewi lose conceding 250 each."""
    cache.clear()
    Tournament.objects.filter(pk=league.tournament.pk).update(
        tiebreaks=["match_points", KEY, "lot"]
    )
    ani, budi = league.entry("Ani"), league.entry("Budi")
    citra, dewi = league.entry("Citra"), league.entry("Dewi")
    league.play(1, [ani, budi], [250, 100])
    league.play(1, [citra, dewi], [250, 40])
    standings_refresh(tournament_id=league.tournament.pk)
    return league


@pytest.mark.django_db
def test_a_registered_tiebreak_is_stored_with_the_rows(ranked: League) -> None:
    rows = list(
        StandingsRow.objects.filter(standings__tournament=ranked.tournament).order_by("position")
    )
    assert [row.name for row in rows[:2]] == ["Citra", "Ani"]
    assert [row.tiebreak_values[KEY] for row in rows] == ["40", "100", "250", "250"]
    assert rows[0].points_conceded == 40
    assert rows[0].separation["tiebreak"] == KEY
    assert rows[2].separation["tiebreak"] == "lot"


def _get(client: Client, name: str, **kwargs: Any) -> Any:
    """The English page (``/en`` before the path of the default language)."""
    with translation.override(settings.LANGUAGE_CODE):
        return client.get("/en" + reverse(name, kwargs=kwargs))


@pytest.mark.django_db
def test_a_registered_tiebreak_shows_on_the_page_in_the_csv_and_in_the_api(
    client: Client, ranked: League
) -> None:
    slug = ranked.tournament.slug
    why = "Citra is above Ani on Points conceded: 40 against 100."

    html = _get(client, "standings:tournament_standings", slug=slug).content.decode()
    assert f">{LABEL}<" in html and why in html
    assert f'href="?sort={KEY}"' in html  # the first click puts the fewest first

    lines = _get(client, "standings:tournament_standings_csv", slug=slug).content.decode()
    header, first, *_rest = list(csv.reader(io.StringIO(lines)))
    assert first[header.index(LABEL)] == "40" and first[-1] == why

    body = client.get(
        reverse("api-tournament-standings", kwargs={"slug": slug}),
        {"sort": f"-{KEY}"},
        HTTP_ACCEPT_LANGUAGE="en",
    ).json()
    assert [row["values"][KEY] for row in body["rows"]] == ["250", "250", "100", "40"]
    sorted_by_rank = client.get(
        reverse("api-tournament-standings", kwargs={"slug": slug}), HTTP_ACCEPT_LANGUAGE="en"
    ).json()
    below = sorted_by_rank["rows"][0]["below"]
    assert below["tiebreak"] == KEY and below["tiebreak_label"] == LABEL
    assert below["text"] == why
