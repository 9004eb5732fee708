"""Production settings: refuse to start without a real secret key or with DEBUG on."""

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import *  # noqa: F403
from config.settings.base import SMTP_BACKEND, env, mailers

SECRET_KEY = env("SECRET_KEY", default="")
if not SECRET_KEY or SECRET_KEY.startswith("django-insecure") or len(SECRET_KEY) < 50:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a random value of at least 50 characters in production."
    )
if env.bool("DEBUG", default=False):
    raise ImproperlyConfigured("DEBUG must be off in production.")
DEBUG = False

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CONN_MAX_AGE = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_MAX_AGE"] = CONN_MAX_AGE  # noqa: F405  (Django reads it there)

# Behind the TLS proxy every connection comes from the proxy's address: the client's is
# read from the header the proxy appends to (league/addresses.py), so that the login
# lockout and the token throttle count per client and not for everyone at once.
PROXY_COUNT = env.int("PROXY_COUNT", default=1)

# Mail is sent for real in production: SMTP unless EMAIL_BACKEND names another backend.
MAILERS = mailers(SMTP_BACKEND)
