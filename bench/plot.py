"""`make bench`'s figures drawn: each against its target and its baseline, on both databases.

`python -m bench.plot [results.json [out.svg]]` redraws a plot from a results file; `make bench`
writes `var/bench/results.svg` beside `var/bench/results.json` (bench/__main__.py).

One row per figure, each on a scale of its own (figures are in ms, req/s, queries, MB, s):
the value on each database (a dot for SQLite, a diamond for PostgreSQL; green where the target
holds, red where it does not), its baseline (the same shape, hollow), and the target as a
dashed line with the side that holds shaded. A row whose numbers span more than a factor of
30 (ours against stock Wagtail, often) is drawn on a log scale, and says so. The target is
read from the figure's text ("<= 12", "p50 <= 1/4 of stock", ">= 1/2 of floor", "<= 1.2x
ceiling"): relative targets are taken against the figure's own baseline.

Plain SVG written here rather than a plotting library: the drawing is a few dozen shapes
per row, and `make install` stays free of matplotlib and numpy; the file is text, readable in
any browser and diffable in a commit.
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

BACKENDS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
WIDTH = 1280
LABEL_WIDTH = 470
PLOT_LEFT = LABEL_WIDTH + 20
PLOT_WIDTH = 520
TEXT_LEFT = PLOT_LEFT + PLOT_WIDTH + 24
ROW_HEIGHT = 46
TOP = 96
LOG_SPAN = 30
COLOURS = {True: "#1a7f37", False: "#cf222e", None: "#6e7781"}
BASELINE = "#57606a"
NUMBER = r"(\d[\d,]*(?:\.\d+)?)"


@dataclass(frozen=True)
class Target:
    value: float
    at_most: bool  # the value must be at most this (else at least)


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def target_of(figure: dict[str, Any]) -> Target | None:
    """The figure's target as a number in its unit, read from its text; None if it has none."""
    text = figure.get("target") or ""
    baseline = figure.get("baseline")
    if text.startswith("all "):
        found = re.match(rf"all {NUMBER}", text)
        return Target(_number(found.group(1)), at_most=False) if found else None
    if "its limit" in text and baseline is not None:
        return Target(float(baseline), at_most="<" in text)
    direction = re.search(r"(<=|<|>=|>)", text)
    if direction is None:
        return None
    at_most = direction.group(1).startswith("<")
    rest = text[direction.end() :]
    fraction = re.match(rf"\s*{NUMBER}\s*/\s*{NUMBER}\s+of\b", rest)
    if fraction and baseline is not None:
        return Target(baseline * _number(fraction.group(1)) / _number(fraction.group(2)), at_most)
    times = re.match(rf"\s*{NUMBER}\s*x\b", rest)
    if times and baseline is not None:
        return Target(baseline * _number(times.group(1)), at_most)
    pro_rata = re.search(rf"\({NUMBER} s pro rata\)", text)
    if pro_rata:
        return Target(_number(pro_rata.group(1)), at_most)
    absolute = re.match(rf"\s*{NUMBER}", rest)
    if absolute and not fraction and not times:
        return Target(_number(absolute.group(1)), at_most)
    return None


@dataclass
class Scale:
    low: float
    high: float
    log: bool

    def x(self, value: float) -> float:
        if self.log:
            span = math.log10(self.high) - math.log10(self.low)
            share = (math.log10(max(value, self.low)) - math.log10(self.low)) / span
        else:
            share = (value - self.low) / (self.high - self.low)
        return PLOT_LEFT + max(0.0, min(1.0, share)) * PLOT_WIDTH


def scale_for(numbers: list[float]) -> Scale | None:
    numbers = [n for n in numbers if n is not None and math.isfinite(n)]
    if not numbers:
        return None
    low, high = min(numbers), max(numbers)
    if low > 0 and high / low > LOG_SPAN:
        return Scale(low / 1.5, high * 1.5, log=True)
    return Scale(min(0.0, low), (high or 1) * 1.15, log=False)


