"""Template tags of the public site.

``{% default_language_path %}`` gives the current page's address in the default
language (Indonesian, with no prefix). The language switch posts it as ``next``:
Django's ``set_language`` runs outside the language prefixes, so it resolves
addresses in the default language only, and would leave an ``/en/...`` address
unchanged when switching back to Indonesian.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.urls import translate_url

register = template.Library()


@register.simple_tag(takes_context=True)
def default_language_path(context: dict[str, Any]) -> str:
    """The request's path and query, translated to ``settings.LANGUAGE_CODE``."""
    request = context.get("request")
    if request is None:
        return "/"
    return translate_url(request.get_full_path(), settings.LANGUAGE_CODE)
