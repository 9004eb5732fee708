"""The public scoresheet names the end each tile went to in the page's language."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from allfives import Rules
from allfives.simulate import simulate_match
from matches.services.lifecycle import match_import
from tests.matches.conftest import TableMaker

pytestmark = pytest.mark.django_db


def test_each_scoring_play_says_its_end_in_indonesian(make_table: TableMaker) -> None:
    # Given a four-player tile-by-tile match two hands in, its tiles laid on every end
    table = make_table(players=4, target=200)
    document = simulate_match(players=4, rules=Rules(), rng=random.Random(3), strategies=["greedy"])
    hands = list(document["hands"])  # type: ignore[call-overload]
    match = match_import(document={**document, "hands": hands[:2]}, user=None, table=table)
    ends = {
        move.get("end")
        for hand in match.hands.all()
        for move in hand.entry["moves"]
        if move.get("end")
    }
    assert {"W", "E", "N"} <= ends
    # When a visitor opens its public scoresheet in Indonesian
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    plays = re.findall(r"memasang \S+: \d+ <span class=\"meta\">\(([^)]*)\)</span>", html)
    # Then each scoring play says where its tile went in words, never by a compass letter
    assert plays and set(plays) <= {"ke barat", "ke timur", "ke utara", "ke selatan"}, plays
    for letter in "WENS":
        assert f"({letter})" not in html


def test_the_rounds_scoresheet_link_is_named_with_its_table(make_table: TableMaker) -> None:
    # Given a table whose match has started
    table = make_table(players=4, target=200)
    document = simulate_match(players=4, rules=Rules(), rng=random.Random(3), strategies=["greedy"])
    hands = list(document["hands"])  # type: ignore[call-overload]
    match_import(document={**document, "hands": hands[:1]}, user=None, table=table)
    # When a visitor opens the round's page in Indonesian
    round = table.round
    url = reverse("league:round", args=[round.tournament.slug, round.number])
    html = Client().get(url).content.decode()
    # Then a screen reader hears the scoresheet link with its table, with no gap before the comma
    assert f'aria-label="Lembar skor, meja {table.number}">Lembar skor</a>' in html
