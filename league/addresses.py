"""The client's network address, as the login lockout and the API's throttles count it.

Behind the documented TLS proxy every connection comes from the proxy, so
``REMOTE_ADDR`` is the same for everyone. ``PROXY_COUNT`` says how many proxies
the operator runs in front of the service (0: none, the embedded default); each of
them appends the address it saw to ``X-Forwarded-For`` (``PROXY_CLIENT_HEADER``).
The client's address is then the entry ``PROXY_COUNT`` places from the right: the one
the outermost trusted proxy wrote. Entries further left were sent by the client and
are ignored, so a forged header cannot pick another client's bucket. django-ipware
reads and validates the header; a request with too short a chain (it did not pass
through the proxies) counts by ``REMOTE_ADDR``.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ipware.ip import get_client_ip

UNKNOWN = "0.0.0.0"  # noqa: S104  # nosec B104 - a bucket name, never bound


def client_address(request: HttpRequest) -> str:
    """The address of the client that sent ``request`` (``AXES_CLIENT_IP_CALLABLE``)."""
    remote = str(request.META.get("REMOTE_ADDR") or UNKNOWN)
    proxies = int(getattr(settings, "PROXY_COUNT", 0))
    if proxies <= 0:
        return remote
    header = str(getattr(settings, "PROXY_CLIENT_HEADER", "HTTP_X_FORWARDED_FOR"))
    # ipware counts the proxies *listed in* the header after the client's entry; the
    # proxy nearest the service is in REMOTE_ADDR instead, hence one fewer. Left-most,
    # not strict: take the entry at that distance from the right and ignore the rest.
    address, _routable = get_client_ip(
        request,
        proxy_order="left-most",
        proxy_count=proxies - 1,
        request_header_order=[header],
        strict=False,
    )
    return address or remote
