"""The REST API's shared pieces, used by every app's API, and the league's own endpoints.

Shared (every app's API and ``config/settings`` use these): ``errors`` (the one error
envelope and its exception handler; apps register renderers for their own refusals),
``pagination``, ``parsers`` (size-limited JSON), ``authentication`` (API tokens),
``permissions`` (roles per tournament, asked of the policy selectors) and ``schema``
(the OpenAPI error components). The league's own endpoints: ``serializers``,
``filters``, ``views`` and ``urls`` (players, partnerships, seasons, rule sets,
tournaments, entries, rounds, tables).
"""
