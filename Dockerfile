# syntax=docker/dockerfile:1
# One image for the web process (gunicorn), the Celery worker and Celery beat.
FROM python:3.13-slim-bookworm AS base

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

WORKDIR /app

RUN groupadd --system --gid 1000 kelipatan \
    && useradd --system --uid 1000 --gid kelipatan --home-dir /app --shell /usr/sbin/nologin kelipatan

# Pango and a font for WeasyPrint's PDF table cards. Versions follow the pinned base
# image's Debian release; exact pins would break on every Debian security update.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY --chown=kelipatan:kelipatan . .

# collectstatic needs settings to import; the build-time key is never used at run time.
RUN SECRET_KEY=build-only-collectstatic-key-not-used-at-runtime-0123456789 \
    python manage.py collectstatic --noinput

USER 1000:1000
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"]

CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
