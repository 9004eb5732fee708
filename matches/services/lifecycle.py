"""A match's life: created for a table (or as a friendly), started, finished,
reopened by an organiser, its entry mode switched, or imported whole from a
scoresheet document (the demo data and ``POST …/scoresheet``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Field
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from allfives import FORMAT, AllFivesError, Rules, format_check
from league.models import (
    PLAYER_COUNTS,
    BlockedAward,
    EntryMode,
    KnockoutTie,
    Player,
    RuleSet,
    Table,
)
from league.services.results import table_result_clear, table_status_set
from matches.models import Hand, Match, MatchSeat, TableLink
from matches.selectors import match_can_manage, match_hands, match_playing_off, table_rules
from matches.services.access import scorer_require
from matches.services.concurrency import match_lock
from matches.services.verdicts import (
    AnyUser,
    match_judge,
    match_mark_finished,
    match_mark_playing,
    match_save,
    user_or_none,
    verdict_store,
)


def _require(allowed: bool, message: str) -> None:
    if not allowed:
        raise PermissionDenied(message)


def match_for_table(*, table: Table) -> Match:
    """The table's match, created on first use with the table's rules and target."""
    existing = Match.objects.filter(table=table).first()
    if existing is not None:
        return existing
    tournament = table.round.tournament
    try:
        with transaction.atomic():
            return Match.objects.create(
                table=table,
                tournament=tournament,
                player_count=table.player_count,
                rules=table_rules(table=table),
                target=table.target,
                entry_mode=tournament.entry_mode,
                requires_confirmation=tournament.requires_confirmation,
            )
    except IntegrityError:  # created concurrently by another request
        return Match.objects.get(table=table)


@transaction.atomic
def match_friendly_create(
    *,
    players: Sequence[Player],
    rule_set: RuleSet,
    user: AnyUser,
    entry_mode: str = EntryMode.TALLY,
    target: int | None = None,
) -> Match:
    """A friendly match between registered players, seated in the order given."""
    count = len(players)
    if not 2 <= count <= 4:
        raise ValidationError(
            _("A match is played by 2, 3 or 4 players, not %(n)d.") % {"n": count},
            code="bad_players",
        )
    if len({p.pk for p in players}) != count:
        raise ValidationError(_("A player can sit at only one seat."), code="player_twice")
    if entry_mode not in EntryMode.values:
        raise ValidationError(_("Unknown entry mode."), code="bad_entry_mode")
    base = rule_set.to_rules()
    targets = dict(base.targets)
    if target is not None:
        if target <= 0:
            raise ValidationError(_("The target must be positive."), code="bad_target")
        targets[count] = target
    rules = Rules(
        targets=targets, hand_sizes=dict(base.hand_sizes), blocked_award=base.blocked_award
    )
    match = Match.objects.create(
        rule_set=rule_set,
        player_count=count,
        rules=rules.to_json(),
        target=rules.target(count),
        entry_mode=entry_mode,
        created_by=user_or_none(user),
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, number=number, player=player)
        for number, player in enumerate(players)
    )
    return match


@transaction.atomic
def match_start(*, match: Match, version: int, user: AnyUser) -> Match:
    """Mark the match as being played (recording its first hand does this too)."""
    if user is not None:
        scorer_require(match=match, user=user)
    locked = match_lock(match_id=match.pk, version=version)
    if locked.status != Match.Status.SCHEDULED:
        raise ValidationError(_("The match has already started."), code="already_started")
    match_mark_playing(match=locked)
    match_save(match=locked, user=user, reason="started")
    return locked


@transaction.atomic
def match_mode_set(
    *,
    match: Match,
    entry_mode: str,
    version: int,
    user: AnyUser,
    link: TableLink | None = None,
) -> Match:
    """Switch how the next hands are entered: tally or tile by tile."""
    scorer_require(match=match, user=user, link=link)
    if entry_mode not in EntryMode.values:
        raise ValidationError(_("Unknown entry mode."), code="bad_entry_mode")
    locked = match_lock(match_id=match.pk, version=version)
    locked.entry_mode = entry_mode
    match_save(match=locked, user=user, reason="entry mode")
    return locked


@transaction.atomic
def match_reopen(*, match: Match, version: int, user: AnyUser) -> Match:
    """Reopen a finished match for corrections; only an organiser may."""
    if user is not None:
        _require(
            match_can_manage(user=user, match=match),
            _("Only an organiser of the tournament may reopen a finished match."),
        )
    locked = match_lock(match_id=match.pk, version=version)
    if locked.status != Match.Status.FINISHED:
        raise ValidationError(_("The match is not finished."), code="not_finished")
    locked.status, locked.finished_at = Match.Status.PLAYING, None
    if locked.table_id is not None:
        table_result_clear(table_id=locked.table_id)
    match_save(match=locked, user=user, reason="reopened")
    return locked


@transaction.atomic
def match_finish(
    *, match: Match, version: int, user: AnyUser, link: TableLink | None = None
) -> Match:
    """Finish a match the engine says is over (after a reopen left it unchanged)."""
    scorer_require(match=match, user=user, link=link)
    locked = match_lock(match_id=match.pk, version=version)
    if locked.status == Match.Status.FINISHED:
        raise ValidationError(_("The match is already finished."), code="match_finished")
    rows = match_hands(match=locked)
    verdict = match_judge(match=locked, entries=[row.entry for row in rows])
    if not verdict.finished and match_playing_off(match=locked):
        raise ValidationError(
            _("The match is tied and being played off: one more hand decides it."),
            code="match_not_over",
        )
    if not verdict.finished:
        raise ValidationError(
            _("No side has reached the target of %(target)d yet.") % {"target": locked.target},
            code="match_not_over",
        )
    if locked.requires_confirmation and any(row.confirmed_at is None for row in rows):
        raise ValidationError(
            _("Every hand must be confirmed by the opponents first."), code="hand_unconfirmed"
        )
    match_mark_finished(match=locked)
    match_save(match=locked, user=user, reason="finished")
    return locked


def _rules_worded(rules: Rules) -> dict[str, str]:
    """A rule set's rules, in order, each named as the rule set's page names it
    (``RuleSet``'s fields) and its value as that page words it."""

    def name(field: str) -> str:
        found = RuleSet._meta.get_field(field)
        assert isinstance(found, Field)
        return str(found.verbose_name)

    worded = {name(f"target_{n}"): str(rules.targets[n]) for n in PLAYER_COUNTS}
    worded |= {name(f"hand_size_{n}"): str(rules.hand_sizes[n]) for n in PLAYER_COUNTS}
    worded[name("blocked_award")] = f"“{BlockedAward(rules.blocked_award).label}”"
    worded[name("time_limit")] = (
        pgettext("a rule's value", "none") if rules.time_limit is None else str(rules.time_limit)
    )
    # The engine's tie-break is what a knockout table's "one more hand" gives its match.
    tie = KnockoutTie.EXTRA_HAND.label if rules.tie_break else _("the tie stands")
    worded[_("a tied match")] = f"“{tie}”"
    return worded


def _rules_differences(match_rules: Rules, sheet_rules: Rules) -> str:
    """Each rule a scoresheet sets otherwise than the match, with both values."""
    ours, theirs = _rules_worded(match_rules), _rules_worded(sheet_rules)
    return "; ".join(
        _("%(rule)s: %(match)s for this match, %(sheet)s in the scoresheet")
        % {"rule": rule, "match": value, "sheet": theirs[rule]}
        for rule, value in ours.items()
        if value != theirs[rule]
    )


def _document_hands(match: Match, document: Mapping[str, Any]) -> list[dict[str, Any]]:
    if not isinstance(document, Mapping):
        raise ValidationError(_("A scoresheet is a JSON object."), code="bad_format")
    try:
        # A document to be stored names its format (docs/scoresheet.md, Import).
        format_check(document, required=True)
    except AllFivesError as error:
        raise ValidationError(
            _('The scoresheet must give "format": "%(format)s".') % {"format": FORMAT},
            code="bad_format",
        ) from error
    if document.get("players") != match.player_count:
        raise ValidationError(
            _("The scoresheet is for %(given)s players; this match has %(n)d.")
            % {"given": document.get("players"), "n": match.player_count},
            code="players_mismatch",
        )
    sheet_rules = document.get("rules")
    if sheet_rules is not None:
        ours, theirs = Rules.from_json(match.rules), Rules.from_json(sheet_rules)
        if ours != theirs:
            raise ValidationError(
                _("The scoresheet's rules differ from this match's — %(differences)s.")
                % {"differences": _rules_differences(ours, theirs)},
                code="rules_mismatch",
            )
    hands = document.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, Mapping) for h in hands):
        raise ValidationError(
            _("The scoresheet's hands must be a list of objects."), code="bad_format"
        )
    return [dict(h) for h in hands]


