"""Production settings for the servers the fault tests start, with one change: static
files are served by the finders, so that no ``collectstatic`` has to run first.

Everything else — throttles, the fail-safe Redis cache, database timeouts, Celery's
broker options, login lockout — is exactly as deployed.
"""

from config.settings.production import *  # noqa: F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
