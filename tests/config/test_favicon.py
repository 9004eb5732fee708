"""The site's icon: named by every page's head, and ``/favicon.ico`` sends a browser that
asks the root for one (the admin's pages name none) to the same file."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.test import Client


@pytest.mark.django_db
def test_the_root_icon_is_the_sites_own_and_pages_name_it(client: Client) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    target = answer["Location"]
    assert target.endswith("img/favicon.svg")
    assert finders.find("img/favicon.svg") is not None
    home = client.get("/").content.decode()
    assert f'<link rel="icon" href="{target}" type="image/svg+xml">' in home