@transaction.atomic
def match_import(
    *,
    document: Mapping[str, Any],
    user: AnyUser,
    table: Table | None = None,
    match: Match | None = None,
    version: int | None = None,
) -> Match:
    """Store a whole match from a docs/scoresheet.md document, judged by the engine.

    Give a ``table`` (its match is created if needed) or a ``match``. The match must
    have no hands yet, unless ``version`` is given: then its hands are replaced
    (a correction of everything, kept in the history). ``user=None`` is the system
    (the demo command); any other user must be allowed to score the match.
    """
    if (table is None) == (match is None):
        raise ValueError("give a table or a match")
    if match is None:
        assert table is not None
        match = match_for_table(table=table)
    if user is not None:
        scorer_require(match=match, user=user)
    locked = match_lock(match_id=match.pk, version=match.version if version is None else version)
    rows = match_hands(match=locked)
    if rows and version is None:
        raise ValidationError(
            _("The match already has hands; send its version to replace them."),
            code="match_has_hands",
        )
    if rows and locked.status == Match.Status.FINISHED and user is not None:
        _require(
            match_can_manage(user=user, match=locked),
            _("Only an organiser of the tournament may replace a finished match."),
        )
    entries = _document_hands(locked, document)
    # The round clock (R24) travels with the sheet: the engine judges it with the hands.
    after = document.get("time_called_after")
    locked.time_called_after = after if type(after) is int else None
    if after is not None and type(after) is not int:
        raise ValidationError(
            _('"time_called_after" must be a whole number of hands.'), code="bad_format"
        )
    verdict = match_judge(match=locked, entries=entries)
    keep = rows[: len(entries)]
    for extra in rows[len(entries) :]:
        extra._history_user = user_or_none(user)  # type: ignore[attr-defined]
        extra._change_reason = "imported"  # type: ignore[attr-defined]
        extra.delete()
    slots: list[Hand | None] = [*keep, *([None] * (len(entries) - len(keep)))]
    # An imported scoresheet is the sheet both sides signed: its hands count as confirmed.
    return verdict_store(
        match=locked,
        entries=entries,
        rows=slots,
        verdict=verdict,
        user=user,
        reason="imported",
        confirmed=True,
    )


