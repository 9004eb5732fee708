"""Reads of matches: who sits where, the match as a scoresheet and as a state, its
history, and who may score or manage it. Public reads need no permission."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from allfives import (
    AllFivesError,
    HandState,
    Layout,
    Move,
    Rules,
    points_json,
    side_of,
    sides_of,
    winner_json,
)
from allfives.chances import playing_off
from league.models import KnockoutTie, Round, Seat, Table
from league.selectors import (
    tables_visible_to,
    tournament_can_manage,
    tournament_can_score,
    tournaments_scored_by,
    user_is_superuser,
)
from league.selectors_public import TableLine, table_lines_for
from matches.models import (
    DeviceQueue,
    Hand,
    IdempotentRequest,
    Match,
    MatchSeat,
    TableLink,
    table_link_key_typed,
)

type AnyUser = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat and which side they play for."""

    number: int
    side: int
    player_id: int
    name: str
    slug: str


def table_rules(*, table: Table) -> dict[str, Any]:
    """The engine rules a table's match is played under: the rule set, with the
    table's own target for its player count (organisers may have changed it); at a
    knockout round's table under "one more hand", a tie is played off (``tie_break``)."""
    rule_set = table.round.tournament.effective_rule_set
    rules = rule_set.to_rules()
    targets = dict(rules.targets)
    targets[table.player_count] = table.target
    played_off = table.round.is_knockout and rule_set.knockout_tie == KnockoutTie.EXTRA_HAND
    return Rules(
        targets=targets,
        hand_sizes=dict(rules.hand_sizes),
        blocked_award=rules.blocked_award,
        time_limit=rules.time_limit,
        tie_break="extra_hand" if played_off else None,
    ).to_json()


def matches_visible_to(*, user: AnyUser) -> QuerySet[Match]:
    """Matches the user may read: at tables they may see (never a draft round's or a draft
    tournament's, to the public), and friendly matches."""
    if user_is_superuser(user=user):
        return Match.objects.all()
    return Match.objects.filter(
        Q(table__isnull=True) | Q(table__in=tables_visible_to(user=user).values("pk"))
    )


def match_get(*, match_id: int, user: AnyUser | None = None) -> Match:
    """One match; with ``user``, only if that user may read it (else DoesNotExist)."""
    qs = Match.objects if user is None else matches_visible_to(user=user)
    return qs.select_related("table__round__tournament", "tournament").get(pk=match_id)


def matches_list(
    *, user: AnyUser, tournament_id: int | None = None, status: str | None = None
) -> QuerySet[Match]:
    qs = matches_visible_to(user=user).select_related("table__round", "tournament").order_by("-id")
    if tournament_id is not None:
        qs = qs.filter(tournament_id=tournament_id)
    if status:
        qs = qs.filter(status=status)
    return qs


#: The player's public fields: a seat never loads contact details.
PUBLIC_PLAYER_FIELDS = ("player__name", "player__nickname", "player__slug")


def match_seats(*, match: Match) -> list[SeatInfo]:
    """The seats in order: the table's for a league match, the match's own for a friendly."""
    rows: list[Seat | MatchSeat]
    if match.table_id is not None:
        rows = list(
            Seat.objects.filter(table_id=match.table_id)
            .select_related("player")
            .only("number", "player", *PUBLIC_PLAYER_FIELDS)
        )
    else:
        rows = list(
            MatchSeat.objects.filter(match=match)
            .select_related("player")
            .only("number", "match", "player", *PUBLIC_PLAYER_FIELDS)
        )
    return [
        SeatInfo(
            number=row.number,
            side=side_of(row.number, match.player_count),
            player_id=row.player_id,
            name=str(row.player),
            slug=row.player.slug,
        )
        for row in sorted(rows, key=lambda r: r.number)
    ]


FORMAT = "allfives/1"


def scoresheet_document(
    *,
    players: int,
    rules: dict[str, Any],
    hands: list[dict[str, Any]],
    time_called_after: int | None = None,
) -> dict[str, Any]:
    """A docs/scoresheet.md document from its parts (``time_called_after``: R24)."""
    document = {"format": FORMAT, "players": players, "rules": dict(rules), "hands": list(hands)}
    if time_called_after is not None:
        document["time_called_after"] = time_called_after
    return document


def match_hands(*, match: Match) -> list[Hand]:
    return list(match.hands.order_by("number"))


