"""Test settings: whatever DATABASE_URL / REDIS_URL say (SQLite and eager tasks by default).

CI sets DATABASE_URL and REDIS_URL so the same suite runs against PostgreSQL and Redis.
"""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast test users
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
AXES_ENABLED = False  # lockout has its own tests that switch it on
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}  # noqa: F405

# Tasks run in-process unless a test starts a real worker against the broker
# (those tests use REDIS_URL explicitly); the Redis cache is still used when set.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=True)

# Static files are served by the finders in tests; nothing is collected beforehand.
WHITENOISE_AUTOREFRESH = True
# Bad tokens from the one test address would add up across the suite; the guessing
# throttle has its own tests that lower the limit.
API_TOKEN_FAILURE_LIMIT = 1_000_000
