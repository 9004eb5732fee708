"""WSGI entry point (gunicorn)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
# Web requests get a statement timeout (milliseconds): a query stuck on locks or a
# runaway plan is cancelled by PostgreSQL instead of holding the worker.
os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT", "30000")
application = get_wsgi_application()
