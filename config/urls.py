"""URL routing: admin, health probes, language switch, API schema and docs, the apps."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from config.health import healthz, readyz
from config.views import favicon
from matches import views_offline

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    # The scoring page's service worker, at the root so its scope covers every language.
    path("sw.js", views_offline.service_worker, name="offline_sw"),
    path("offline/engine.zip", views_offline.engine, name="offline_engine"),
    path("favicon.ico", favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("api/", include("league.api.urls")),
    path("api/", include("standings.api.urls")),
    path("api/", include("pairing.api.urls")),
    path("api/", include("matches.api.urls")),
    path("api/", include("knockout.api.urls")),
]

urlpatterns += i18n_patterns(
    # The organiser's desk lives under /admin/desk/, before the admin's catch-all.
    path("", include("desk.urls")),
    path("admin/", admin.site.urls),
    # Sign-in, sign-out and password reset for everyone, in the site's templates.
    path("account/", include("django.contrib.auth.urls")),
    path("", include("entrants.urls")),
    path("", include("matches.urls")),
    path("", include("standings.urls")),
    path("", include("ratings.urls")),
    path("", include("knockout.urls")),
    path("", include("league.urls")),
    prefix_default_language=False,
)

# Under /api/, what Django answers itself (unknown paths, bodies over its size limit,
# server errors, the database away) comes in the API's error envelope; elsewhere, pages.
handler400 = "league.api.views.api_bad_request"
handler404 = "league.api.views.api_not_found"
handler500 = "league.api.views.api_server_error"
