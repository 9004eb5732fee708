"""The line of play: laying tiles (R6-R10), the count (R11) and the score of a count (R12)."""

from __future__ import annotations

import pytest

from allfives import AllFivesError, Layout, Tile
from allfives.layout import SCORE
from tests.allfives.engine_helpers import count_from_geometry


def lay(*steps: str) -> Layout:
    """Steps 'a-b' (lead as written) or 'a-b@E'."""
    layout = Layout()
    for step in steps:
        text, _, end = step.partition("@")
        layout.play(text, end or None)
    return layout


def counts(*steps: str) -> list[int]:
    layout = Layout()
    result = []
    for step in steps:
        text, _, end = step.partition("@")
        result.append(layout.play(text, end or None))
        assert result[-1] == layout.count == count_from_geometry(layout)
        assert sum(layout.end_counts().values()) == layout.count
    return result


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        # Seed 000: lead [3|6]; [6|6] on the 6 is the spinner at an end: 3+6+6;
        # [6|2] on its far side covers it: 3+2.
        (("3-6", "6-6@E", "6-2@E"), [9, 15, 5]),
        # [5|5] lead 10; [5|0] 10 (the spinner still at an end); [0|0] on the 0: 10.
        (("5-5", "5-0@W", "0-0@W"), [10, 10, 10]),
        # [5|5], [5|4] W, [5|3] E, [5|6] N, [6|6] N: 4 + 3 + 12 = 19.
        (("5-5", "5-4@W", "5-3@E", "5-6@N", "6-6@N"), [10, 14, 7, 13, 19]),
        # [5|5], [5|3] W, [5|2] E, [5|1] N: 3 + 2 + 1 (the unstarted S adds 0).
        (("5-5", "5-3@W", "5-2@E", "5-1@N"), [10, 13, 5, 6]),
    ],
)
def test_r11_worked_examples(steps: tuple[str, ...], expected: list[int]) -> None:
    assert counts(*steps) == expected


@pytest.mark.parametrize(("lead", "count"), [("6-4", 10), ("5-5", 10), ("3-6", 9), ("0-0", 0)])
def test_r11_a_lone_tile_gives_its_two_halves(lead: str, count: int) -> None:
    assert counts(lead) == [count]


@pytest.mark.parametrize("lead", ["6-4", "4-6", "0-5", "2-2", "1-2"])
def test_r6_any_tile_may_lead_and_it_is_scored(lead: str) -> None:
    layout = Layout()
    count = layout.play(lead)
    assert count == Tile.parse(lead).pips
    assert SCORE[count] == (count if count % 5 == 0 else 0)
    first, second = (int(half) for half in lead.split("-"))
    assert layout.open_ends() == {"W": first, "E": second}


def test_r6_the_lead_takes_no_end() -> None:
    with pytest.raises(AllFivesError) as caught:
        Layout().play("3-6", "E")
    assert (caught.value.code, caught.value.rule) == ("lead_has_no_end", "R6")


def test_r7_a_tile_matches_an_open_end_and_shows_its_other_half() -> None:
    layout = lay("3-6", "6-1@E", "3-4@W")
    assert layout.open_ends() == {"W": 4, "E": 1}
    assert [(p.first, p.second) for p in layout.main_line()] == [(4, 3), (3, 6), (6, 1)]


def test_r7_a_tile_that_does_not_match_is_refused_naming_tile_and_end() -> None:
    layout = lay("3-6")
    with pytest.raises(AllFivesError) as caught:
        layout.play("1-4", "W")
    error = caught.value
    assert (error.code, error.rule) == ("tile_does_not_match", "R7")
    assert "[1|4] does not match the west end (3)" in error.message
    assert error.params["tile"] == "[1|4]" and error.params["end"] == "W"
    assert layout.count == 9 and str(layout) == "3-6"  # nothing changed


