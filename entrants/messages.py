"""What players are told of a published round: the mail naming their table and seat,
and the WhatsApp text per table that the organiser sends (with its ``wa.me`` share link).

Seats count from 1 and people are named, as on every page people see.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from django.utils import translation
from django.utils.translation import gettext as _

from allfives import side_of
from league.models import Round, Seat, Table


@dataclass(frozen=True, slots=True)
class TableText:
    table_number: int
    text: str
    players: tuple[str, ...]

    @property
    def share_url(self) -> str:
        """A ``wa.me`` link that opens WhatsApp with the text ready to send."""
        return f"https://wa.me/?text={quote(self.text)}"


def _seat_line(seat: Seat) -> str:
    return _("Seat %(seat)d: %(name)s") % {"seat": seat.number + 1, "name": seat.player}


def table_text(*, table: Table) -> TableText:
    """The WhatsApp text of one table: the round, the table, every player by seat."""
    round = table.round
    seats = list(table.seats.all())
    lines = [
        _("%(tournament)s, round %(round)d — table %(table)d")
        % {"tournament": round.tournament.name, "round": round.number, "table": table.number}
    ]
    if table.player_count == 4:
        for side in (0, 1):
            names = " & ".join(
                str(s.player) for s in seats if side_of(s.number, table.player_count) == side
            )
            lines.append(_("Side %(side)d: %(names)s") % {"side": side + 1, "names": names})
    lines.extend(_seat_line(s) for s in seats)
    lines.append(_("Target: %(target)d points") % {"target": table.target})
    return TableText(
        table_number=table.number,
        text="\n".join(lines),
        players=tuple(str(s.player) for s in seats),
    )


def round_texts(*, round: Round) -> list[TableText]:
    """Every table's WhatsApp text, table by table."""
    tables = round.tables.select_related("round__tournament").prefetch_related("seats__player")
    return [table_text(table=t) for t in tables.order_by("number")]


def seat_mail(*, seat: Seat, language: str) -> tuple[str, str]:
    """The subject and body of the mail that tells a player their table and seat."""
    table = seat.table
    round = table.round
    with translation.override(language):
        subject = _("%(tournament)s, round %(round)d: table %(table)d, seat %(seat)d") % {
            "tournament": round.tournament.name,
            "round": round.number,
            "table": table.number,
            "seat": seat.number + 1,
        }
        others = [s for s in table.seats.all() if s.pk != seat.pk]
        lines = [
            _("Hello %(name)s,") % {"name": seat.player},
            "",
            _(
                "Round %(round)d of %(tournament)s is out. "
                "You play at table %(table)d, seat %(seat)d."
            )
            % {
                "round": round.number,
                "tournament": round.tournament.name,
                "table": table.number,
                "seat": seat.number + 1,
            },
            "",
            _("At your table:"),
            *(f"- {_seat_line(s)}" for s in others),
            "",
            _("Your player link shows your table and the scoring link."),
        ]
        return subject, "\n".join(lines)
