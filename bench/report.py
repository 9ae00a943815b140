"""Figures, the printed table and var/bench/results.json."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Figure:
    """One measured figure with its baseline from the same run, and whether its target holds."""

    name: str
    unit: str
    value: float | None
    target: str = ""
    holds: bool | None = None
    p90: float | None = None
    baseline: float | None = None
    baseline_name: str = ""
    ratio: float | None = None
    note: str = ""

    def line(self) -> str:
        return " | ".join(_cells(vars(self)))


def _number(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.1f}" if abs(value) >= 10 else f"{value:.3g}"
    return f"{value:,}"


def _cells(figure: dict[str, Any]) -> list[str]:
    holds = {True: "yes", False: "NO", None: ""}[figure["holds"]]
    ratio = figure["ratio"]
    ratio_text = (
        "-" if ratio is None else (f"1/{1 / ratio:.1f}" if 0 < ratio < 1 else f"{ratio:.2f}")
    )
    baseline = _number(figure["baseline"])
    if figure["baseline_name"] and figure["baseline"] is not None:
        baseline = f"{baseline} ({figure['baseline_name']})"
    return [
        figure["name"],
        f"{_number(figure['value'])} {figure['unit']}",
        _number(figure["p90"]),
        baseline,
        ratio_text,
        figure["target"],
        holds,
    ]


HEADER = ["figure", "median", "p90", "baseline", "ratio", "target", "holds"]


def table(backend: str, figures: list[dict[str, Any]]) -> str:
    rows = [HEADER, *[_cells(figure) for figure in figures]]
    lines = [f"### {backend}", "", "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    return "\n".join(lines)