@transaction.atomic
def match_void(*, match: Match, user: AnyUser) -> None:
    """Void a table's match: its hands and the match go, so the round may be paired again.

    Only an organiser may, and only explicitly; every hand and the match stay in the
    history (marked "voided"), and the table is back to not started, without a result.
    """
    if user is not None:
        _require(
            match_can_manage(user=user, match=match),
            _("Only an organiser of the tournament may void a match."),
        )
    locked = match_lock(match_id=match.pk, version=match.version)
    who = user_or_none(user)
    for row in match_hands(match=locked):
        row._history_user = who  # type: ignore[attr-defined]
        row._change_reason = "voided"  # type: ignore[attr-defined]
        row.delete()
    table_id = locked.table_id
    locked._history_user = who  # type: ignore[attr-defined]
    locked._change_reason = "voided"  # type: ignore[attr-defined]
    locked.delete()
    if table_id is not None:
        table_result_clear(table_id=table_id)
        table_status_set(table_id=table_id, status="scheduled")


def table_play_set_aside(table_id: int, user: object) -> None:
    """Set aside a table's match and hands for a result recorded without them: voided,
    every hand kept in the history (``league.hooks.table_play_discard``)."""
    match = Match.objects.filter(table_id=table_id).first()
    if match is not None:
        match_void(match=match, user=user if isinstance(user, AbstractBaseUser) else None)