def short(value: float | None) -> str:
    if value is None:
        return "-"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _marker(shape: str, x: float, y: float, colour: str, *, hollow: bool, title: str) -> str:
    fill = "none" if hollow else colour
    tip = f"<title>{escape(title)}</title>"
    if shape == "circle":
        return (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{fill}" stroke="{colour}" '
            f'stroke-width="2">{tip}</circle>'
        )
    points = f"{x:.1f},{y - 7:.1f} {x + 7:.1f},{y:.1f} {x:.1f},{y + 7:.1f} {x - 7:.1f},{y:.1f}"
    return (
        f'<polygon points="{points}" fill="{fill}" stroke="{colour}" stroke-width="2">'
        f"{tip}</polygon>"
    )


SHAPES = {"sqlite": "circle", "postgresql": "diamond"}


def _row(index: int, name: str, by_backend: dict[str, dict[str, Any]]) -> list[str]:
    top = TOP + index * ROW_HEIGHT
    middle = top + ROW_HEIGHT / 2
    first = next(iter(by_backend.values()))
    unit = first.get("unit") or ""
    parts = []
    if index % 2 == 0:
        parts.append(
            f'<rect x="0" y="{top}" width="{WIDTH}" height="{ROW_HEIGHT}" fill="#f6f8fa"/>'
        )
    title = name if len(name) <= 68 else name[:66] + "…"
    parts.append(
        f'<text x="12" y="{middle - 4:.1f}" class="name">{escape(title)}'
        f"<title>{escape(name)}</title></text>"
    )
    parts.append(
        f'<text x="12" y="{middle + 13:.1f}" class="small">'
        f"target: {escape(first.get('target') or 'none')}"
        f"{' · ' + escape(unit) if unit else ''}</text>"
    )
    targets = {backend: target_of(figure) for backend, figure in by_backend.items()}
    numbers = []
    for backend, figure in by_backend.items():
        numbers += [figure.get("value"), figure.get("baseline")]
        if targets[backend]:
            numbers.append(targets[backend].value)
    scale = scale_for(numbers)
    if scale is None:
        parts.append(
            f'<text x="{PLOT_LEFT}" y="{middle + 4:.1f}" class="small">no value measured</text>'
        )
        return parts
    parts.append(
        f'<line x1="{PLOT_LEFT}" y1="{middle:.1f}" x2="{PLOT_LEFT + PLOT_WIDTH}" '
        f'y2="{middle:.1f}" stroke="#d0d7de"/>'
    )
    axis = f"{short(scale.low)} to {short(scale.high)} {unit}{' (log)' if scale.log else ''}"
    parts.append(
        f'<text x="{PLOT_LEFT + PLOT_WIDTH}" y="{top + 12}" class="axis" '
        f'text-anchor="end">{escape(axis)}</text>'
    )
    for target in {t for t in targets.values() if t}:
        x = scale.x(target.value)
        band_x, band_width = (
            (PLOT_LEFT, x - PLOT_LEFT) if target.at_most else (x, PLOT_LEFT + PLOT_WIDTH - x)
        )
        parts.append(
            f'<rect x="{band_x:.1f}" y="{top + 6}" width="{max(band_width, 0):.1f}" '
            f'height="{ROW_HEIGHT - 12}" fill="#1a7f37" fill-opacity="0.08"/>'
        )
        parts.append(
            f'<line x1="{x:.1f}" y1="{top + 4}" x2="{x:.1f}" y2="{top + ROW_HEIGHT - 4}" '
            f'stroke="#1a7f37" stroke-width="2" stroke-dasharray="4 3">'
            f"<title>target {short(target.value)} {escape(unit)}</title></line>"
        )
    texts = []
    for backend, figure in by_backend.items():
        shape = SHAPES.get(backend, "circle")
        label = BACKENDS.get(backend, backend)
        if figure.get("baseline") is not None:
            parts.append(
                _marker(
                    shape,
                    scale.x(figure["baseline"]),
                    middle,
                    BASELINE,
                    hollow=True,
                    title=f"{label} baseline ({figure.get('baseline_name') or 'baseline'}): "
                    f"{short(figure['baseline'])} {unit}",
                )
            )
        if figure.get("value") is not None:
            colour = COLOURS[figure.get("holds")]
            parts.append(
                _marker(
                    shape,
                    scale.x(figure["value"]),
                    middle,
                    colour,
                    hollow=False,
                    title=f"{label}: {short(figure['value'])} {unit}",
                )
            )
        verdict = {True: "holds", False: "does NOT hold", None: ""}[figure.get("holds")]
        baseline = figure.get("baseline")
        against = f" (baseline {short(baseline)})" if baseline is not None else ""
        texts.append(f"{label} {short(figure.get('value'))} {unit}{against} {verdict}".strip())
    for number, text in enumerate(texts):
        y = middle - 4 + number * 16 - (len(texts) - 1) * 4
        parts.append(f'<text x="{TEXT_LEFT}" y="{y:.1f}" class="small">{escape(text)}</text>')
    return parts


