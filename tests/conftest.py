"""Shared test configuration. Kept free of Django imports at module level so that
``tests/allfives`` (the engine, no Django) can run with ``-p no:django``."""

from __future__ import annotations

import contextlib
import os
import pathlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

ARTIFACTS = pathlib.Path(__file__).resolve().parent.parent / "artifacts"
CHROMIUM = pathlib.Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def pytest_configure(config: object) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    ARTIFACTS.mkdir(exist_ok=True)


#: Fixtures through which a test reaches the database (pytest-django refuses it otherwise).
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server"}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-only",
        action="store_true",
        help="run only the tests that use the database: CI's second pass on SQLite, since "
        "the others (the engine, the pure pairing algorithms) cannot differ between databases",
    )


def _uses_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> Iterator[None]:
    """Tests that start servers of their own (the fault tests, the production-parity
    tier) run on one xdist worker, one after another (``--dist loadgroup``): their
    timings are measured against the other workers' load, not against each other's.
    With ``--database-only`` the tests that never touch the database are left out. Tests
    marked ``slow`` (the largest randomised and exhaustive checks) run without coverage
    measurement: under its tracing they took four times as long, and the quicker tests of
    the same code measure it; leaving them out can only lower the figure."""
    if config.getoption("--database-only"):
        kept = [item for item in items if _uses_database(item)]
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept
    for item in items:
        if _starts_servers(item):
            item.add_marker(pytest.mark.xdist_group("servers"))
    yield
    # After pytest-django's own ordering, longest first: the servers' group (one worker's
    # share for minutes), then the browser journeys, then the many short tests that even
    # out the workers' ends.
    items.sort(key=lambda item: 0 if _starts_servers(item) else 1 if _in_browser(item) else 2)


def _starts_servers(item: pytest.Item) -> bool:
    return bool(item.get_closest_marker("faults") or item.get_closest_marker("parity"))


def _in_browser(item: pytest.Item) -> bool:
    return item.get_closest_marker("browser") is not None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test marked ``slow`` runs with this thread's trace function (coverage's tracer)
    taken off, and put back after it. pytest-cov's own ``no_cover`` leaves the tracer on
    in an xdist worker."""
    if item.get_closest_marker("slow") is None:
        return (yield)
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        return (yield)
    finally:
        sys.settrace(tracer)


SHIPPED_ROWS = (
    ("league.migrations.0002_ship_rule_sets", "create"),
    ("league.migrations.0007_roles", "create"),
    ("league.migrations.0011_organisers_run_clubs", "forwards"),
    ("entrants.migrations.0002_organisers_run_signup", "grant"),
)


@pytest.fixture(scope="session", autouse=True)
def _shipped_rows_kept() -> None:
    """Rows the migrations ship (the two rule sets, the Organisers and Scorekeepers groups
    and their permissions) stay in the database whatever order the tests run in: a
    transactional test's database is flushed after it, which deletes migration data, and
    the flush ends with ``post_migrate``, on which the migrations' own functions put the
    rows back (one source for them; no ``serialized_rollback``, which collides with the
    content types ``flush`` re-creates)."""
    try:
        from django.apps import apps
        from django.conf import settings
        from django.db.models.signals import post_migrate
    except ImportError:  # the engine's tests run without Django
        return
    if not settings.configured:
        return
    import importlib

    # The signal is sent for each app that has models, in order.
    last_app = [app for app in apps.get_app_configs() if app.models_module is not None][-1]

    def ship(sender: Any, **kwargs: Any) -> None:
        # Sent once per app, after its permissions: the groups need every app's.
        if sender is last_app:
            for name, function in SHIPPED_ROWS:
                getattr(importlib.import_module(name), function)(apps, None)

    post_migrate.connect(ship, weak=False, dispatch_uid="tests-shipped-rows")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, shared by every browser test.

    Missing Chromium skips the browser tests on a developer's machine, and fails them
    in CI (``CI`` set), where ``.ci/run`` installs it: a skip must never hide them there.
    """
    if not CHROMIUM.exists():
        reason = (
            "Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)"
        )
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls
    # are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def _browser_contexts_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test's pages are closed when it ends, before its database is emptied: a
    page left open (a scoring page reporting and polling) would otherwise go on sending
    requests, and one of them, holding row locks, deadlocked the flush on PostgreSQL. Set
    up after pytest-django's own autouse fixtures, so torn down before them. Only tests marked
    ``browser`` hold Chromium: elsewhere a fixture of that name may be a Django test client."""
    if request.node.get_closest_marker("browser") is None or "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    yield
    for context in browser.contexts:
        context.close()
    # Closing a page does not stop a request it already sent: the live server may still be
    # answering one (a scoring page's report, on load), and its row locks deadlocked the
    # flush too. Each request runs in a thread of its own: wait for them to end.
    deadline = time.monotonic() + 10
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)"):
            thread.join(timeout=max(0.0, deadline - time.monotonic()))


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the default language: a request to ``/en/…`` activates English
    in the test's thread, which would otherwise leak into the next ``reverse()``."""
    try:
        from django.conf import settings
        from django.utils import translation
    except ImportError:  # the engine's tests run without Django
        yield
        return
    if not settings.configured:
        yield
        return
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Each test starts with an empty cache: with Redis the cache outlives the test (and
    the run), so counters such as the sign-up throttle's, all from the one test address,
    would add up across the suite. Each xdist worker has a Redis database of its own
    (``config/settings/test.py``), so clearing it touches no other worker's tests."""
    try:
        from django.conf import settings
    except ImportError:  # the engine's tests run without Django
        yield
        return
    if settings.configured:
        from django.core.cache import cache

        with contextlib.suppress(Exception):  # a test that stopped the cache's server
            cache.clear()
    yield


