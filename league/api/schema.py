"""The OpenAPI side of the API: the error envelope and the schema class that documents it.

Every operation of every app's API documents its error responses with one shared
``ErrorEnvelope`` component, added by ``AutoSchema`` (the project's
``DEFAULT_SCHEMA_CLASS``), so views need not repeat them. A view that returns an error
status not in the defaults lists it with ``@extend_schema(responses={...,
409: ERROR_RESPONSES[409]})``. ``league.api.errors.api_exception_handler`` produces
this shape for every 4xx.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy as _
from drf_spectacular.contrib.django_filters import DjangoFilterExtension
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import get_doc
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory


class ErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text=_("A stable identifier, e.g. not_found, invalid."))
    message = serializers.CharField(
        help_text=_("A sentence for people, in the request's language.")
    )
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text=_("Validation errors per field (400 only).")
    )
    field_codes = serializers.DictField(
        required=False,
        help_text=_("Error codes per field, as fields (400 only); non_field_errors for others."),
    )
    hand = serializers.IntegerField(
        required=False, allow_null=True, help_text=_("Rule errors: the hand (0-based).")
    )
    move = serializers.IntegerField(
        required=False, allow_null=True, help_text=_("Rule errors: the move (0-based).")
    )
    rule = serializers.CharField(
        required=False, allow_null=True, help_text=_("Rule errors: the docs/rules.md number.")
    )


class ErrorEnvelopeSerializer(serializers.Serializer[Any]):
    """``{"ok": false, "error": {...}}``: the body of every 4xx response."""

    ok = serializers.BooleanField(help_text=_("Always false."))
    error = ErrorSerializer()


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=ErrorEnvelopeSerializer, description=description)


ERROR_RESPONSES: dict[int, OpenApiResponse] = {
    400: _error("Invalid input: validation or rule error."),
    401: _error("Not authenticated, or a bad token."),
    403: _error("Authenticated, but not allowed (or a missing CSRF token)."),
    404: _error("Not found, or not visible to the caller."),
    405: _error("Method not allowed."),
    406: _error("The Accept header asks for a format the endpoint does not serve."),
    409: _error("Conflict with the current state (stale version, protected row)."),
    413: _error("Request body too large."),
    415: _error("Unsupported media type: send JSON."),
    429: _error("Too many requests: throttled."),
    503: _error("The database is not answering; try again after Retry-After seconds."),
}
READ_ERRORS = (400, 401, 403, 404, 405, 406, 429, 503)
WRITE_ERRORS = (*READ_ERRORS, 409, 413, 415)


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's schema with the error envelope documented on every operation."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        codes = WRITE_ERRORS if self.method in ("POST", "PUT", "PATCH", "DELETE") else READ_ERRORS
        for code in codes:
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(  # type: ignore[no-untyped-call]
                    ERROR_RESPONSES[code], str(code), ["application/json"], direction
                )
        return responses

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        # A body the serializer refuses extra fields in (``unknown_field``) says so, so
        # that clients and schema-driven tests do not think extras are welcome.
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)  # type: ignore[no-untyped-call]
        if direction == "request" and getattr(serializer, "refuses_unknown_fields", False):
            schema["additionalProperties"] = False
        return schema

    def get_auth(self) -> list[dict[str, Any]]:
        # A read the public may make needs no credentials: say so with the empty
        # requirement, as OpenAPI does, unless the view refuses anonymous callers itself
        # (``anonymous_reads = False``, e.g. a match's history).
        auths: list[dict[str, Any]] = [a for a in super().get_auth() if a]
        if (
            self.method in SAFE_METHODS
            and getattr(self.view, "anonymous_reads", True)
            and self._anonymous_may_call()
        ):
            auths.append({})
        return auths

    def _anonymous_may_call(self) -> bool:
        request = APIRequestFactory().get(self.path)
        request.user = AnonymousUser()
        drf_request = Request(request)
        drf_request.user = AnonymousUser()
        try:
            return all(
                p.has_permission(drf_request, self.view) for p in self.view.get_permissions()
            )
        except Exception:  # a permission that needs more of the request: assume not
            return False

    def get_operation_id(self) -> str:
        # A plain APIView answering GET on a collection path (no trailing {id}) lists;
        # naming it "list" keeps it apart from the item's "retrieve".
        operation_id = str(super().get_operation_id())
        action = getattr(self.view, "action", None)
        if (
            self.method == "GET"
            and not isinstance(action, str)
            and operation_id.endswith("_retrieve")
            and not self.path.rstrip("/").endswith("}")
        ):
            operation_id = operation_id.removesuffix("_retrieve") + "_list"
        return operation_id

    def get_description(self) -> str:  # type: ignore[override]
        # drf-spectacular reads ``view.action`` as a viewset action name; a plain APIView
        # may hold something else under that name (a service function), so fall back to
        # the method's or the view's docstring there.
        action = getattr(self.view, "action", None)
        if action is None or isinstance(action, str):
            return str(super().get_description())
        method = getattr(self.view, self.method.lower(), None)
        return get_doc(method) or get_doc(self.view.__class__)


class ApiTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "league.api.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": str(
                _('A key from "API tokens", sent as "Token <key>" (or "Bearer <key>").')
            ),
        }


class BoundedFilterExtension(DjangoFilterExtension):  # type: ignore[no-untyped-call]
    """django-filter's query parameters with the limits their form fields enforce
    (``min_value``, ``max_value``, ``max_length``): a value the server refuses with 400
    is one the schema calls invalid, and every value it calls valid is accepted."""

    priority = 1  # before drf-spectacular's own extension for the same backend

    def resolve_filter_field(
        self, auto_schema: Any, model: Any, filterset_class: Any, field_name: str, filter_field: Any
    ) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().resolve_filter_field(  # type: ignore[no-untyped-call]
            auto_schema, model, filterset_class, field_name, filter_field
        )
        limits = {"min_value": "minimum", "max_value": "maximum", "max_length": "maxLength"}
        for parameter in parameters:
            schema = parameter["schema"]
            schema.pop("nullable", None)  # a query string cannot send null
            if schema.get("type") == "string" and "enum" not in schema:
                schema["minLength"] = 1  # an empty filter is refused (league.api.filters)
            for option, keyword in limits.items():
                if filter_field.extra.get(option) is not None:
                    schema[keyword] = filter_field.extra[option]
        return parameters
