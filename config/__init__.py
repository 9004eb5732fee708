"""Wiring only: settings, URL routing, the Celery app, WSGI and ASGI entry points."""

from config.celery_app import app as celery_app

__all__ = ["celery_app"]
