"""`make bench`'s plot (bench/plot.py): every target the benchmark writes is read as a number,
and the SVG draws each figure on both databases."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from bench.plot import Target, render, target_of, write_plot

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize(
    ("target", "baseline", "expected"),
    [
        ("constant in limit and <= 12", 40, Target(12, at_most=True)),
        ("<= 12", 30, Target(12, at_most=True)),
        ("p50 <= 1/4 of stock", 200.0, Target(50.0, at_most=True)),
        ("p50 <= 1/8 of stock", 800.0, Target(100.0, at_most=True)),
        ("p50 <= 50 ms", 900.0, Target(50, at_most=True)),
        (">= 1/2 of floor", 3000.0, Target(1500.0, at_most=False)),
        (">= 2/3 of floor", 3000.0, Target(2000.0, at_most=False)),
        ("< 50 MB", None, Target(50, at_most=True)),
        ("< 100 ms per segment", None, Target(100, at_most=True)),
        ("<= 1.5", 1.1, Target(1.5, at_most=True)),
        ("<= its limit", 10.0, Target(10.0, at_most=True)),
        ("<= 1.2x ceiling", 100.0, Target(120.0, at_most=True)),
        ("< 300 MB", 150.0, Target(300, at_most=True)),
        ("<= 30 s", None, Target(30, at_most=True)),
        ("<= 600 s for 1,000", None, Target(600, at_most=True)),
        ("<= 600 s for 1,000 (60 s pro rata)", None, Target(60, at_most=True)),
        ("all 1,429 containing it", 1200, Target(1429, at_most=False)),
        ("p50 <= 2x Wagtail's dashboard", 80.0, Target(160.0, at_most=True)),
        ("(no target)", 10.0, None),
        ("", None, None),
    ],
)
def test_targets_are_read_as_numbers(target, baseline, expected):
    figure = {"target": target, "baseline": baseline}
    found = target_of(figure)
    if expected is None:
        assert found is None
    else:
        assert found.at_most == expected.at_most
        assert found.value == pytest.approx(expected.value)


def figure(name, value, *, baseline=None, target="", holds=None, unit="ms"):
    return {
        "name": name,
        "unit": unit,
        "value": value,
        "baseline": baseline,
        "baseline_name": "stock",
        "target": target,
        "holds": holds,
        "ratio": None,
        "p90": None,
        "note": "",
    }


SUMMARY = {
    "generated_at": "2026-12-07T03:00:00Z",
    "seconds": 600,
    "backends": {
        "sqlite": {
            "figures": [
                figure(
                    "latency: cold detail",
                    12.0,
                    baseline=900.0,
                    target="p50 <= 1/2 of stock",
                    holds=True,
                ),
                figure(
                    "admin dashboard, 10,100 pages: admin",
                    300.0,
                    baseline=100.0,
                    target="p50 <= 2x Wagtail's dashboard",
                    holds=False,
                ),
                figure("stage throughput", None, holds=False, unit=""),
            ]
        },
        "postgresql": {
            "figures": [
                figure(
                    "latency: cold detail",
                    9.0,
                    baseline=700.0,
                    target="p50 <= 1/2 of stock",
                    holds=True,
                ),
                figure(
                    "admin dashboard, 10,100 pages: admin",
                    150.0,
                    baseline=100.0,
                    target="p50 <= 2x Wagtail's dashboard",
                    holds=True,
                ),
            ]
        },
    },
}


def test_the_plot_draws_each_figure_on_both_databases(tmp_path):
    results = tmp_path / "results.json"
    results.write_text(json.dumps(SUMMARY), encoding="utf-8")
    out = write_plot(results)
    assert out == tmp_path / "results.svg"
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for name in (
        "latency: cold detail",
        "admin dashboard, 10,100 pages: admin",
        "stage throughput",
    ):
        assert name in text
    assert "SQLite 300 ms (baseline 100) does NOT hold" in text
    assert "PostgreSQL 150 ms (baseline 100) holds" in text
    assert "no value measured" in text
    # Values: a dot per SQLite figure, a diamond per PostgreSQL one (the legend has two of each).
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert titles.count("SQLite: 300 ms") == 1 and titles.count("PostgreSQL: 150 ms") == 1
    assert "target 200 ms" in titles  # 2x the baseline of 100 ms
    # The row whose numbers span 9 to 900 is drawn on a log scale.
    assert "(log)" in text
    # Green where the target holds, red where it does not.
    svg = out.read_text(encoding="utf-8")
    assert "#cf222e" in svg and "#1a7f37" in svg


def test_render_without_figures_is_still_a_document():
    root = ET.fromstring(render({"backends": {}}))
    assert root.tag == f"{SVG}svg"
