"""The league's extension points: how the apps above it hear of and take part in its writes.

``league`` sits below ``standings``, ``ratings``, ``pairing`` and ``matches`` and never
imports them. Where one of its services must reach them, the dependency is turned
around here, in one explicit registry that each app fills in its ``AppConfig.ready``:

- *result listeners* hear, inside the writing transaction, that a table's result or
  status changed (``standings`` marks its standings dirty, ``ratings`` schedules a
  re-rating): ``result_listener_add`` / ``table_changed``;
- *ranking listeners* hear, inside the writing transaction, that a tournament's scoring
  or tiebreak order changed (``standings`` marks its standings dirty):
  ``ranking_listener_add`` / ``tournament_ranking_changed``;
- *publish checks* may refuse a drafted round (``pairing`` refuses an unplayable draft:
  an entrant twice, a table of the wrong size): ``publish_check_add`` /
  ``round_publish_problems``;
- *recorded play* says which tables of a round already have hands recorded (``matches``),
  so that nothing deletes them by re-pairing: ``recorded_play_provider_set`` /
  ``round_tables_with_play``;
- *recorded play discarders* set aside a table's match and its hands (kept in their
  history) when an organiser replaces them by a result without hands (``matches``):
  ``recorded_play_discarder_set`` / ``table_play_discard``;
- *tiebreak validators* check a tournament's tiebreak order against the registry of
  the app that ranks (``standings``): ``tiebreaks_validator_set`` / ``tiebreaks_clean``,
  and the tiebreaks it offers, named for people, for the forms that arrange the order:
  ``tiebreak_choices_set`` / ``tiebreak_choices``;
- *publish listeners* hear that a round was just published
  (``entrants`` tells its players their tables): ``round_published_listener_add`` /
  ``round_published``;
- *the presence rule* says whether a round seats checked-in entries only (an organiser's
  choice kept by ``entrants``; ``pairing`` asks): ``checked_in_only_provider_set`` /
  ``round_checked_in_only``.

Without a registered app (tests of the league alone) each hook does nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from league.models import Entry, Round

__all__ = [
    "PublishCheck",
    "ResultListener",
    "TiebreaksValidator",
    "checked_in_only_provider_set",
    "entry_keep_reasons",
    "entry_keeper_add",
    "publish_check_add",
    "ranking_listener_add",
    "recorded_play_discarder_set",
    "recorded_play_provider_set",
    "result_listener_add",
    "round_checked_in_only",
    "round_keep_reasons",
    "round_keeper_add",
    "round_publish_problems",
    "round_published",
    "round_published_listener_add",
    "round_tables_with_play",
    "table_changed",
    "table_play_discard",
    "table_result_keep_reasons",
    "table_result_keeper_add",
    "tiebreak_choices",
    "tiebreak_choices_set",
    "tiebreaks_clean",
    "tiebreaks_validator_set",
    "tournament_ranking_changed",
]

#: Called with a table's id, and whether its result changed (False: only its status), inside
#: the writing transaction.
type ResultListener = Callable[[int, bool], None]
#: Returns the messages that keep a drafted round from being published (none: it may be).
type PublishCheck = Callable[["Round"], Sequence[str]]
#: Returns the tiebreak order cleaned, or raises ``ValidationError`` with a clear message.
type TiebreaksValidator = Callable[[Sequence[str]], list[str]]
#: Returns the tiebreaks one may choose, as (stored name, name for people) in a useful order.
type TiebreakChoices = Callable[[], Sequence[tuple[str, str]]]

_result_listeners: dict[str, ResultListener] = {}
#: Called with a tournament's id when what ranks its entries changed.
type RankingListener = Callable[[int], None]
_ranking_listeners: dict[str, RankingListener] = {}
_publish_checks: dict[str, PublishCheck] = {}
_tiebreaks_validator: TiebreaksValidator | None = None
_tiebreak_choices: TiebreakChoices | None = None
#: Returns the numbers of a round's tables whose match has hands recorded.
type RecordedPlayProvider = Callable[["Round"], Sequence[int]]
_recorded_play: RecordedPlayProvider | None = None
#: Called with a round just published (its status saved, before any transaction commits).
type PublishListener = Callable[["Round"], None]
_publish_listeners: dict[str, PublishListener] = {}
#: Returns why an entry may not withdraw now (none: it may).
type EntryKeeper = Callable[["Entry"], Sequence[str]]
_entry_keepers: dict[str, EntryKeeper] = {}
#: Returns why a round's tables must stay as they are (none: they may be deleted).
type RoundKeeper = Callable[["Round"], Sequence[str]]
_round_keepers: dict[str, RoundKeeper] = {}
#: Returns why a table's result must stay as it is, given the placings by side it would
#: take (None: the result cleared); none: it may change.
type ResultKeeper = Callable[[int, Mapping[int, int] | None], Sequence[str]]
_result_keepers: dict[str, ResultKeeper] = {}
#: Says whether a round seats checked-in entries only.
type CheckedInOnlyProvider = Callable[["Round"], bool]
_checked_in_only: CheckedInOnlyProvider | None = None


def round_published_listener_add(name: str, listener: PublishListener) -> None:
    """Register (or replace, under the same name) a listener for published rounds."""
    _publish_listeners[name] = listener


def round_published(*, round: Round) -> None:
    """Tell every listener that ``round`` was just published."""
    for listener in tuple(_publish_listeners.values()):
        listener(round)


def checked_in_only_provider_set(provider: CheckedInOnlyProvider | None) -> None:
    """Register (or, with ``None``, remove) the reader of the organiser's presence rule."""
    global _checked_in_only
    _checked_in_only = provider


