"""The public bracket page (SVG, both languages, polling while matches are open, linked
from the tournament's page) and the bracket in the API."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from knockout.selectors import bracket_matches_tied
from knockout.services import bracket_advance, bracket_create
from league.models import Tournament
from league.services.rounds import round_create, round_publish
from pairing.services.pairing import round_pair
from tests.knockout.conftest import play_round, seeded_tournament

pytestmark = pytest.mark.django_db


def knockout_started(entries: int = 6, **options: bool) -> Tournament:
    tournament = seeded_tournament(entries)
    bracket_create(tournament=tournament, source="ratings", **options)
    return tournament


def test_the_tournament_page_links_to_the_bracket_only_once_there_is_one(client: Client) -> None:
    plain = seeded_tournament(4)
    assert (
        'data-testid="bracket-link"'
        not in client.get(f"/tournaments/{plain.slug}/").content.decode()
    )
    tournament = knockout_started()
    drafted = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert 'data-testid="bracket-link"' not in drafted  # its first round is a draft
    round_publish(round=tournament.rounds.get())
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert f'href="/tournaments/{tournament.slug}/knockout/"' in page


def test_the_tournament_page_names_a_knockout_rounds_stage(client: Client) -> None:
    # given semi-finals published
    tournament = knockout_started(entries=4)
    round_publish(round=tournament.rounds.get())
    # when a visitor opens the tournament's page, then its round is headed by its stage
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    stage = re.search(r'data-testid="round-stage">([^<]*)<', page)
    assert stage is not None and stage.group(1) == "· Semifinal"
    english = client.get(f"/en/tournaments/{tournament.slug}/").content.decode()
    assert 'data-testid="round-stage">· Semi-finals<' in english
    # while a Swiss round is headed by its number only
    plain = seeded_tournament(4)
    swiss = round_create(tournament=plain)
    round_pair(round=swiss)
    round_publish(round=swiss)
    swiss_page = client.get(f"/tournaments/{plain.slug}/").content.decode()
    assert "Pemain 01" in swiss_page and 'data-testid="round-stage"' not in swiss_page


def test_the_bracket_page_draws_the_svg_in_indonesian_and_english(client: Client) -> None:
    tournament = knockout_started(third_place=True)
    page = client.get(f"/tournaments/{tournament.slug}/knockout/").content.decode()
    assert "<svg" in page and "Pemain 04" in page and "Pemain 05" in page
    assert "Final" in page and "Semifinal" in page
    assert "libur" in page and not re.search(r">[^<]*\bbye\b", page, re.IGNORECASE)
    english = client.get(f"/en/tournaments/{tournament.slug}/knockout/").content.decode()
    assert "Semi-finals" in english and "Main bracket" in english
    assert "Semi-finals" not in page and "Main bracket" not in page


def test_the_page_polls_while_matches_are_open_and_stops_when_the_final_is_decided(
    client: Client,
) -> None:
    tournament = knockout_started(entries=2)
    url = f"/tournaments/{tournament.slug}/knockout/"
    assert 'hx-get="' in client.get(url).content.decode()
    play_round(tournament.rounds.get())
    assert bracket_advance(tournament=tournament) is None
    response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 286
    assert 'data-testid="champion-main"' in response.content.decode()


def test_a_tournament_without_knockout_has_no_bracket_page(client: Client) -> None:
    plain = seeded_tournament(4)
    assert client.get(f"/tournaments/{plain.slug}/knockout/").status_code == 404
    assert client.get(f"/api/tournaments/{plain.slug}/knockout/").status_code == 404


def test_the_api_gives_each_match_with_seeds_state_and_results(client: Client) -> None:
    tournament = knockout_started(entries=6, plate=True)
    play_round(tournament.rounds.get())
    bracket_advance(tournament=tournament)
    body = client.get(f"/api/tournaments/{tournament.slug}/knockout/").json()
    assert body["tournament"] == tournament.slug
    main, plate = body["brackets"]
    assert main["section"] == "main" and plate["section"] == "plate"
    first = main["rounds"][0]["matches"]
    assert [m["state"] for m in first] == ["bye", "decided", "bye", "decided"]
    assert [[s["seed"] for s in m["slots"]] for m in first] == [[1], [4, 5], [2], [3, 6]]
    played = first[1]
    assert played["decided_by"] == "played" and played["round_number"] == 1
    assert [s["points"] for s in played["slots"]] == ["50", "20"]
    semis = main["rounds"][1]["matches"]
    assert [[s["seed"] for s in m["slots"]] for m in semis] == [[1, 4], [2, 3]]
    assert {m["state"] for m in semis} == {"drafted"}
    assert [s["name"] for s in plate["rounds"][0]["matches"][0]["slots"]] == [
        "Pemain 05",
        "Pemain 06",
    ]


def test_the_schema_documents_the_bracket(client: Client) -> None:
    schema = client.get("/api/schema/", headers={"Accept": "application/json"}).content.decode()
    assert "tournament_bracket" in schema and "BracketMatch" in schema


def test_a_tie_reads_as_waiting_for_the_extra_hand_or_as_the_higher_seed_through(
    client: Client,
) -> None:
    for rule, state, winners in (("extra_hand", "tied", []), ("higher_seed", "finished", [1])):
        tournament = seeded_tournament(2, knockout_tie=rule)
        bracket_create(tournament=tournament, source="ratings")
        play_round(tournament.rounds.get(), choose=lambda es: None)
        body = client.get(f"/api/tournaments/{tournament.slug}/knockout/").json()
        final = body["brackets"][0]["rounds"][0]["matches"][0]
        assert final["state"] == state, rule
        assert [s["seed"] for s in final["slots"] if s["is_winner"]] == winners, rule
        ties = bracket_matches_tied(tournament=tournament)
        assert len(ties) == (1 if rule == "extra_hand" else 0), rule


def test_the_rounds_api_says_which_rounds_are_knockout_rounds(client: Client) -> None:
    tournament = knockout_started(entries=4)
    round = tournament.rounds.get()
    round_publish(round=round)
    rounds = client.get(f"/api/rounds/?tournament={tournament.pk}").json()
    stages = {
        r["number"]: r["stage"] for r in rounds["results"] if r["tournament"] == tournament.pk
    }
    assert stages == {1: "knockout"}


def test_a_knockout_rounds_page_and_the_bracket_page_link_to_each_other(client: Client) -> None:
    # Given semi-finals published, one table playing
    tournament = knockout_started(entries=4)
    semis = tournament.rounds.get()
    round_publish(round=semis)
    # When a visitor opens the round's page
    page = client.get(f"/tournaments/{tournament.slug}/rounds/{semis.number}/").content.decode()
    # Then it names the stage and links to the bracket
    stage = re.search(r'data-testid="round-stage">([^<]*)<', page)
    assert stage is not None and stage.group(1) == "Semifinal"
    assert f'href="/tournaments/{tournament.slug}/knockout/" data-testid="bracket-link"' in page
    # And the bracket page's "playing at table 1" leads to that round's tables
    bracket = client.get(f"/tournaments/{tournament.slug}/knockout/").content.decode()
    links = re.findall(r'href="([^"]*)" data-testid="match-round-\d+">([^<]*)<', bracket)
    assert links == [
        (f"/tournaments/{tournament.slug}/rounds/{semis.number}/", "bermain di meja 1"),
        (f"/tournaments/{tournament.slug}/rounds/{semis.number}/", "bermain di meja 2"),
    ]
    # while a Swiss round's page names no stage and has no bracket link
    plain = seeded_tournament(4)
    swiss = round_create(tournament=plain)
    round_pair(round=swiss)
    round_publish(round=swiss)
    swiss_page = client.get(f"/tournaments/{plain.slug}/rounds/1/").content.decode()
    assert "Pemain 01" in swiss_page
    assert 'data-testid="round-stage"' not in swiss_page
    assert 'data-testid="bracket-link"' not in swiss_page
