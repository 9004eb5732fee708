"""Pagination of every list: ``?page=N`` and ``?page_size=N`` (at most 200).

Both are whole numbers from 1. Anything else (``page_size=false``, ``page=0``, an empty
value) is refused with 400 in the error envelope rather than quietly replaced by the
default, so that a client's typo shows. A page size above the cap is not an error: the
page holds the cap, and ``next`` leads on (the schema says so and declares no maximum).
A page past the last is 404, as DRF answers.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


def _whole_number(request: Request, name: str) -> int | None:
    """The parameter as an int of 1 or more, None when absent; 400 for anything else."""
    if name not in request.query_params:
        return None
    raw = request.query_params[name]
    if raw.isascii() and raw.isdigit():
        # Past 18 digits every page size is the cap and every page is past the last;
        # parsing thousands of digits would only cost time (or raise).
        number = int(raw) if len(raw) <= 18 else 10**18
        if number >= 1:
            return number
    raise exceptions.ValidationError(
        {name: [_("Enter a whole number of 1 or more.")]}, code="invalid"
    )


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    last_page_strings = ()  # the schema says page is a number; "last" would be a second form

    def get_page_size(self, request: Request) -> int:
        asked = _whole_number(request, self.page_size_query_param)
        return self.page_size if asked is None else min(asked, self.max_page_size)

    def get_page_number(self, request: Request, paginator: Any) -> int:
        return _whole_number(request, self.page_query_param) or 1

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["description"] = str(
                    _("Results per page (%(default)d if not given); above %(cap)d, %(cap)d.")
                    % {"default": self.page_size, "cap": self.max_page_size}
                )
        return parameters