def render(summary: dict[str, Any]) -> str:
    """The plot of a results.json summary, as an SVG document."""
    backends = summary.get("backends", {})
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    for backend, result in backends.items():
        for figure in result.get("figures", []):
            rows.setdefault(figure["name"], {})[backend] = figure
    height = TOP + len(rows) * ROW_HEIGHT + 24
    held = sum(1 for by in rows.values() for f in by.values() if f.get("holds") is True)
    failed = sum(1 for by in rows.values() for f in by.values() if f.get("holds") is False)
    names = ", ".join(BACKENDS.get(b, b) for b in backends)
    heading = f"make bench, {summary.get('generated_at', '')}: {names}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="title desc">',
        f'<title id="title">{escape(heading)}</title>',
        f'<desc id="desc">{len(rows)} figures; targets held {held}, not held {failed}. '
        "Each row: the value on each database, its baseline (hollow), the target (dashed, "
        "the side that holds shaded).</desc>",
        "<style>text{font-family:system-ui,sans-serif;fill:#1f2328}"
        ".name{font-size:13px}.small{font-size:11px;fill:#57606a}"
        ".axis{font-size:10px;fill:#6e7781}.heading{font-size:18px;font-weight:600}</style>",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="12" y="30" class="heading">{escape(heading)}</text>',
        f'<text x="12" y="52" class="small">targets held: {held}, not held: {failed}. '
        "Each row has its own scale.</text>",
    ]
    legend_x = 12
    for backend in backends or BACKENDS:
        label = BACKENDS.get(backend, backend)
        shape = SHAPES.get(backend, "circle")
        parts.append(_marker(shape, legend_x + 6, 74, COLOURS[True], hollow=False, title=label))
        parts.append(_marker(shape, legend_x + 22, 74, BASELINE, hollow=True, title="baseline"))
        parts.append(
            f'<text x="{legend_x + 34}" y="78" class="small">{label}: value, baseline</text>'
        )
        legend_x += 200
    parts.append(
        f'<line x1="{legend_x + 6}" y1="66" x2="{legend_x + 6}" y2="82" stroke="#1a7f37" '
        'stroke-width="2" stroke-dasharray="4 3"/>'
    )
    parts.append(
        f'<text x="{legend_x + 14}" y="78" class="small">target (the side that holds shaded); '
        "red: target not held</text>"
    )
    for index, (name, by_backend) in enumerate(rows.items()):
        parts += _row(index, name, by_backend)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_plot(results_path: Path, out_path: Path | None = None) -> Path:
    """Draw `results_path` (a results.json) into `out_path` (beside it, .svg, by default)."""
    out_path = out_path or results_path.with_suffix(".svg")
    summary = json.loads(results_path.read_text(encoding="utf-8"))
    out_path.write_text(render(summary), encoding="utf-8")
    return out_path


def main(argv: list[str]) -> None:
    root = Path(__file__).resolve().parent.parent
    results = Path(argv[0]) if argv else root / "var" / "bench" / "results.json"
    out = write_plot(results, Path(argv[1]) if len(argv) > 1 else None)
    print(out)


if __name__ == "__main__":
    main(sys.argv[1:])