def test_r7_the_end_may_be_left_out_only_when_one_end_fits() -> None:
    layout = lay("3-6")
    assert layout.play("6-1") == 4
    assert layout.open_ends() == {"W": 3, "E": 1}
    with pytest.raises(AllFivesError) as caught:
        lay("3-6", "6-1@E").play("1-3")
    assert caught.value.code == "ambiguous_end"
    assert caught.value.params["ends"] == ["W", "E"]
    with pytest.raises(AllFivesError) as caught:
        lay("3-6").play("2-4")
    assert caught.value.code == "tile_does_not_match"


def test_r7_a_tile_is_laid_once() -> None:
    layout = lay("3-6", "6-1@E")
    with pytest.raises(AllFivesError) as caught:
        layout.play("6-3", "W")
    assert (caught.value.code, caught.value.rule) == ("tile_already_played", "R1")


def test_r8_a_double_at_an_end_counts_both_halves_until_covered() -> None:
    # [5|5] is the spinner; [3|3] later is an ordinary crosswise double.
    assert counts("5-5", "5-3@W", "3-3@W", "3-1@W") == [10, 13, 16, 11]
    layout = lay("5-5", "5-3@W", "3-3@W")
    assert [p.is_double for p in layout.main_line()] == [True, False, True]


def test_r9_the_first_double_is_the_only_spinner() -> None:
    layout = lay("3-6", "6-6@E", "6-2@E", "2-2@E", "2-1@E")
    assert layout.spinner == Tile.parse("6-6")
    assert layout.open_ends() == {"W": 3, "E": 1, "N": 6, "S": 6}
    assert layout.spinner_index == 1
    # [2|2], laid later, never opens branches: the only branches show the spinner's 6.
    layout.play("6-4", "N")
    assert layout.open_ends() == {"W": 3, "E": 1, "N": 4, "S": 6}


def test_r9_a_double_lead_is_the_spinner() -> None:
    layout = lay("4-4")
    assert layout.spinner == Tile.parse("4-4") and layout.spinner_index == 0
    assert not layout.is_branch_open()


def test_r9_spinner_counts_both_halves_while_terminal() -> None:
    assert counts("3-6", "6-6@E") == [9, 15]
    assert counts("6-6", "6-2@W") == [12, 14]  # far side still open: 2 + 12


def test_r10_both_straight_sides_before_a_branch() -> None:
    layout = lay("5-5", "5-3@W")
    with pytest.raises(AllFivesError) as caught:
        layout.play("5-1", "N")
    assert (caught.value.code, caught.value.rule) == ("branch_not_open", "R10")
    assert "north" in caught.value.message
    layout.play("5-2", "E")
    assert layout.is_branch_open()
    assert layout.play("5-1", "S") == 3 + 2 + 1


def test_r10_branch_not_open_without_a_spinner() -> None:
    with pytest.raises(AllFivesError) as caught:
        lay("3-6", "6-1@E").play("1-1", "S")
    assert caught.value.code == "branch_not_open"


def test_r10_a_later_spinner_has_one_straight_side_covered() -> None:
    layout = lay("3-6", "6-6@E")
    assert not layout.is_branch_open()
    layout.play("6-2", "E")  # one more tile on its far side opens both branches
    assert layout.open_ends() == {"W": 3, "E": 2, "N": 6, "S": 6}


def test_r10_either_branch_first_and_the_other_stays_available() -> None:
    layout = lay("5-5", "5-3@W", "5-2@E", "5-1@S", "1-1@S", "1-4@S")
    assert layout.open_ends() == {"W": 3, "E": 2, "N": 5, "S": 4}
    assert layout.ends_for(Tile.parse("5-6")) == ["N"]
    assert layout.play("5-6", "N") == 3 + 2 + 6 + 4
    assert [(p.first, p.second) for p in layout.branch("S")] == [(5, 1), (1, 1), (1, 4)]
    assert [(p.first, p.second) for p in layout.branch("N")] == [(5, 6)]


