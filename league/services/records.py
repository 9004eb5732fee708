"""Plain creates, edits and deletes of league rows (the API's create/update/delete).

Rows with no rule beyond their fields and constraints (rule sets, seasons,
divisions, tournament settings, an entry's seed) are written here: the values are
checked with the model's own validation (``full_clean``) before saving, slugs are
derived from names, and deletions that would break the record (a round that was
published, a seated entry) are refused with a message for people. Rules with more
to them live in their own services (``registration``, ``rounds``, ``results``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from league.hooks import tournament_ranking_changed
from league.models import Entry, Round, Table, Tournament
from league.services.clubs import ownership_check
from league.services.rounds import round_kept_check, tournament_finish_check

M = TypeVar("M", bound=models.Model)


def _split_m2m(model: type[models.Model], fields: Mapping[str, Any]) -> tuple[dict, dict]:  # type: ignore[type-arg]
    m2m_names = {f.name for f in model._meta.many_to_many}
    plain = {k: v for k, v in fields.items() if k not in m2m_names}
    m2m = {k: v for k, v in fields.items() if k in m2m_names}
    return plain, m2m


def _unique_slug(model: type[models.Model], base: str, *, exclude_pk: Any = None) -> str:
    field = model._meta.get_field("slug")
    max_length = int(getattr(field, "max_length", None) or 50)
    root = (slugify(base) or model._meta.model_name or "x")[: max_length - 8]
    slug, n = root, 1
    qs = model._default_manager.all()
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    while qs.filter(slug=slug).exists():
        n += 1
        slug = f"{root}-{n}"
    return slug


@transaction.atomic
def record_create[M: models.Model](*, model: type[M], fields: Mapping[str, Any]) -> M:
    """Create a row from validated values; a missing slug is derived from the name."""
    plain, m2m = _split_m2m(model, fields)
    instance = model(**plain)
    if hasattr(instance, "slug") and not getattr(instance, "slug", ""):
        instance.slug = _unique_slug(model, str(plain.get("name", "")))
    ownership_check(instance=instance)
    instance.full_clean()
    instance.save()
    for name, values in m2m.items():
        getattr(instance, name).set(values)
    return instance


@transaction.atomic
def record_update[M: models.Model](*, instance: M, fields: Mapping[str, Any]) -> M:
    """Change the given fields of a row after checking the whole row."""
    plain, m2m = _split_m2m(type(instance), fields)
    for name, value in plain.items():
        setattr(instance, name, value)
    ownership_check(instance=instance)
    instance.full_clean()
    instance.save()
    for name, values in m2m.items():
        getattr(instance, name).set(values)
    return instance


def record_delete(*, instance: models.Model) -> None:
    """Delete a row; a row others still point at is refused (``ProtectedError``)."""
    instance.delete()


@transaction.atomic
def tournament_create(*, created_by: Any, fields: Mapping[str, Any]) -> Tournament:
    """A new tournament, organised by whoever created it."""
    tournament = record_create(model=Tournament, fields=fields)
    tournament.organisers.add(created_by)
    return tournament


#: The settings that rank a tournament's entries: changing one re-ranks its standings.
RANKING_FIELDS = (
    "points_win",
    "points_tie",
    "points_loss",
    "placing_points_3",
    "points_bye",
    "tiebreaks",
    "format",
    "season",
    "division",
)


@transaction.atomic
def tournament_update(*, tournament: Tournament, fields: Mapping[str, Any]) -> Tournament:
    """Change a tournament's settings; when what ranks its entries changes (points, the
    tiebreak order), its standings are marked for a refresh in the same transaction. It is
    marked finished only once every round is closed (``tournament_finish_check``)."""
    stored = (
        Tournament.objects.filter(pk=tournament.pk).values(*RANKING_FIELDS, "status").first() or {}
    )
    if (
        fields.get("status") == Tournament.Status.FINISHED
        and stored.get("status") != Tournament.Status.FINISHED
    ):
        tournament_finish_check(tournament=tournament)
    saved = record_update(instance=tournament, fields=fields)
    if any(
        stored.get(name) != getattr(saved, f"{name}_id" if name in ("season", "division") else name)
        for name in RANKING_FIELDS
    ):
        tournament_ranking_changed(tournament_id=saved.pk)
    return saved


def round_delete(*, round: Round) -> None:
    """Delete a round that was never published (its draft tables go with it)."""
    if round.status != Round.Status.DRAFT:
        raise ValidationError(_("Only a draft round can be deleted."), code="not_draft")
    round_kept_check(round)
    with transaction.atomic():
        Table.objects.filter(round=round).delete()
        round.delete()


def table_delete(*, table: Table) -> None:
    """Delete a table of a draft round."""
    if table.round.status != Round.Status.DRAFT:
        raise ValidationError(
            _("Tables of a published round cannot be deleted."), code="round_published"
        )
    round_kept_check(table.round)
    table.delete()


def entry_delete(*, entry: Entry) -> None:
    """Remove an entry that was never seated (a seated entry is withdrawn instead)."""
    if entry.seats.exists():
        raise ValidationError(
            _("%(who)s has played: withdraw the entry instead.") % {"who": entry},
            code="entry_seated",
        )
    entry.delete()
