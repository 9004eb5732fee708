"""Site-wide answers that belong to no app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """``/favicon.ico``: the site's icon. Pages name it in their head; browsers ask the
    root for one on pages that name none (the admin's), and are sent to it."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
