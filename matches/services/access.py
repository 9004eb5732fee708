"""Who may write to a match, asked by every write service before it changes anything.

A league match is written only while its table's round is published (a draft may still
be re-paired, a finished round is closed): the refusal says which, in the user's
language. Then the writer must be allowed to score it (``matches.selectors``).
``user=None`` is the system (the demo command, imports), which the rules alone judge.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from league.models import ResultKind, Round, TableResult
from matches.models import Match, TableLink
from matches.selectors import match_can_score, round_is_scorable
from matches.services.links import table_link_check
from matches.services.verdicts import AnyUser


def round_scorable_require(*, round: Round) -> None:
    """Refuse to score a table of a round that is not published."""
    if round_is_scorable(round=round):
        return
    if round.status == Round.Status.DRAFT:
        raise ValidationError(
            _(
                "Round %(n)d is still a draft: its tables can be scored once the organiser "
                "publishes it."
            )
            % {"n": round.number},
            code="round_not_published",
        )
    raise ValidationError(
        _("Round %(n)d is closed: its tables can no longer be scored.") % {"n": round.number},
        code="round_closed",
    )


def scorer_require(*, match: Match, user: AnyUser, link: TableLink | None = None) -> None:
    """Refuse a write by someone who may not score the match, or to a closed table. With
    a table ``link``, the link decides (whoever holds it scores that table)."""
    if match.table_id is not None:
        result_kind = (
            TableResult.objects.filter(table_id=match.table_id)
            .values_list("kind", flat=True)
            .first()
        )
        if result_kind is not None and result_kind != ResultKind.PLAYED:
            raise ValidationError(
                _(
                    "This table's result was recorded by the organiser without hands; "
                    "there is nothing to score."
                ),
                code="result_without_hands",
            )
    if link is not None:
        table_link_check(link=link, match=match)
        return
    if user is None:
        return
    if match.table_id is not None:
        assert match.table is not None
        round_scorable_require(round=match.table.round)
    if not match_can_score(user=user, match=match):
        raise PermissionDenied(_("You may not score this match."))
