"""Tables' private scoring links: issued per side when a round's cards are printed,
revoked and reissued by the organiser, and checked each time one is used.

Like Tabbycat's private URLs, a link stands in for an account: whoever holds side 1's
link scores that table as side 1 (the history names the table and side), and may
confirm the other side's hands, never its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from allfives import sides_of
from league.models import Round, Table
from matches.models import Match, TableLink, table_link_key_new
from matches.selectors import round_can_print_links
from matches.services.verdicts import AnyUser


def _organiser_require(user: AnyUser, round: Round) -> None:
    if user is not None and not round_can_print_links(user=user, round=round):
        raise PermissionDenied(
            _("Only an organiser of the tournament may hand out a published round's table links.")
        )


def _issue(table: Table, side: int) -> TableLink:
    return TableLink.objects.create(table=table, side=side, key=table_link_key_new())


@transaction.atomic
def table_links_issue(*, table: Table, user: AnyUser) -> list[TableLink]:
    """The table's active link for each side, issuing the missing ones."""
    _organiser_require(user, table.round)
    active = {link.side: link for link in table.links.filter(revoked_at__isnull=True)}
    return [
        active[side] if side in active else _issue(table, side)
        for side in sides_of(table.player_count)
    ]


@transaction.atomic
def round_links_issue(*, round: Round, user: AnyUser) -> dict[int, list[TableLink]]:
    """Every table's links for a published round, by table id (what its cards print)."""
    _organiser_require(user, round)
    return {
        table.pk: table_links_issue(table=table, user=None)
        for table in round.tables.order_by("number")
    }


@transaction.atomic
def table_links_revoke(*, links: Sequence[TableLink], user: AnyUser) -> int:
    """Revoke links (a lost or shared card): they stop working at once. Returns how many."""
    count = 0
    for link in links:
        _organiser_require(user, link.table.round)
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
            count += 1
    return count


@transaction.atomic
def table_links_reissue(*, table: Table, user: AnyUser) -> list[TableLink]:
    """Revoke the table's active links and issue new ones (print the card again)."""
    _organiser_require(user, table.round)
    table_links_revoke(links=list(table.links.filter(revoked_at__isnull=True)), user=None)
    return table_links_issue(table=table, user=None)


def table_link_check(*, link: TableLink, match: Match | None = None) -> None:
    """Refuse a link that no longer opens its table, saying why in the user's language:
    revoked, its round not published (a draft, or closed), or its match finished."""
    if link.revoked_at is not None:
        raise ValidationError(
            _(
                "This table link was withdrawn by the organiser. Ask them for the table's "
                "new card or code."
            ),
            code="link_revoked",
        )
    round = link.table.round
    if round.status == Round.Status.DRAFT:
        raise ValidationError(
            _("Round %(n)d is not published yet: this link works once it is.")
            % {"n": round.number},
            code="round_not_published",
        )
    if round.status == Round.Status.FINISHED:
        raise ValidationError(
            _("Round %(n)d is closed: its table links no longer open a scoring page.")
            % {"n": round.number},
            code="round_closed",
        )
    if match is not None and match.table_id != link.table_id:
        raise PermissionDenied(_("This link belongs to another table."))
    if match is not None and match.status == Match.Status.FINISHED:
        raise ValidationError(
            _(
                "The match at table %(n)d is finished: its result is recorded. Only an "
                "organiser can reopen it for corrections."
            )
            % {"n": link.table.number},
            code="match_finished",
        )
