"""The dashboard's chart component (cms/ops/charts.py): bars drawn to scale over their table."""

import pytest
from django.utils import translation

from cms.ops.charts import MIN_SEGMENT, BarChart, ChartRow, Series, number_text

SERIES = [Series("Done", "positive"), Series("Left", "critical")]


def chart(*rows: ChartRow, **options) -> BarChart:
    return BarChart(title="Work", row_heading="Topic", series=SERIES, rows=list(rows), **options)


def test_stacked_bars_are_drawn_against_the_largest_total():
    drawn = chart(ChartRow("A", [3, 1]), ChartRow("B", [6, 2])).bars
    a, b = ([(s["x"], s["width"], s["tone"]) for s in row["segments"]] for row in drawn)
    assert a == [(0, 37.5, "positive"), (37.5, 12.5, "critical")]
    assert b == [(0, 75.0, "positive"), (75.0, 25.0, "critical")]
    assert [row["text"] for row in drawn] == ["4", "8"]


def test_a_small_value_stays_visible_and_zero_draws_nothing():
    (drawn,) = chart(ChartRow("A", [10_000, 1])).bars
    widths = [segment["width"] for segment in drawn["segments"]]
    assert widths[1] >= MIN_SEGMENT * 0.99 and sum(widths) == pytest.approx(100)
    assert chart(ChartRow("B", [0, 0])).bars[0]["segments"] == []


def test_the_table_holds_every_number_its_links_and_the_total():
    table = chart(
        ChartRow("A", [1234, 5], url="/a/", urls=["", "/a/left/"], extra=["note"]),
        show_total=True,
        total_heading="Pages",
        extra_headings=["Note"],
    )
    assert table.headings == ["Done", "Left", "Pages", "Note"]
    (row,) = table.table_rows
    assert (row["label"], row["url"]) == ("A", "/a/")
    assert [(cell.text, cell.url) for cell in row["cells"]] == [
        ("1,234", ""),
        ("5", "/a/left/"),
        ("1,239", ""),
        ("note", ""),
    ]


def test_numbers_are_written_as_the_admin_s_language_does():
    with translation.override("en"):
        assert number_text(12345) == "12,345"
        assert number_text(2.5) == "2.5"
    assert number_text(None) == "—"


def test_a_row_must_give_a_value_per_series():
    with pytest.raises(ValueError, match="1 values for 2 series"):
        chart(ChartRow("A", [1]))
    with pytest.raises(ValueError):
        Series("Odd", "purple")
