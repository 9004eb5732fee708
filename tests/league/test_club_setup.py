"""An organiser who is not the superuser sets up a competition for their club — a rule
set copied from a shipped one, a season on it, a division, and a tournament in the
season — in the admin and through the API, from nothing but their club membership."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league.models import Club, Division, Membership, RuleSet, Season, Tournament
from league.services.clubs import membership_add
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    club = ClubFactory(name="Klub Merdeka")
    ClubFactory(name="Spinner Malang")  # another club, which the organiser may not touch
    user = UserFactory(username="ketua", is_staff=True)
    membership_add(club=club, user=user, role=Membership.Role.ORGANISER)
    assert not user.is_superuser
    return user


def _form_data(page: Any, **values: Any) -> dict[str, Any]:
    """What the add page would post: each field's initial value, the inlines' management
    forms, and ``values`` typed in."""
    form = page.context["adminform"].form
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if value not in (None, "", []) and not isinstance(value, bool):
            data[name] = value if not isinstance(value, list) else [str(v) for v in value]
        elif value is True:
            data[name] = "on"
    for inline in page.context.get("inline_admin_formsets", []):
        management = inline.formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
    data.update(values)
    return data


def _add(client: Client, model: str, **values: Any) -> Any:
    url = reverse(f"admin:league_{model}_add")
    page = client.get(url)
    assert page.status_code == 200, model
    response = client.post(url, _form_data(page, **values))
    errors = getattr(response, "context", None) and response.context.get("errors")
    assert response.status_code == 302, (model, errors)
    return response


def test_organiser_sets_up_a_season_division_rule_set_and_tournament_in_the_admin(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    club = Club.objects.get(name="Klub Merdeka")
    client = Client()
    client.force_login(organiser)
    # Given the shipped Pagat rule set, copied into the club by the admin's action
    pagat = RuleSet.objects.get(name="Pagat", club__isnull=True)
    copied = client.post(
        reverse("admin:league_ruleset_changelist"),
        {"action": "copy_into_club", "_selected_action": [pagat.pk]},
    )
    assert copied.status_code == 302
    rules = RuleSet.objects.get(club=club)
    # And the copy is the club's to change
    page = client.get(reverse("admin:league_ruleset_change", args=[rules.pk]))
    response = client.post(
        reverse("admin:league_ruleset_change", args=[rules.pk]),
        _form_data(page, name="Pagat Merdeka", target_2="300"),
    )
    assert response.status_code == 302
    # When the organiser adds a season on it, a division and a tournament in the season
    _add(
        client,
        "season",
        name="Musim Merdeka",
        slug="musim-merdeka",
        starts_on="2026-07-01",
        ends_on="2026-12-31",
        rule_set=rules.pk,
        status="running",
    )
    season = Season.objects.get(slug="musim-merdeka")
    _add(
        client,
        "division",
        season=season.pk,
        name="Divisi Satu",
        order="1",
        promotion_count="2",
        relegation_count="2",
    )
    division = Division.objects.get(name="Divisi Satu")
    with django_capture_on_commit_callbacks(execute=True):  # the creator is named after commit
        _add(
            client,
            "tournament",
            name="Piala Merdeka",
            slug="piala-merdeka",
            season=season.pk,
            division=division.pk,
            rule_set=rules.pk,
            rounds_count="3",
        )
    # Then all four belong to the organiser's club, and the organiser runs the tournament
    rules.refresh_from_db()
    assert (rules.name, rules.target_2, rules.club) == ("Pagat Merdeka", 300, club)
    assert season.club == club and season.rule_set == rules
    assert division.season == season
    tournament = Tournament.objects.get(slug="piala-merdeka")
    assert (tournament.club, tournament.season, tournament.division) == (club, season, division)
    assert organiser in tournament.organisers.all()
    # And the shipped rule set is unchanged
    pagat.refresh_from_db()
    assert pagat.club is None and pagat.name == "Pagat"


def test_organiser_sets_up_a_season_division_rule_set_and_tournament_through_the_api(
    organiser: Any,
) -> None:
    club = Club.objects.get(name="Klub Merdeka")
    api = APIClient()
    api.force_authenticate(organiser)
    pagat = RuleSet.objects.get(name="Pagat", club__isnull=True)
    # Given the shipped rule set cannot be changed, only copied into the club
    assert api.patch(
        f"/api/rulesets/{pagat.pk}/", {"target_2": 300}, format="json"
    ).status_code in (403, 404)
    copy = api.post(f"/api/rulesets/{pagat.pk}/copy/", {"name": "Pagat Merdeka"}, format="json")
    assert copy.status_code == 201, copy.json()
    rules_id = copy.json()["id"]
    changed = api.patch(f"/api/rulesets/{rules_id}/", {"target_2": 300}, format="json")
    assert changed.status_code == 200, changed.json()
    # When the organiser adds a season, a division and a tournament
    season = api.post(
        "/api/seasons/",
        {
            "name": "Musim Merdeka",
            "slug": "musim-merdeka",
            "starts_on": "2026-07-01",
            "ends_on": "2026-12-31",
            "rule_set": rules_id,
            "status": "running",
        },
        format="json",
    )
    assert season.status_code == 201, season.json()
    division = api.post(
        "/api/divisions/",
        {"season": season.json()["id"], "name": "Divisi Satu", "order": 1},
        format="json",
    )
    assert division.status_code == 201, division.json()
    tournament = api.post(
        "/api/tournaments/",
        {
            "name": "Piala Merdeka",
            "slug": "piala-merdeka",
            "season": season.json()["id"],
            "division": division.json()["id"],
            "rule_set": rules_id,
            "format": "swiss",
            "table_size": "2",
            "rounds_count": 3,
        },
        format="json",
    )
    assert tournament.status_code == 201, tournament.json()
    # Then all of it is the club's, and the shipped rule set is unchanged
    made = Tournament.objects.get(slug="piala-merdeka")
    assert made.club == club and made.season.club == club and made.rule_set.club == club
    assert RuleSet.objects.get(pk=rules_id).target_2 == 300
    assert organiser in made.organisers.all()
    pagat.refresh_from_db()
    assert pagat.target_2 != 300 and pagat.club is None
    # And copying into another club is refused
    other = Club.objects.get(name="Spinner Malang")
    refused = api.post(f"/api/rulesets/{pagat.pk}/copy/", {"club": other.pk}, format="json")
    assert refused.status_code == 403
    assert not RuleSet.objects.filter(club=other).exists()