def test_r11_an_unstarted_branch_adds_nothing() -> None:
    layout = lay("5-5", "5-3@W", "5-2@E")
    assert layout.count == 5
    assert layout.end_counts() == {"W": 3, "E": 2, "N": 0, "S": 0}


@pytest.mark.parametrize(
    ("count", "points"), [(15, 15), (14, 0), (0, 0), (5, 5), (35, 35), (36, 0), (10, 10)]
)
def test_r12_a_count_scores_itself_when_a_positive_multiple_of_five(
    count: int, points: int
) -> None:
    assert SCORE[count] == points


def test_r12_the_largest_count_is_36_and_the_largest_score_35() -> None:
    # Four arms each ending in a double: [6|6] W, [5|5] E, [4|4] N, [3|3] S.
    steps = ("1-1", "1-6@W", "6-6@W", "1-5@E", "5-5@E", "1-4@N", "4-4@N", "1-3@S", "3-3@S")
    assert counts(*steps)[-1] == 12 + 10 + 8 + 6 == 36
    assert SCORE[36] == 0
    assert max(SCORE) == 35 and len(SCORE) == 37


def test_layout_text_round_trip() -> None:
    layout = lay("3-6", "6-6@E", "6-2@E", "6-1@N", "1-1@N", "3-4@W")
    assert str(layout) == "4-3 3-6 [6-6] 6-2 | N 6-1 1-1"
    again = Layout.parse(str(layout))
    assert again == layout
    assert again.count == layout.count and again.open_ends() == layout.open_ends()
    assert again.tiles() == layout.tiles()
    assert Layout.parse("") == Layout() and str(Layout()) == ""
    assert repr(layout) == "Layout.parse('4-3 3-6 [6-6] 6-2 | N 6-1 1-1')"


@pytest.mark.parametrize(
    "text",
    [
        "3-6 5-5",  # does not match
        "3-3 3-6",  # a double with no spinner marked
        "[3-6]",  # spinner not a double
        "[3-3] 3-4 [4-4]",  # two spinners
        "3-6 [6-6] | N 6-1",  # branch before both sides held
        "3-6 x-y",
        "3-6 | Q 6-1",
        "[6-6] 6-3 6-... ",
        "3-6 6-3",  # a tile twice
        "[5-5] | N 5-1 | N 5-2",
        "1-5 [5-5] 5-2 | N 4-1",  # branch must start at the spinner's pips
    ],
)
def test_layout_parse_refuses_impossible_layouts(text: str) -> None:
    with pytest.raises(AllFivesError) as caught:
        Layout.parse(text)
    assert caught.value.code == "bad_format"


def test_layout_geometry_for_drawing() -> None:
    layout = lay("2-5", "5-5@E", "2-0@W", "5-6@E", "5-1@N")
    line = layout.main_line()
    assert [(str(p.tile), p.first, p.second) for p in line] == [
        ("0-2", 0, 2),
        ("2-5", 2, 5),
        ("5-5", 5, 5),
        ("5-6", 5, 6),
    ]
    assert layout.spinner_index == 2 and layout.lead == Tile.parse("2-5")
    assert layout.branch("S") == []
    with pytest.raises(ValueError):
        layout.branch("W")
    assert layout.can_play(Tile.parse("6-6")) and not layout.can_play(Tile.parse("3-4"))
    assert not layout.can_play(Tile.parse("2-5"))


def test_layout_copy_is_independent() -> None:
    layout = lay("3-6")
    other = layout.copy()
    other.play("6-6", "E")
    assert str(layout) == "3-6" and str(other) == "3-6 [6-6]"
    assert layout.count == 9 and other.count == 15


def test_the_lead_may_be_turned_with_west() -> None:
    layout = Layout()
    layout.play(Tile.parse("3-6"), west=6)
    assert layout.open_ends() == {"W": 6, "E": 3}
    with pytest.raises(AllFivesError):
        Layout().play(Tile.parse("3-6"), west=2)
    with pytest.raises(AllFivesError):
        lay("3-6").play("6-1", "X")
