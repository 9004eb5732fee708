"""``{% table_offline_note table_id %}``: on the organiser's table lists, a table whose
phone holds hands it could not send yet, as "offline since 14.02" (``tables_offline``)."""

from __future__ import annotations

from typing import Any

from django import template

from matches.selectors import tables_offline

register = template.Library()


@register.inclusion_tag("matches/includes/table_offline.html")
def table_offline_note(table_id: Any, found: Any = None) -> dict[str, Any]:
    """`found`: the page's ``tables_offline`` for all its tables (one query, not one each)."""
    if not isinstance(table_id, int):
        return {"offline": None}
    if found is None:
        found = tables_offline(table_ids=[table_id])
    return {"offline": found.get(table_id)}
