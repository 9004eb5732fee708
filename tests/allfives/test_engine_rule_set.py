"""The rule set: players and sides (R2), deal sizes (R3), targets (R4), blocked award."""

from __future__ import annotations

import pytest

from allfives import (
    DEFAULT_BLOCKED_AWARD,
    DEFAULT_HAND_SIZES,
    DEFAULT_TARGETS,
    AllFivesError,
    Rules,
    check,
    side_of,
)
from allfives.rules import check_players, side_seats, sides


def test_r2_two_three_or_four_players() -> None:
    for players in (2, 3, 4):
        assert check_players(players) == players
    for players in (1, 5, 0, "3", True, None, 3.0):
        with pytest.raises(AllFivesError) as caught:
            check_players(players)
        assert caught.value.code == "bad_players"
        assert caught.value.rule == "R2"


def test_r2_partners_sit_opposite_at_four_players() -> None:
    assert [side_of(seat, 4) for seat in range(4)] == [0, 1, 0, 1]
    assert side_seats(0, 4) == (0, 2) and side_seats(1, 4) == (1, 3)
    assert list(sides(4)) == [0, 1]


@pytest.mark.parametrize("players", [2, 3])
def test_r2_two_or_three_play_each_for_themselves(players: int) -> None:
    assert [side_of(seat, players) for seat in range(players)] == list(range(players))
    assert list(sides(players)) == list(range(players))


def test_r3_deal_sizes_follow_pagat() -> None:
    assert dict(DEFAULT_HAND_SIZES) == {2: 9, 3: 7, 4: 5}
    rules = Rules()
    assert [rules.hand_size(players) for players in (2, 3, 4)] == [9, 7, 5]


def test_r4_targets_follow_pagat_and_each_can_change() -> None:
    assert dict(DEFAULT_TARGETS) == {2: 250, 3: 200, 4: 200}
    rules = Rules.from_json({"targets": {"2": 150}})
    assert [rules.target(players) for players in (2, 3, 4)] == [150, 200, 200]
    assert Rules(targets={4: 500}).target(4) == 500


def test_r20_blocked_award_defaults_to_opponents() -> None:
    assert DEFAULT_BLOCKED_AWARD == "opponents"
    assert Rules().blocked_award == "opponents"
    assert Rules.from_json({"blocked_award": "difference"}).blocked_award == "difference"


def test_rules_json_round_trip_writes_every_field() -> None:
    rules = Rules.from_json(
        {"targets": {"3": 150}, "hand_sizes": {"4": 6}, "blocked_award": "difference"}
    )
    assert rules.to_json() == {
        "targets": {"2": 250, "3": 150, "4": 200},
        "hand_sizes": {"2": 9, "3": 7, "4": 6},
        "blocked_award": "difference",
    }
    assert Rules.from_json(rules.to_json()) == rules
    assert hash(Rules.from_json(rules.to_json())) == hash(rules)
    assert Rules.from_json(None) == Rules() == Rules.from_json({})
    assert rules != Rules()
    assert "difference" in repr(rules)


@pytest.mark.parametrize(
    "obj",
    [
        [],
        "opponents",
        {"targets": []},
        {"targets": {"5": 100}},
        {"targets": {"two": 100}},
        {"targets": {"2": 0}},
        {"targets": {"2": -5}},
        {"targets": {"2": 12.5}},
        {"targets": {"2": "250"}},
        {"targets": {"2": True}},
        {"hand_sizes": {"4": 8}},
        {"hand_sizes": {"2": 0}},
        {"blocked_award": "both"},
        {"blocked_award": None},
    ],
)
def test_rules_from_json_refuses_bad_values(obj: object) -> None:
    with pytest.raises(AllFivesError) as caught:
        Rules.from_json(obj)
    assert caught.value.code == "bad_format"


def test_rules_are_frozen() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.blocked_award = "difference"  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.targets[2] = 1  # type: ignore[index]


@pytest.mark.parametrize(
    ("read", "equal"),
    [
        ({"targets": {"2": 60}}, {"targets": {"2": 60.0}}),
        ({"targets": {"2": 1}}, {"targets": {"2": True}}),
        ({"hand_sizes": {"2": 1}}, {"hand_sizes": {"2": 1.0}}),
    ],
)
def test_a_rule_set_read_before_does_not_stand_for_an_equal_one_of_other_types(
    read: dict[str, object], equal: dict[str, object]
) -> None:
    # Given a scoresheet whose rule set `check` has read, and one whose rule set
    # compares equal to it but writes a number as a float or a boolean
    hands = [{"leader": 0, "scores": [[0, 10]], "end": {"domino": 0}, "left": {"1": 0}}]
    first = check({"players": 2, "rules": read, "hands": hands})
    # When the second is checked
    second = check({"players": 2, "rules": equal, "hands": hands})
    # Then the first's rules were read, and the second's are refused as Rules refuses them
    assert first["ok"] is True
    assert second["ok"] is False
    assert second["error"]["code"] == "bad_format"  # type: ignore[index]
    with pytest.raises(AllFivesError):
        Rules.from_json(equal)


def test_a_rule_set_read_before_is_not_changed_by_its_document() -> None:
    # Given a rule set that `check` has read
    rules: dict[str, object] = {"targets": {"2": 60}}
    hands = [{"leader": 0, "scores": [[0, 30]], "end": {"domino": 0}, "left": {"1": 0}}]
    assert check({"players": 2, "rules": rules, "hands": hands})["finished"] is False
    # When the caller changes that object and checks again
    rules["targets"]["2"] = 30  # type: ignore[index]
    # Then the new target counts
    assert check({"players": 2, "rules": rules, "hands": hands})["finished"] is True