def match_document(*, match: Match, hands: list[Hand] | None = None) -> dict[str, Any]:
    """The match as a docs/scoresheet.md document (each hand exactly as entered)."""
    if hands is None:
        hands = match_hands(match=match)
    return scoresheet_document(
        players=match.player_count,
        rules=match.rules,
        hands=[hand.entry for hand in hands],
        time_called_after=match.time_called_after,
    )


def _sides_json(values: dict[str, int]) -> dict[str, int | float]:
    return {side: points_json(int(points)) for side, points in sorted(values.items())}


def hand_state(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "mode": hand.mode,
        "entry": hand.entry,
        "leader": hand.leader,
        "end": hand.end,
        "hand_winner": hand.hand_winner,
        "points": _sides_json(hand.points_x2),
        "bonus": _sides_json(hand.bonus_x2),
        "totals": _sides_json(hand.totals_x2),
        "points_x2": hand.points_x2,
        "plays": hand.plays,
        "next_leader": hand.next_leader,
        "is_confirmed": hand.is_confirmed,
    }


def match_state(*, match: Match, hands: list[Hand] | None = None) -> dict[str, Any]:
    """Everything a scorekeeper's client needs, in one JSON object."""
    if hands is None:
        hands = match_hands(match=match)
    totals_x2 = {str(s): match.total_x2(s) for s in sides_of(match.player_count)}
    return {
        "id": match.pk,
        "version": match.version,
        "status": match.status,
        "table": match.table_id,
        "tournament": match.tournament_id,
        "players": match.player_count,
        "rules": match.rules,
        "target": match.target,
        "entry_mode": match.entry_mode,
        "requires_confirmation": match.requires_confirmation,
        "seats": [
            {"seat": s.number, "side": s.side, "player": s.player_id, "name": s.name}
            for s in match_seats(match=match)
        ],
        "totals": _sides_json(totals_x2),
        "totals_x2": totals_x2,
        # As the scoresheet verdict gives it: the side, or for a tie both sides' names.
        "winner": winner_json(match.winners),
        "is_tie": match.is_tie,
        "finished": match.status == Match.Status.FINISHED,
        "next_leader": match.next_leader,
        "hands_count": len(hands),
        "next_hand": len(hands) + 1,
        # The round clock (R24): the last hand once time is called, else null.
        "time_called_after": match.time_called_after,
        # A tie being played off one hand at a time (the rules' tie_break).
        "playing_off": match_playing_off(match=match),
        "hands": [hand_state(hand) for hand in hands],
    }


