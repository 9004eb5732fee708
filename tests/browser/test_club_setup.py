"""A club's organiser (not the superuser) sets up a competition in the admin, in
Indonesian at a desk (1280 px): signs in at the admin's login page, copies the shipped
Pagat rule set into the club, adds a season on the copy, a division and a tournament —
moving by links and buttons only. Screenshots go to ``artifacts/clubs/``.
"""

from __future__ import annotations

from typing import Any

import pytest

from league.models import Club, Division, Membership, RuleSet, Season, Tournament
from league.services.clubs import membership_add
from tests.conftest import ARTIFACTS
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 900}
SHOTS = ARTIFACTS / "clubs"
#: English an Indonesian admin page must not show (the admin's own words included).
ENGLISH = (
    "Save and",
    "Add season",
    "Select an option",
    "Select rule set",
    "Rule sets",
    "Seasons",
    "Log out",
)


def _indonesian(page: Any) -> None:
    text = page.inner_text("body") + " ".join(page.locator("option").all_inner_texts())
    assert not [w for w in ENGLISH if w in text], [w for w in ENGLISH if w in text]


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_club_organiser_sets_up_a_competition_in_the_admin(browser: Any, live_server: Any) -> None:
    club = ClubFactory(name="Klub Merdeka", city="Surabaya")
    user = UserFactory(username="ketua", is_staff=True)
    user.set_password("rahasia-ketua-123")
    user.save()
    membership_add(club=club, user=user, role=Membership.Role.ORGANISER)
    context = browser.new_context(viewport=DESK, locale="id-ID")
    page = context.new_page()

    # Given the organiser at the admin's login page
    page.goto(f"{live_server.url}/admin/login/")
    _shot(page, "01-masuk")
    page.fill("#id_username", "ketua")
    page.fill("#id_password", "rahasia-ketua-123")
    page.click("input[type=submit]")
    page.wait_for_selector("#content-main")
    _shot(page, "02-beranda-admin")
    _indonesian(page)

    # When they copy Pagat into their club from the rule sets' list
    page.click('#content-main a[href$="/admin/league/ruleset/"]')
    pagat = RuleSet.objects.get(name="Pagat", club__isnull=True)
    page.check(f'input[name="_selected_action"][value="{pagat.pk}"]')
    page.select_option('select[name="action"]', "copy_into_club")
    _shot(page, "03-salin-aturan")
    page.click('button[name="index"]')
    page.wait_for_selector(".messagelist")
    _shot(page, "04-aturan-disalin")
    _indonesian(page)
    rules = RuleSet.objects.get(club=club)

    # And add a season on the copy
    page.click('a[href$="/admin/league/season/"]')
    page.click('a[href$="/admin/league/season/add/"]')
    page.fill("#id_name", "Musim Merdeka")
    page.fill("#id_starts_on", "2026-07-01")
    page.fill("#id_ends_on", "2026-12-31")
    page.select_option("#id_rule_set", str(rules.pk))
    _shot(page, "05-musim-baru")
    _indonesian(page)
    page.click('input[name="_save"]')
    page.wait_for_selector(".messagelist")
    season = Season.objects.get(name="Musim Merdeka")

    # And a division of the season
    page.click('a[href$="/admin/league/division/"]')
    page.click('a[href$="/admin/league/division/add/"]')
    page.select_option("#id_season", str(season.pk))
    page.fill("#id_name", "Divisi Satu")
    _shot(page, "06-divisi-baru")
    page.click('input[name="_save"]')
    page.wait_for_selector(".messagelist")
    division = Division.objects.get(name="Divisi Satu")

    # And a tournament in the season
    page.click('a[href$="/admin/league/tournament/"]')
    page.click('a[href$="/admin/league/tournament/add/"]')
    page.fill("#id_name", "Piala Merdeka")
    page.select_option("#id_season", str(season.pk))
    page.select_option("#id_division", str(division.pk))
    page.select_option("#id_rule_set", str(rules.pk))
    _shot(page, "07-turnamen-baru")
    _indonesian(page)
    page.click('input[name="_save"]')
    page.wait_for_selector(".messagelist")
    _shot(page, "08-turnamen-tersimpan")

    # Then the club owns all of it, and its organiser runs the tournament
    tournament = Tournament.objects.get(name="Piala Merdeka")
    assert (tournament.club, tournament.season, tournament.division) == (club, season, division)
    assert season.club == club and season.rule_set == rules
    assert Club.objects.get(pk=club.pk).tournaments.count() == 1
    assert user in tournament.organisers.all()
    context.close()
