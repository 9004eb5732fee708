"""Server-side SVG charts: accessible, escaped, localised, and drawn to scale."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest
from django.utils import translation

from matches.charts import ChartSeries, nice_step, score_progression_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - our own output, not untrusted input


def chart(**overrides: object) -> str:
    args: dict[str, object] = {
        "series": [
            ChartSeries("Ani", (Decimal(15), Decimal("87.5"), Decimal(120))),
            ChartSeries("Budi", (Decimal(0), Decimal(40), Decimal(205))),
        ],
        "target": 200,
        "title": "Score progression",
        "description": "Totals after each hand",
        "x_label": "Hand",
        "y_label": "Points",
        "target_label": "Target",
    }
    args.update(overrides)
    return score_progression_svg(**args)  # type: ignore[arg-type]


def test_chart_is_well_formed_svg_with_title_and_description_for_screen_readers() -> None:
    root = parse(chart())
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    title_id, desc_id = root.get("aria-labelledby", "").split()
    assert root.find(f"{SVG}title").get("id") == title_id  # type: ignore[union-attr]
    assert root.find(f"{SVG}title").text == "Score progression"  # type: ignore[union-attr]
    assert root.find(f"{SVG}desc").get("id") == desc_id  # type: ignore[union-attr]
    assert root.get("viewBox") == "0 0 480 300"


def test_chart_draws_one_line_per_side_starting_from_zero_before_the_first_hand() -> None:
    root = parse(chart())
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 2
    # 0 before the first hand, then one point per hand.
    assert all(len(line.get("points", "").split()) == 4 for line in lines)
    # The two sides differ by dash pattern as well as colour.
    assert lines[0].get("stroke") != lines[1].get("stroke")
    assert lines[0].get("stroke-dasharray") != lines[1].get("stroke-dasharray")


def test_chart_marks_the_target_with_its_label() -> None:
    svg = chart(target=250)
    root = parse(svg)
    target = root.find(f".//{SVG}g[@class='chart-target']")
    assert target is not None
    assert "".join(target.itertext()) == "Target 250"


@pytest.mark.parametrize("language", ["id", "en"])
def test_chart_half_points_are_written_as_on_every_page(language: str) -> None:
    with translation.override(language):
        svg = chart(point_label="%(side)s after hand %(hand)s: %(points)s")
    assert "Ani after hand 2: 87½" in svg


def test_chart_escapes_every_label() -> None:
    evil = '<script>alert("x")</script>&'
    svg = chart(
        series=[ChartSeries(evil, (Decimal(5),)), ChartSeries("B", (Decimal(10),))],
        title=evil,
        description=evil,
        x_label=evil,
        y_label=evil,
        target_label=evil,
    )
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg
    parse(svg)  # still well formed


def test_chart_scale_reaches_past_the_target_when_a_side_overshoots_it() -> None:
    root = parse(chart(target=200, series=[ChartSeries("A", (Decimal(235),))]))
    ticks = [t.text for t in root.findall(f".//{SVG}g[@class='chart-grid']/{SVG}text")]
    assert "250" in ticks  # 235 needs the 250 gridline above the 200 target


def test_chart_of_a_match_with_no_hand_yet_is_still_drawn() -> None:
    root = parse(chart(series=[ChartSeries("A", ()), ChartSeries("B", ())]))
    assert len(root.findall(f".//{SVG}polyline")) == 2


@pytest.mark.parametrize(("span", "step"), [(250, 50), (200, 50), (37, 10), (0, 5), (1200, 250)])
def test_nice_step_gives_round_tick_steps(span: float, step: int) -> None:
    assert nice_step(span) == step
