"""What the standings say about themselves and the lot: "provisional" naming how many
tables of which round are not finished, "final" only once every table of the published
rounds has its result (in both languages, with plural forms); the lot shown as a small
draw number over the field, explained in the "why here?" sentence."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import Round, Tournament
from league.services.results import table_status_set
from standings.display import draw_numbers, progress_text, separation_text
from standings.models import Standings, StandingsRow
from standings.selectors import RoundProgress, StandingsProgress, standings_progress
from standings.services.refresh import season_standings_refresh, standings_refresh
from tests.factories import RoundFactory, SeasonFactory, TournamentFactory
from tests.standings.conftest import League

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def first_round_one_of_three_finished(league: League) -> None:
    """Round 1 at three tables: one finished, one playing, one not started."""
    entries = [league.entry(name) for name in ("Ani", "Budi", "Citra", "Dewi", "Eko", "Fajar")]
    league.play(1, entries[0:2], [250, 100])
    playing = league.table(1, entries[2:4])
    table_status_set(table_id=playing.pk, status="playing")
    league.table(1, entries[4:6])
    standings_refresh(tournament_id=league.tournament.pk)


def standings_of(league: League) -> Standings:
    return Standings.objects.get(tournament=league.tournament)


def page(client: Client, league: League, prefix: str = "") -> str:
    with translation.override("id"):  # an English request leaves English active here
        url = reverse("standings:tournament_standings", kwargs={"slug": league.tournament.slug})
    return client.get(prefix + url).content.decode()


def test_progress_counts_the_tables_of_each_published_round(league: League) -> None:
    # Given round 1 with one of three tables finished, and a drafted round 2
    first_round_one_of_three_finished(league)
    draft = RoundFactory(tournament=league.tournament, number=2, status=Round.Status.DRAFT)
    league.table(2, [league.entry("Gita"), league.entry("Hadi")])
    assert draft.tables.count() == 1
    # When the progress is read
    progress = standings_progress(standings=standings_of(league))
    # Then only the published round counts: 2 of its 3 tables have no result
    assert progress.rounds == (RoundProgress("", 1, 3, 2),)
    assert not progress.is_final and progress.unfinished == progress.rounds


def test_standings_are_provisional_while_tables_have_not_started(
    client: Client, league: League
) -> None:
    # Given two tables of round 1 not finished, one of them not even started
    first_round_one_of_three_finished(league)
    # Then the page says so in each language, rather than "final"
    indonesian = page(client, league)
    english = page(client, league, "/en")
    assert "Sementara: 2 dari 3 meja putaran 1 belum selesai." in indonesian
    assert "Final" not in indonesian
    assert "Provisional: 2 of 3 tables of round 1 not finished." in english
    # and, the tournament running, the page keeps polling for the rest
    assert 'hx-trigger="every 10s"' in english


def test_standings_are_final_once_every_table_of_the_published_rounds_is_done(
    client: Client, league: League
) -> None:
    # Given round 1 entirely finished
    a, b, c, d = (league.entry(n) for n in ("Ani", "Budi", "Citra", "Dewi"))
    league.play(1, [a, b], [250, 100])
    league.play(1, [c, d], [250, 200])
    standings_refresh(tournament_id=league.tournament.pk)
    # Then they are final after round 1
    assert "Final setelah putaran 1: semua meja sudah selesai." in page(client, league)
    assert "Final after round 1: every table has finished." in page(client, league, "/en")
    # And once round 2 is published with its tables, they are provisional again
    league.table(2, [a, c])
    league.table(2, [b, d])
    assert "Sementara: 2 dari 2 meja putaran 2 belum selesai." in page(client, league)
    # And when the tournament is over, simply final
    league.result(league.tournament.rounds.get(number=2).tables.first(), [250, 10])  # type: ignore[arg-type]
    league.result(league.tournament.rounds.get(number=2).tables.last(), [250, 10])  # type: ignore[arg-type]
    Tournament.objects.filter(pk=league.tournament.pk).update(status=Tournament.Status.FINISHED)
    standings_refresh(tournament_id=league.tournament.pk)
    assert "Final: every table has finished." in page(client, league, "/en")


@pytest.mark.parametrize(
    ("rounds", "english", "indonesian"),
    [
        (
            [RoundProgress("", 1, 1, 1)],
            "Provisional: 1 of 1 table of round 1 not finished.",
            "Sementara: 1 dari 1 meja putaran 1 belum selesai.",
        ),
        (
            [RoundProgress("", 1, 4, 1), RoundProgress("", 2, 4, 4)],
            "Provisional: 1 of 4 tables of round 1 not finished; "
            "4 of 4 tables of round 2 not finished.",
            "Sementara: 1 dari 4 meja putaran 1 belum selesai; "
            "4 dari 4 meja putaran 2 belum selesai.",
        ),
        (
            [RoundProgress("Piala", 3, 2, 1)],
            "Provisional: 1 of 2 tables of round 3 of Piala not finished.",
            "Sementara: 1 dari 2 meja putaran 3 Piala belum selesai.",
        ),
        ([], "Provisional: no round has been published yet.", "Sementara: belum ada putaran"),
    ],
)
def test_the_provisional_wording_counts_tables_with_plural_forms(
    rounds: list[RoundProgress], english: str, indonesian: str
) -> None:
    progress = StandingsProgress(tuple(rounds))
    with translation.override("en"):
        assert progress_text(progress) == (False, english)
    with translation.override("id"):
        is_final, text = progress_text(progress)
    assert not is_final and text.startswith(indonesian)


def test_the_final_wording_for_a_season_and_a_finished_scope() -> None:
    done = (RoundProgress("Piala", 1, 2, 0),)
    with translation.override("en"):
        assert progress_text(StandingsProgress(done)) == (
            True,
            "Final: every table of the published rounds has finished.",
        )
        assert progress_text(StandingsProgress(done, is_over=True)) == (
            True,
            "Final: every table has finished.",
        )


def test_a_season_table_counts_its_public_tournaments_rounds(client: Client, db: Any) -> None:
    # Given a season with a running tournament (one of two tables done) and a draft one
    season = SeasonFactory()
    running = League(TournamentFactory(season=season, name="Piala", status="running"))
    a, b, c, d = (running.entry(n) for n in ("Ani", "Budi", "Citra", "Dewi"))
    running.play(1, [a, b], [250, 100])
    running.table(1, [c, d])
    hidden = League(TournamentFactory(season=season, status=Tournament.Status.DRAFT))
    hidden.table(1, [hidden.entry("Eko"), hidden.entry("Fajar")])
    season_standings_refresh(season_id=season.pk)
    # Then its page names the tournament's round, and leaves the draft out
    url = reverse("standings:season_standings", args=[season.slug])
    html = client.get("/en" + url).content.decode()
    assert "Provisional: 1 of 2 tables of round 1 of Piala not finished." in html


def _tied_field(league: League, size: int) -> list[StandingsRow]:
    """``size`` entrants, none of whom has played: the lot alone orders them."""
    Tournament.objects.filter(pk=league.tournament.pk).update(
        tiebreaks=["match_points", "wins", "lot"]
    )
    entries = [league.entry(f"P{n}") for n in range(size)]
    table = league.table(1, entries[:2])
    table_status_set(table_id=table.pk, status="playing")  # the field is ranked from here
    standings_refresh(tournament_id=league.tournament.pk)
    return list(standings_of(league).rows.order_by("position"))


def test_draw_numbers_run_from_one_over_the_field_the_highest_lot_first(league: League) -> None:
    rows = _tied_field(league, 5)
    draws = draw_numbers(rows)
    # The lot is a 48-bit draw; its draw number is 1..N, and the rows (tied on match
    # points, so ranked by the lot) read 1, 2, 3, 4, 5 from the top
    assert all(len(row.tiebreak_values["lot"]) > 6 for row in rows)
    assert [draws[row.tiebreak_values["lot"]] for row in rows] == [1, 2, 3, 4, 5]


def test_the_page_shows_draw_numbers_and_says_how_the_draw_decides(
    client: Client, league: League
) -> None:
    rows = _tied_field(league, 4)
    html = page(client, league, "/en")
    # The lot column (folded away on a phone) shows 1..4, never the raw lot
    assert not any(row.tiebreak_values["lot"] in html for row in rows)
    assert all(f'<td class="num col-more">{n}</td>' in html for n in range(1, 5))
    first, second = rows[0].name, rows[1].name
    assert (
        f"{first} and {second} are equal on every other tiebreak, so the draw decides: "
        f"{first} has draw number 1 and {second} 2" in html
    )
    assert "the smaller number is placed higher" in html
    indonesian = page(client, league)
    assert f"{first} bernomor undian 1 dan {second} 2" in indonesian


def test_the_lot_sentence_without_draw_numbers_keeps_the_stored_values() -> None:
    separation = {"reason": "tiebreak", "tiebreak": "lot", "upper": "900", "lower": "12"}
    with translation.override("en"):
        text = separation_text(separation=separation, upper="Ani", lower="Budi")
    assert text == "Ani is above Budi on Lot: 900 against 12."


def test_the_csv_gives_the_draw_number_and_the_api_the_stored_lot(
    client: Client, league: League
) -> None:
    rows = _tied_field(league, 3)
    slug = league.tournament.slug
    csv_text = client.get("/en" + reverse("standings:tournament_standings_csv", args=[slug]))
    lines = csv_text.content.decode().splitlines()
    lot_column = lines[0].split(",").index("Lot")
    assert [line.split(",")[lot_column] for line in lines[1:]] == ["1", "2", "3"]
    body = client.get(reverse("api-tournament-standings", args=[slug])).json()
    assert body["rows"][0]["values"]["lot"] == rows[0].tiebreak_values["lot"]
