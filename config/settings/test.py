"""Test settings: whatever DATABASE_URL / REDIS_URL say (SQLite and eager tasks by default).

CI sets DATABASE_URL and REDIS_URL so the same suite runs against PostgreSQL and Redis.

Where these differ from the base settings, the reason is given here. What production adds
on top of the base (secure cookies, HSTS, the SSL redirect, persistent connections,
``PROXY_COUNT``, SMTP mail) is left out of the tests' in-process requests; the
production-parity tests (``tests/parity/``) run the service as deployed (gunicorn,
``config.settings.production``, ``collectstatic`` with the manifest storage, a Celery
worker and beat) over HTTP, so that nothing below hides a fault of the deployed service:

- passwords are hashed with MD5: thousands of test users would otherwise take minutes;
- static files are served by the finders without a manifest: the manifest needs a
  ``collectstatic`` before any page renders, which the parity tests run once;
- the login lockout and the API's throttles are off, with tests of their own that switch
  them on, since every test request comes from one address and would add up;
- tasks run in-process unless a test starts a real worker against the broker.

Under pytest-xdist each worker gets a database of its own (pytest-django suffixes its
name) and, when ``REDIS_URL`` is set, a Redis database of its own, counted down from the
one named: the workers' caches, throttles and Celery queues never meet.
"""

import os
from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured


def _redis_url_for_worker(url: str, worker: str) -> str:
    """``url`` with its database number moved down by the xdist worker's index: workers
    gw0, gw1, … of ``redis://host/15`` use databases 15, 14, …, which each worker's tests
    empty before every test."""
    parts = urlsplit(url)
    if not worker.startswith("gw") or parts.scheme not in {"redis", "rediss"}:
        return url
    base = int(parts.path.strip("/") or 0)
    number = base - int(worker.removeprefix("gw"))
    if number < 0:
        raise ImproperlyConfigured(
            f"REDIS_URL names database {base}: too low for xdist worker {worker}, which "
            "would use a database below 0. Name a high one (the README uses 15)."
        )
    return urlunsplit(parts._replace(path=f"/{number}"))


if os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = _redis_url_for_worker(
        os.environ["REDIS_URL"], os.environ.get("PYTEST_XDIST_WORKER", "")
    )

from config.settings.base import *  # noqa: E402, F403
from config.settings.base import env  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True
AXES_ENABLED = False
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}  # noqa: F405
API_TOKEN_FAILURE_LIMIT = 1_000_000

CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=True)