def round_checked_in_only(*, round: Round) -> bool:
    """Whether the organiser pairs only the checked-in entries in ``round`` (no rule: no)."""
    return _checked_in_only is not None and _checked_in_only(round)


#: Sets aside a table's match and hands (by table id, on behalf of a user) inside the
#: writing transaction; the hands stay in their history.
type RecordedPlayDiscarder = Callable[[int, object], None]
_discarder: RecordedPlayDiscarder | None = None


def recorded_play_discarder_set(discarder: RecordedPlayDiscarder | None) -> None:
    """Register (or, with ``None``, remove) what sets a table's recorded play aside."""
    global _discarder
    _discarder = discarder


def table_play_discard(*, table_id: int, user: object) -> None:
    """Set aside the table's match and hands, if score entry keeps any (their history stays)."""
    if _discarder is not None:
        _discarder(table_id, user)


def recorded_play_provider_set(provider: RecordedPlayProvider | None) -> None:
    """Register (or, with ``None``, remove) the reader of which tables have hands recorded."""
    global _recorded_play
    _recorded_play = provider


def round_tables_with_play(*, round: Round) -> list[int]:
    """The numbers of the round's tables with hands recorded (none without score entry)."""
    if _recorded_play is None:
        return []
    return sorted(_recorded_play(round))


def result_listener_add(name: str, listener: ResultListener) -> None:
    """Register (or replace, under the same name) a listener for changed table results."""
    _result_listeners[name] = listener


def table_changed(*, table_id: int, is_result: bool = True) -> None:
    """Tell every listener that a table's result (or, ``is_result=False``, only its status)
    changed."""
    for listener in tuple(_result_listeners.values()):
        listener(table_id, is_result)


def ranking_listener_add(name: str, listener: RankingListener) -> None:
    """Register (or replace, under the same name) a listener for changed ranking settings."""
    _ranking_listeners[name] = listener


def tournament_ranking_changed(*, tournament_id: int) -> None:
    """Tell every listener that a tournament's match points or tiebreak order changed."""
    for listener in tuple(_ranking_listeners.values()):
        listener(tournament_id)


def publish_check_add(name: str, check: PublishCheck) -> None:
    """Register (or replace, under the same name) a check that may refuse a publication."""
    _publish_checks[name] = check


def _reasons(checks: Mapping[str, Callable[..., Sequence[str]]], *args: Any) -> list[str]:
    """Every registered check's messages for ``args``, in the order they were added."""
    return [message for check in tuple(checks.values()) for message in check(*args)]


def entry_keeper_add(name: str, keeper: EntryKeeper) -> None:
    """Register (or replace, under the same name) a reason to refuse a withdrawal."""
    _entry_keepers[name] = keeper


def entry_keep_reasons(*, entry: Entry) -> list[str]:
    """Every registered keeper's reasons not to withdraw ``entry`` now."""
    return _reasons(_entry_keepers, entry)


def round_keeper_add(name: str, keeper: RoundKeeper) -> None:
    """Register (or replace, under the same name) a reason to keep a round's tables."""
    _round_keepers[name] = keeper


def round_keep_reasons(*, round: Round) -> list[str]:
    """Every registered keeper's reasons not to delete ``round`` or its tables."""
    return _reasons(_round_keepers, round)


def table_result_keeper_add(name: str, keeper: ResultKeeper) -> None:
    """Register (or replace, under the same name) a reason to keep a table's result."""
    _result_keepers[name] = keeper


def table_result_keep_reasons(*, table_id: int, placings: Mapping[int, int] | None) -> list[str]:
    """Every registered keeper's reasons not to give table ``table_id`` the result with
    these placings by side (None: no result at all)."""
    return _reasons(_result_keepers, table_id, placings)


def round_publish_problems(*, round: Round) -> list[str]:
    """Every registered check's reasons not to publish ``round`` (empty: it may be)."""
    return _reasons(_publish_checks, round)


def tiebreaks_validator_set(validator: TiebreaksValidator | None) -> None:
    """Register (or, with ``None``, remove) the validator of tiebreak orders."""
    global _tiebreaks_validator
    _tiebreaks_validator = validator


def tiebreaks_clean(tiebreaks: Sequence[str]) -> list[str]:
    """A tiebreak order as the ranking app accepts it (unchanged when none is registered)."""
    if _tiebreaks_validator is None:
        return [str(t) for t in tiebreaks]
    return _tiebreaks_validator(tiebreaks)


def tiebreak_choices_set(provider: TiebreakChoices | None) -> None:
    """Register (or, with ``None``, remove) the provider of the tiebreaks one may choose."""
    global _tiebreak_choices
    _tiebreak_choices = provider


def tiebreak_choices() -> list[tuple[str, str]]:
    """The tiebreaks one may choose, as (stored name, name for people); none without the
    ranking app."""
    if _tiebreak_choices is None:
        return []
    return [(str(key), str(label)) for key, label in _tiebreak_choices()]
