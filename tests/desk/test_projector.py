"""The projector view: public, the current round's pairings and the standings, in
Indonesian by default and in English, linked from the tournament's public page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from desk.services import round_next
from knockout.services import bracket_advance, bracket_create
from league.models import Tournament
from league.services.rounds import round_publish
from tests.desk.conftest import OPENING_HAND, WINNING_HAND, club_tournament, play
from tests.knockout.conftest import play_round, seeded_tournament

pytestmark = pytest.mark.django_db


def _published(tournament: Tournament, organiser: Any, capture: Any) -> None:
    with capture(execute=True):
        round = round_next(tournament=tournament)
    round_publish(round=round)
    with capture(execute=True):
        play(round.tables.order_by("number").first(), organiser, [WINNING_HAND])


def test_the_projector_shows_the_pairings_and_the_standings_by_name(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _published(tournament, organiser, django_capture_on_commit_callbacks)
    page = Client().get(reverse("desk:projector", args=[tournament.slug])).content.decode()
    assert 'lang="id"' in page
    assert "Putaran 1" in page and "Meja 1" in page and "Meja 2" in page
    assert "Klasemen" in page and "Peringkat" in page
    table = tournament.rounds.get().tables.get(number=1)
    for seat in table.seats.all():
        assert str(seat.player) in page
    assert "projector.js" in page  # it switches panels and polls by itself
    assert 'data-poll-url="' in page
    # And only the first panel shows before the script runs (no flash of every panel)
    assert 'data-panel="pairings-1" aria-labelledby' in page
    assert 'data-panel="standings-1" hidden' in page


def test_the_projector_reads_in_english_under_the_english_prefix(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _published(tournament, organiser, django_capture_on_commit_callbacks)
    with translation.override("en"):
        url = reverse("desk:projector", args=[tournament.slug])
    assert url.startswith("/en/")
    page = Client().get(url).content.decode()
    assert "Round 1" in page and "Standings" in page and "Table 1" in page
    assert 'href="/tournaments/' in page  # the way back to Indonesian


def test_the_projectors_panels_come_alone_for_its_polling(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _published(tournament, organiser, django_capture_on_commit_callbacks)
    fragment = Client().get(reverse("desk:projector_live", args=[tournament.slug]))
    text = fragment.content.decode()
    assert fragment.status_code == 200
    assert "<html" not in text and 'data-panel="pairings-1"' in text
    assert 'data-panel="standings-1"' in text


def test_a_draft_tournament_has_no_projector_view(club: Any) -> None:
    tournament = club_tournament(club, status=Tournament.Status.DRAFT)
    assert Client().get(reverse("desk:projector", args=[tournament.slug])).status_code == 404


def test_a_draft_round_is_not_projected(
    tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        round = round_next(tournament=tournament)
    names = [str(s.player) for s in round.tables.get(number=1).seats.all()]
    page = Client().get(reverse("desk:projector", args=[tournament.slug])).content.decode()
    assert "Meja 1" not in page
    assert not [n for n in names if n in page]


def test_many_tables_are_split_across_panels(
    club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = club_tournament(club, players=0)
    from league.services.registration import entry_create, player_create

    for n in range(24):
        entry_create(
            tournament=tournament, player=player_create(name=f"Pemain {n + 1}", home_club=club)
        )
    with django_capture_on_commit_callbacks(execute=True):
        round = round_next(tournament=tournament)
    round_publish(round=round)
    page = Client().get(reverse("desk:projector", args=[tournament.slug])).content.decode()
    assert 'data-panel="pairings-2"' in page and 'data-panel="pairings-3"' not in page
    assert "Meja 12" in page


def test_the_tournaments_public_page_links_to_the_projector(tournament: Tournament) -> None:
    page = Client().get(tournament.get_absolute_url()).content.decode()
    assert reverse("desk:projector", args=[tournament.slug]) in page
    assert "Tampilan proyektor" in page


def test_a_playing_table_shows_its_totals_and_each_sides_chance_of_winning(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Given a published round: table 1 finished, table 2 one hand in
    _published(tournament, organiser, django_capture_on_commit_callbacks)
    second = tournament.rounds.get().tables.get(number=2)
    with django_capture_on_commit_callbacks(execute=True):
        play(second, organiser, [OPENING_HAND])
    # When the hall's screen asks for the panels
    page = Client().get(reverse("desk:projector", args=[tournament.slug])).content.decode()
    # Then table 2 shows each side's running total and its chance, which add up to 100
    totals = [re.search(rf'data-testid="projector-total-2-{n}">([^<]+)<', page) for n in (1, 2)]
    assert [m.group(1) for m in totals if m] == ["15", "5"]
    chances = [
        re.search(rf'data-testid="projector-chance-2-{n}">.*?</span>(\d+)&nbsp;%', page)
        for n in (1, 2)
    ]
    percents = [int(m.group(1)) for m in chances if m]
    assert len(percents) == 2 and 99 <= sum(percents) <= 101
    assert percents[0] > percents[1]  # 15 to 5 up, the first side is the likelier winner
    assert "peluang menang:" in page
    # And the finished table 1 shows neither
    assert 'data-testid="projector-chance-1-' not in page
    assert 'data-testid="projector-total-1-' not in page


def _heading(page: str) -> list[str]:
    heading = re.search(r'<h1 id="pairings-1-h">(.*?)</h1>', page, re.S)
    assert heading is not None
    return re.sub(r"<[^>]+>", "", heading.group(1)).split()


def test_a_knockout_round_is_projected_as_its_stage() -> None:
    # Given a tournament whose knockout semi-finals are published
    tournament = seeded_tournament(4)
    bracket_create(tournament=tournament, source="ratings")
    round_publish(round=tournament.rounds.get(number=1))
    # When the hall's screen shows the round
    page = Client().get(reverse("desk:projector", args=[tournament.slug])).content.decode()
    # Then its heading names the stage, not only the round's number
    assert _heading(page) == ["Putaran", "1", "·", "Semifinal"]
    # and no table repeats it
    assert 'data-testid="projector-table-stage-' not in page


def test_a_knockout_round_at_several_stages_names_each_tables_stage() -> None:
    # Given the last round of a knockout of 8 with a third-place match and a plate: the
    # final, the third-place match and the plate's final are played side by side
    tournament = seeded_tournament(8)
    bracket_create(tournament=tournament, source="ratings", third_place=True, plate=True)
    for _ in range(2):
        play_round(tournament.rounds.order_by("-number").first())
        bracket_advance(tournament=tournament)
    last = tournament.rounds.order_by("-number").first()
    round_publish(round=last)
    # When the hall's screen shows it
    page = Client().get(reverse("desk:projector", args=[tournament.slug])).content.decode()
    # Then the heading says it is the knockout and each table names its stage
    assert _heading(page) == ["Putaran", "3", "·", "Babak", "gugur"]
    stages = dict(re.findall(r'data-testid="projector-table-stage-(\d+)">([^<]*)<', page))
    assert sorted(stages.values()) == ["Babak hiburan · Final", "Final", "Tempat ketiga"]
    # and in English the same stages read as the bracket page names them
    with translation.override("en"):
        english = Client().get(reverse("desk:projector", args=[tournament.slug]))
    names = re.findall(
        r'data-testid="projector-table-stage-\d+">([^<]*)<', english.content.decode()
    )
    assert sorted(names) == ["Final", "Plate · Final", "Third place"]
