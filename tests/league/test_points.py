"""Points as people read them: a half point is written ½ in every language, as the
scoring page writes it; other values keep the language's decimals."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.template import Context, Template
from django.utils import translation

from league.points import number_text, points_text


@pytest.mark.parametrize(
    ("points_x2", "text"),
    [(0, "0"), (1, "½"), (30, "15"), (35, "17½"), (-1, "-½"), (-7, "-3½"), (-40, "-20")],
)
def test_half_points_are_written_with_a_half_sign(points_x2: int, text: str) -> None:
    assert points_text(points_x2) == text


@pytest.mark.parametrize("language", ["id", "en"])
@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("17.5000"), "17½"),
        (Decimal("4.0000"), "4"),
        (Decimal("0.5"), "½"),
        (Decimal("-12.5"), "-12½"),
        (Fraction(35, 2), "17½"),
        (3, "3"),
        ("550.5", "550½"),
    ],
)
def test_whole_and_half_points_read_the_same_in_either_language(
    language: str, value: Decimal | Fraction | int | str, text: str
) -> None:
    with translation.override(language):
        assert number_text(value) == text


@pytest.mark.parametrize(("language", "text"), [("id", "0,875"), ("en", "0.875")])
def test_other_values_keep_the_languages_decimal_separator(language: str, text: str) -> None:
    with translation.override(language):
        assert number_text(Decimal("0.8750")) == text
        assert number_text(Fraction(2, 3)) == text.replace("875", "6667")


def test_a_given_separator_wins_and_nothing_reads_as_empty() -> None:
    assert number_text(Decimal("0.25"), ",") == "0,25"
    assert number_text(Decimal("7.5"), ",") == "7½"
    assert number_text(None) == "" and number_text("") == ""


def test_the_template_filters_write_points_and_numbers_of_points() -> None:
    template = Template("{% load points %}{{ x2|points }} {{ value|half }} {{ bad|half }}")
    with translation.override("id"):
        html = template.render(Context({"x2": 35, "value": Decimal("87.5"), "bad": "x"}))
    assert html == "17½ 87½ "
