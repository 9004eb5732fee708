"""Every API endpoint, every role, own and other tournament, generated from ``access.TABLE``.

The endpoints are read from the URL resolver, so one added later without a row in the
table fails ``test_every_endpoint_has_an_expectation`` instead of going unchecked.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.api.access import ALLOWED, TABLE, Expect
from tests.api.conftest import ROLES, World

WRITE = {"POST", "PUT", "PATCH", "DELETE"}
DENIED = {401, 403, 404}


def _walk(patterns: list[Any], prefix: str = "") -> list[tuple[str, URLPattern]]:
    found: list[tuple[str, URLPattern]] = []
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            found += _walk(p.url_patterns, route)
        else:
            found.append((route, p))
    return found


def _methods(callback: Any) -> set[str]:
    actions = getattr(callback, "actions", None)
    if actions:
        # DRF adds "head" to a viewset's actions on its first request: not a route of its own.
        return {m.upper() for m in actions if m != "head"}
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if cls is None:
        return {"GET"}
    return {
        m.upper()
        for m in ("get", "post", "put", "patch", "delete")
        if hasattr(cls, m) and m in cls.http_method_names
    }


def api_endpoints() -> set[tuple[str, str]]:
    """(route name, method) for every route under /api/."""
    endpoints = set()
    for route, pattern in _walk(get_resolver().url_patterns):
        if not route.lstrip("^").startswith("api/"):
            continue
        name = pattern.name or route
        for method in _methods(pattern.callback):
            endpoints.add((name, method))
    return endpoints


@pytest.mark.django_db
def test_every_endpoint_has_an_expectation() -> None:
    # Given the routes under /api/ and the access table
    endpoints = api_endpoints()
    # Then every endpoint has a row, and every row names an endpoint that exists
    missing = sorted(endpoints - set(TABLE))
    stale = sorted(set(TABLE) - endpoints)
    assert not missing, f"endpoints with no declared expectation: {missing}"
    assert not stale, f"rows for endpoints that do not exist: {stale}"


def _url(world: World, name: str, expect: Expect) -> str:
    kwargs = expect.kwargs(world) if expect.kwargs else {}
    return reverse(name, kwargs=kwargs)


class _Rollback(Exception):
    pass


def _call(world: World, role: str, method: str, url: str, body: Any) -> Any:
    client = world.client(role)
    call = getattr(client, method.lower())
    if method in WRITE:
        return call(url, body if body is not None else {}, format="json")
    return call(url)


@pytest.mark.parametrize(("name", "method"), sorted(TABLE), ids=lambda v: str(v))
def test_access(shared_world: World, name: str, method: str) -> None:
    # Given an endpoint's row and the world, restored after every role's request
    world = shared_world
    expect = TABLE[(name, method)]
    if (name, method) not in api_endpoints():
        pytest.fail(f"{method} {name} is in the access table but not routed")
    problems = []
    for role in ROLES:
        try:
            with transaction.atomic():
                if expect.setup:
                    expect.setup(world)
                url = _url(world, name, expect)
                body = expect.body(world) if expect.body else None
                # When the role calls the endpoint
                response = _call(world, role, method, url, body)
                raise _Rollback(response)
        except _Rollback as done:
            response = done.args[0]
        status = response.status_code
        allowed = role in ALLOWED[expect.level]
        # Then allowed roles succeed (or at least get past the guards) and others are stopped
        if allowed:
            ok = status == expect.ok if expect.body is not None else status not in DENIED
        elif role == "anonymous":
            ok = status == expect.anonymous
        else:
            ok = status in (403, 404)
        if status >= 500:
            ok = False
        if not ok:
            problems.append(f"{role}: {status} {getattr(response, 'data', '')!s:.300}")
        if status in DENIED | {400} and response.get("Content-Type", "").startswith(
            "application/json"
        ):
            assert response.json()["ok"] is False, response.content
    assert not problems, f"{method} {name} ({expect.level}):\n" + "\n".join(problems)
