"""The rating chart: accessible, escaped, scaled SVG from plain values (no Django)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ratings.chart import ChartPoint, rating_chart_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - our own output, parsed to check it is well-formed


def points(n: int) -> list[ChartPoint]:
    return [ChartPoint(f"{i + 1}/3", display=2.0 * i, mu=25.0 + i, sigma=8.0 - i) for i in range(n)]


def test_the_chart_is_valid_svg_with_a_title_and_description_it_is_labelled_by() -> None:
    svg = rating_chart_svg(points(4), title="Rating of Ani", desc="After each match.")
    root = parse(svg)
    assert root.get("role") == "img"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and title.text == "Rating of Ani"
    assert desc is not None and desc.text == "After each match."
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert root.get("viewBox") == "0 0 640 260"


def test_the_chart_draws_one_marker_with_a_tooltip_per_match() -> None:
    root = parse(rating_chart_svg(points(5), title="t", desc="d", number=str))
    markers = root.findall(f"{SVG}circle")
    assert len(markers) == 5
    tip = markers[-1].find(f"{SVG}title")
    assert tip is not None and tip.text == "5/3: 8.0 (mu 29.0, sigma 4.0)"
    line = root.findall(f"{SVG}polyline")[-1].get("points", "")
    assert len(line.split()) == 5


def test_higher_ratings_are_drawn_higher_up() -> None:
    root = parse(rating_chart_svg(points(3), title="t", desc="d"))
    line = root.findall(f"{SVG}polyline")[-1].get("points", "")
    ys = [float(pair.split(",")[1]) for pair in line.split()]
    assert ys[0] > ys[1] > ys[2]  # SVG y grows downwards; the rating rose


def test_every_text_is_escaped() -> None:
    svg = rating_chart_svg(
        [ChartPoint("<b>1</b>", 1.0, 20.0, 5.0)],
        title="<script>alert(1)</script>",
        desc="a & b",
        chart_id='x" onload="y',
    )
    assert "<script>" not in svg and "<b>" not in svg and 'onload="y' not in svg
    parse(svg)  # still well-formed


def test_a_chart_without_matches_says_so() -> None:
    root = parse(rating_chart_svg([], title="t", desc="d", empty_text="No matches yet"))
    texts = [t.text for t in root.findall(f"{SVG}text")]
    assert texts == ["No matches yet"]


def test_axis_labels_use_the_given_number_format() -> None:
    svg = rating_chart_svg(
        points(3), title="t", desc="d", number=lambda v: f"{v:.1f}".replace(".", ",")
    )
    axis = re.findall(r'<text x="46"[^>]*>([^<]+)<', svg)
    assert axis == ["0,0", "10,0", "20,0", "30,0", "40,0"]
