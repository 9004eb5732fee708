"""Settings shared by every environment, read from the process environment.

With nothing set the service runs on the *embedded default*: SQLite in the project
folder and Celery tasks executed in-process (eager), so one command runs it
anywhere. Setting ``DATABASE_URL`` moves it to PostgreSQL; setting ``REDIS_URL``
(or ``CELERY_BROKER_URL``) sends tasks to real Celery workers. Every variable is
documented in ``.env.example``.
"""

from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

SECRET_KEY = env("SECRET_KEY", default="django-insecure-kelipatan-local-only")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS: list[str] = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "import_export",
    "simple_history",
    "axes",
    "league",
    "standings",
    "ratings",
    "pairing",
    "matches",
    "entrants",
    "knockout",
    "desk",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "league.middleware.LocaleByPathOrHeaderMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Persistent connections, checked before reuse. (Django reads the age from DATABASES
# only: a top-level CONN_MAX_AGE setting is ignored.) Production defaults it to 60 s.
CONN_MAX_AGE = env.int("CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_MAX_AGE"] = CONN_MAX_AGE
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# A silent database must not hang a request: connecting gives up after a few seconds
# (libpq's minimum is 2), and a statement that runs too long is cancelled by the server.
# Web processes set a statement timeout (config/wsgi.py, config/asgi.py); management
# commands, migrations and workers keep none unless DATABASE_STATEMENT_TIMEOUT says so.
DATABASE_CONNECT_TIMEOUT = env.int("DATABASE_CONNECT_TIMEOUT", default=3)
DATABASE_STATEMENT_TIMEOUT = env.int("DATABASE_STATEMENT_TIMEOUT", default=0)  # ms, 0: none
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _db_options = DATABASES["default"].setdefault("OPTIONS", {})
    _db_options.setdefault("connect_timeout", DATABASE_CONNECT_TIMEOUT)
    if DATABASE_STATEMENT_TIMEOUT:
        _db_options.setdefault("options", f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT}")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves pages while in-process tasks write standings: a write
    # waits for the lock (up to 20 s) instead of failing, every transaction takes the
    # write lock when it begins so that none fails half-way on upgrading a read lock,
    # and readers go on reading while a write is under way (write-ahead log).
    _db_options = DATABASES["default"].setdefault("OPTIONS", {})
    _db_options.setdefault("timeout", 20)
    _db_options.setdefault("transaction_mode", "IMMEDIATE")
    _db_options.setdefault("init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Everyone signs in on the site's own pages (organisers too; the admin has its own form).
# A scorekeeper lands on their tables.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "matches:my_tables"
LOGOUT_REDIRECT_URL = "league:home"

# Mail (password resets). The embedded default prints mails on the console.
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"


def mailers(default_backend: str) -> dict[str, dict[str, object]]:
    """The mail settings: ``EMAIL_BACKEND`` (else ``default_backend``), with
    ``EMAIL_HOST`` and ``EMAIL_PORT`` for SMTP."""
    backend = env("EMAIL_BACKEND", default=default_backend)
    found: dict[str, object] = {"BACKEND": backend}
    if backend == SMTP_BACKEND:
        found["OPTIONS"] = {
            "host": env("EMAIL_HOST", default="localhost"),
            "port": env.int("EMAIL_PORT", default=25),
        }
    return {"default": found}


# The embedded default prints mail (password resets) to the console.
MAILERS = mailers("django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Kelipatan <noreply@localhost>")

# Internationalisation: Indonesian first, English second (the language switch).
LANGUAGE_CODE = "id"
LANGUAGES = [("id", _("Bahasa Indonesia")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env("TIME_ZONE", default="Asia/Jakarta")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where ``collectstatic`` puts the files that whitenoise serves (hashed names, compressed).
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Cache: Redis when configured (shared by web and workers), else local memory. Redis is
# optional at every request: while it is away each process caches in its own memory
# (league/cache.py), so throttles count locally and pages are built from the database.
REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "league.cache.FailSafeRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": env.float("REDIS_SOCKET_TIMEOUT", default=0.25),
                "socket_timeout": env.float("REDIS_SOCKET_TIMEOUT", default=0.25),
                "circuit_cooldown": env.float("REDIS_RETRY_AFTER", default=5.0),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery. Without a broker the embedded default runs tasks in-process (eager).
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default="")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
# The longest a task may run (pairing is the longest); the soft limit lets it clean up.
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=300)
CELERY_TASK_SOFT_TIME_LIMIT = env.int(
    "CELERY_TASK_SOFT_TIME_LIMIT", default=max(1, CELERY_TASK_TIME_LIMIT * 4 // 5)
)
# A task taken by a worker that then died (killed, machine lost) is handed out again once
# this many seconds pass unacknowledged: a little above the hard limit, so that a task
# still running is never given to a second worker. (The Redis transport's default is an
# hour.) Pairing progress that has not moved for this long is reported as failed.
CELERY_VISIBILITY_TIMEOUT = env.int(
    "CELERY_VISIBILITY_TIMEOUT",
    default=CELERY_TASK_TIME_LIMIT + max(5, CELERY_TASK_TIME_LIMIT // 10),
)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
# A dead or silent Redis must never hang a web request: fail within seconds.
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    "socket_connect_timeout": 1,
    "socket_timeout": 1,
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# One attempt per publish: redis-py already replaces a pooled connection that the server
# closed (a restarted Redis), so a retry only ever ran against a silent Redis, where it
# cost two more socket timeouts (3 s in all); the broker's circuit (league/dispatch.py)
# and the beat sweep cover a publish that fails.
CELERY_TASK_PUBLISH_RETRY = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 0,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# A static beat schedule (django-celery-beat does not support Django 6.1 yet).
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}
# Standings left dirty (a refresh the broker never took) are recomputed within a minute.
CELERY_BEAT_SCHEDULE["standings-sweep"] = {
    "task": "standings.standings_sweep",
    "schedule": env.float("STANDINGS_SWEEP_SECONDS", default=60.0),
}
# Ratings whose task was lost (broker down) or that a correction left stale: every 5 min.
CELERY_BEAT_SCHEDULE["ratings-catch-up"] = {"task": "ratings.ratings_catch_up", "schedule": 300.0}
# Idempotency keys are kept a day for resends from flaky phones, then purged hourly.
CELERY_BEAT_SCHEDULE["idempotency-purge"] = {
    "task": "matches.idempotent_requests_purge",
    "schedule": 3600.0,
}

REST_FRAMEWORK = {
    # Tokens first, so that an anonymous write is answered 401 with WWW-Authenticate.
    # Session writes are CSRF-checked; token requests carry no cookie and need no CSRF.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "league.api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PARSER_CLASSES": ["league.api.parsers.LimitedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "league.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "league.api.schema.AutoSchema",  # documents the error envelope
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "EXCEPTION_HANDLER": "league.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("API_THROTTLE_ANON", default="600/minute"),
        "user": env("API_THROTTLE_USER", default="3000/minute"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Kelipatan API",
    "DESCRIPTION": "Tournaments and leagues for the domino game All Fives (Kelipatan 5).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=256 * 1024)

# The client's address (league/addresses.py): how many proxies stand in front of the
# service, each appending the address it saw to this header. 0: none, REMOTE_ADDR.
PROXY_COUNT = env.int("PROXY_COUNT", default=0)
PROXY_CLIENT_HEADER = env("PROXY_CLIENT_HEADER", default="HTTP_X_FORWARDED_FOR")

# Login lockout (django-axes), counted per username *and* address together: one
# attacker behind a shared proxy cannot lock everyone out, and guessing a known
# username from one address does not lock its owner out everywhere else.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "league.addresses.client_address"
AXES_RESET_ON_SUCCESS = True

# Failed API token authentications per client address before the API answers 429
# (league/api/authentication.py), and the window they are counted in.
API_TOKEN_FAILURE_LIMIT = env.int("API_TOKEN_FAILURE_LIMIT", default=20)
API_TOKEN_FAILURE_WINDOW = env.int("API_TOKEN_FAILURE_WINDOW", default=600)  # seconds
# Sign-ups per client address on the public sign-up pages (entrants.throttling).
SIGNUP_RATE_LIMIT = env.int("SIGNUP_RATE_LIMIT", default=5)
SIGNUP_RATE_WINDOW = env.int("SIGNUP_RATE_WINDOW", default=3600)  # seconds

# Uploads (CSV imports) are small: refuse anything large before it is parsed.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000
IMPORT_MAX_BYTES = env.int("IMPORT_MAX_BYTES", default=1024 * 1024)
from import_export.formats.base_formats import CSV  # noqa: E402

IMPORT_FORMATS = [CSV]  # admin imports take CSV only (no spreadsheets, no pickled formats)
from league.exports import SafeCSV  # noqa: E402

# Admin exports: CSV whose formula cells are neutralised (league/exports.py).
EXPORT_FORMATS = [SafeCSV]

# Content-Security-Policy with nonces (Django's built-in CSP).
from django.utils.csp import CSP  # noqa: E402

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    # Inline style attributes (admin widgets, SVG charts) are allowed; scripts are not.
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    # Redoc (API docs) runs its search in a worker it builds from a blob.
    "worker-src": [CSP.SELF, "blob:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.SELF],
    "form-action": [CSP.SELF],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
}
