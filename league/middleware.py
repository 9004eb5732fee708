"""Language of each request.

Pages live under ``i18n_patterns`` without a prefix for Indonesian (``/…``) and with
``/en/…`` for English. Django's ``LocaleMiddleware`` then gives *every* unprefixed
path the default language — the API too, which has no language prefix at all. API
clients choose their language the HTTP way instead, with ``Accept-Language`` (errors
come back in it); pages keep the URL's language.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

API_PREFIX = "/api/"


class LocaleByPathOrHeaderMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        if not request.path_info.startswith(API_PREFIX):
            super().process_request(request)
            return
        language = translation.get_language_from_request(request, check_path=False)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
