"""Content negotiation for views whose ``?format=`` is a filter, not a renderer.

DRF reads ``?format=`` as "render as" on every view; tournaments have a ``format``
(round robin, Swiss, ...) and filter by it, so there DRF's reading would answer 404 for
``?format=swiss``. Those views negotiate by the Accept header only (they render JSON).
"""

from __future__ import annotations

from types import SimpleNamespace

from rest_framework.negotiation import DefaultContentNegotiation


class FormatIsAFilter(DefaultContentNegotiation):
    settings = SimpleNamespace(URL_FORMAT_OVERRIDE=None)  # type: ignore[assignment]