def match_history(*, match: Match) -> list[dict[str, Any]]:
    """Every change to the match's hands and status, oldest first: who (an account, or
    a table link), when, what, the hand's points per side before and after, and for a
    deleted hand whether it can still be restored (not put back already)."""
    changes: list[dict[str, Any]] = []
    hand_rows = list(
        Hand.history.filter(match_id=match.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    link_ids = {row.changed_via_id for row in hand_rows if row.changed_via_id}
    links = {
        link.pk: link for link in TableLink.objects.filter(pk__in=link_ids).select_related("table")
    }
    restored = [
        (row.number, row.entry)
        for row in hand_rows
        if row.history_type == "+" and row.history_change_reason == "restored"
    ]
    previous: dict[int, Any] = {}
    for row in hand_rows:
        before = previous.get(row.id)
        deleted = row.history_type == "-"
        changes.append(
            {
                "at": row.history_date,
                "user": row.history_user.get_username() if row.history_user else None,
                "link": links.get(row.changed_via_id) if row.changed_via_id else None,
                "object": "hand",
                "history_id": row.history_id,
                "hand": row.number,
                "action": {"+": "created", "~": "changed", "-": "deleted"}[row.history_type],
                "reason": row.history_change_reason or "",
                "before": None
                if before is None
                else {"number": before.number, "entry": before.entry},
                "after": None if deleted else {"number": row.number, "entry": row.entry},
                "points_before": dict(before.points_x2) if before is not None else None,
                "points_after": dict(row.points_x2),
                "restorable": deleted and (row.number, row.entry) not in restored,
            }
        )
        previous[row.id] = row
    for row in (
        Match.history.filter(id=match.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    ):
        if row.history_change_reason:
            # A hand's write that starts or ends the match is made by whoever wrote the
            # hand: through a table link, the match's own row knows no one.
            written = [
                hand
                for hand in hand_rows
                if hand.history_date <= row.history_date
                and hand.history_change_reason == row.history_change_reason
            ]
            via = written[-1].changed_via_id if written and not row.history_user else None
            changes.append(
                {
                    "at": row.history_date,
                    "user": row.history_user.get_username() if row.history_user else None,
                    "link": links.get(via) if via else None,
                    "object": "match",
                    "history_id": row.history_id,
                    "hand": None,
                    "action": row.history_change_reason,
                    "reason": row.history_change_reason,
                    "before": None,
                    "after": {"status": row.status, "version": row.version},
                    "points_before": None,
                    "points_after": None,
                    "restorable": False,
                }
            )
    changes.sort(key=lambda c: c["at"])
    return changes


@dataclass(slots=True)
class TilesDraft:
    """A tile-by-tile hand being entered: the layout so far, whose turn it is, what
    each side has scored in it, and the engine's objection to a move, if any."""

    layout: Layout
    turn: int | None
    end: str | None
    held: list[int]
    points: dict[str, int]
    error: AllFivesError | None = None
    target_reached: bool = False


def clock_hands_left(*, match: Match, played: int) -> int | None:
    """How many more hands the called clock let the match play after ``played`` hands
    (R24: the hand in play when time was called is the last); None while the clock had
    not been called then."""
    called = match.time_called_after
    if called is None or played < called - 1:
        return None
    return max(0, called - played)


def match_playing_off(*, match: Match) -> bool:
    """Whether a tied match is being played off (``tie_break``, docs/rules.md), as the
    engine judges it from the stored totals and the called clock (``playing_off``): no
    play of such a hand reaches the target."""
    if match.winners:
        return False
    totals = [match.total_x2(side) for side in sides_of(match.player_count)]
    left = clock_hands_left(match=match, played=match.hands_count)
    return playing_off(Rules.from_json(match.rules), match.player_count, totals, left)


def tiles_draft(*, match: Match, leader: int, moves: list[dict[str, Any]]) -> TilesDraft:
    """Replay a hand in progress move by move (no deal: faces may be unseen)."""
    players = match.player_count
    rules = Rules.from_json(match.rules)
    state = HandState(players, leader, rules=rules)
    points = {str(s): 0 for s in sides_of(players)}
    error = None
    reached = False
    playing_off = match_playing_off(match=match)
    for index, raw in enumerate(moves):
        if reached:
            error = AllFivesError("match_over").located(move=index)
            break
        try:
            move = Move.parse(raw)
            scored = state.apply(move)
        except AllFivesError as exc:
            error = exc.located(move=index)
            break
        if scored:
            side = str(side_of(move.seat, players))
            points[side] += scored
            reached = (
                not playing_off and match.total_x2(int(side)) + 2 * points[side] >= 2 * match.target
            )
    return TilesDraft(
        layout=state.layout,
        turn=None if reached else state.turn,
        end="target" if reached else state.end,
        held=[state.held_count(seat) for seat in range(players)],
        points=points,
        error=error,
        target_reached=reached,
    )


# --- Who may score and manage ---------------------------------------------------------
# Each question has one function here; the pages, the API, the admin and the services
# ask these (the policy module answers them once it exists).


def round_is_scorable(*, round: Round) -> bool:
    """Only a published round's tables are scored: a draft may still be re-paired, a
    finished round is closed."""
    return round.status == Round.Status.PUBLISHED


def match_can_score(*, user: AnyUser, match: Match) -> bool:
    """Scorekeepers and organisers of the tournament while the table's round is published;
    a friendly's creator."""
    if not user.is_authenticated or not user.is_active:
        return False
    if match.tournament_id is not None:
        assert match.table is not None
        return round_is_scorable(round=match.table.round) and tournament_can_score(
            user=user, tournament_id=match.tournament_id
        )
    return user_is_superuser(user=user) or match.created_by_id == user.pk


def table_can_score(*, user: AnyUser, table: Table) -> bool:
    """Whether the user may score the match of a league table (its round published)."""
    return round_is_scorable(round=table.round) and tournament_can_score(
        user=user, tournament_id=table.round.tournament_id
    )


def tables_scorable_by(*, user: AnyUser) -> QuerySet[Table]:
    """The tables the user may score: those of published rounds of their tournaments."""
    return Table.objects.filter(
        round__status=Round.Status.PUBLISHED,
        round__tournament__in=tournaments_scored_by(user=user).values("pk"),
    )


def my_tables(*, user: AnyUser) -> list[TableLine]:
    """The tables a scorekeeper may score, shaped as the league's pages show tables
    (sides, status, live score), tournament by tournament and round by round."""
    return table_lines_for(tables=tables_scorable_by(user=user))


def round_can_print_links(*, user: AnyUser, round: Round) -> bool:
    """Organisers of the tournament print (and reissue) a published round's table links."""
    return round_is_scorable(round=round) and tournament_can_manage(
        user=user, tournament_id=round.tournament_id
    )


def table_links_missing(*, user: AnyUser, table_id: int) -> Table | None:
    """The table, when none of its links works and the user may print its card with
    links (which issues them); otherwise None."""
    table = Table.objects.select_related("round__tournament").filter(pk=table_id).first()
    if table is None or table.links.filter(revoked_at__isnull=True).exists():
        return None
    return table if round_can_print_links(user=user, round=table.round) else None


def match_can_manage(*, user: AnyUser, match: Match) -> bool:
    """Organisers of the tournament (they alone reopen a finished match); a friendly's creator."""
    if not user.is_authenticated or not user.is_active:
        return False
    if match.tournament_id is not None:
        return tournament_can_manage(user=user, tournament_id=match.tournament_id)
    return user_is_superuser(user=user) or match.created_by_id == user.pk


def round_tables_with_hands(round: Round) -> list[int]:
    """The numbers of the round's tables whose match has a hand recorded (the league's
    recorded-play hook, which keeps re-pairing from deleting them)."""
    return list(
        Table.objects.filter(round=round, match__hands__isnull=False)
        .values_list("number", flat=True)
        .distinct()
    )


def table_link_get(*, key: str) -> TableLink | None:
    """The table link with this key, as issued or as typed from a card
    (:func:`~matches.models.table_link_key_typed`), revoked ones too (their page says
    so), or None."""
    links = TableLink.objects.select_related("table__round__tournament")
    found = links.filter(key=key).first()
    meant = table_link_key_typed(key)
    return found if found is not None or meant == key else links.filter(key=meant).first()


def table_link_names(*, link: TableLink) -> str:
    """The players of the link's side, as the history names them ("Budi & Siti")."""
    players = link.table.player_count
    seats = Seat.objects.filter(table_id=link.table_id).select_related("player")
    return " & ".join(
        str(seat.player) for seat in seats if side_of(seat.number, players) == link.side
    )


def table_link_label(*, link: TableLink) -> str:
    """Who scores through a link, for people: "table 3, side 1: Budi & Siti"."""
    side = sides_of(link.table.player_count).index(link.side) + 1
    return _("table %(table)d, side %(side)d: %(names)s") % {
        "table": link.table.number,
        "side": side,
        "names": table_link_names(link=link),
    }


def tables_disputed(*, table_ids: list[int]) -> set[int]:
    """Which of these tables have a hand the other side disputed (flagged for organisers)."""
    return set(
        Hand.objects.filter(match__table_id__in=table_ids, disputed_at__isnull=False).values_list(
            "match__table_id", flat=True
        )
    )


def idempotent_request_get(*, key: str, user_id: int, endpoint: str) -> IdempotentRequest | None:
    return IdempotentRequest.objects.filter(key=key, user_id=user_id, endpoint=endpoint).first()


@dataclass(frozen=True)
class TableOffline:
    """A table whose scoring device holds hands it could not send yet."""

    table_id: int
    since: datetime | None  # when the oldest waiting hand was entered
    queued_count: int
    reported_at: datetime


def tables_offline(*, table_ids: Sequence[int]) -> dict[int, TableOffline]:
    """The tables (by id) whose device last reported hands waiting to be sent: how
    many, and offline since when (the organiser's "offline since 14.02")."""
    found: dict[int, TableOffline] = {}
    reports = (
        DeviceQueue.objects.filter(match__table_id__in=list(table_ids), queued_count__gt=0)
        .select_related("match")
        .order_by("reported_at")
    )
    for report in reports:
        table_id = report.match.table_id
        if table_id is None:
            continue
        before = found.get(table_id)
        since = report.offline_since
        if before is not None and before.since is not None:
            since = before.since if since is None else min(since, before.since)
        found[table_id] = TableOffline(
            table_id=table_id,
            since=since,
            queued_count=report.queued_count + (before.queued_count if before else 0),
            reported_at=report.reported_at,
        )
    return found