def page_settled(page: Any) -> None:
    """The page has loaded and no htmx request is in flight. Unlike Playwright's
    "networkidle", a background download (the scoring page fetches its rules engine
    after it is usable) does not hold this up."""
    page.wait_for_load_state("load")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


ROOT = ARTIFACTS.parent
#: Where the servers that tests start on production settings find their static files:
#: ``collectstatic`` with the manifest storage, as the Dockerfile runs it.
COLLECTED_STATIC = ROOT / ".collected-static"
#: A key that lets production settings import for ``collectstatic`` (never served).
COLLECT_KEY = "collectstatic-for-the-tests-" + "0123456789" * 4


def _static_sources_digest() -> str:
    """What the collected files depend on: the project's static files, the pinned
    packages (whose apps bring their own) and the settings."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted((ROOT / "static").rglob("*")):
        if path.is_file():
            stat = path.stat()
            digest.update(
                f"{path.relative_to(ROOT)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode()
            )
    for name in ("requirements.txt", "config/settings/base.py", "config/settings/production.py"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="session")
def collected_static() -> pathlib.Path:
    """The static files collected once under production settings (hashed names, the
    manifest, gzip and brotli copies), reused while their sources are unchanged: the
    compression of the rules engine's WebAssembly takes a minute. A lock keeps two xdist
    workers from collecting at once."""
    import fcntl
    import shutil
    import subprocess

    stamp = COLLECTED_STATIC / ".sources"
    with open(ROOT / ".collected-static.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        digest = _static_sources_digest()
        if not (stamp.exists() and stamp.read_text() == digest):
            shutil.rmtree(COLLECTED_STATIC, ignore_errors=True)
            env = {
                key: value
                for key, value in os.environ.items()
                if not key.startswith(("DJANGO_", "DATABASE_", "REDIS_"))
            }
            env.update(
                DJANGO_SETTINGS_MODULE="config.settings.production",
                SECRET_KEY=COLLECT_KEY,
                STATIC_ROOT=str(COLLECTED_STATIC),
            )
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                cwd=ROOT,
                env=env,
                check=True,
            )
            stamp.write_text(digest)
    return COLLECTED_STATIC
