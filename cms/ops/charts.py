"""Charts for admin dashboard panels: server-rendered SVG bars over the table of their numbers.

Rendered on the server as plain SVG, so nothing is fetched from another host and no script
runs (the admin's Content-Security-Policy, cms/ops/csp.py, allows only this site), and a panel
costs what its queries cost. Each chart is two views of one `BarChart`: the table is the data
(headers, links, every number, read by screen readers and keyboards), the bars draw the same
numbers for the eye and are hidden from assistive technology (`aria-hidden`, and their row
labels' links are out of the tab order; the table's links are the ones to tab to).

Every app may use it: `ChartPanel` is a Wagtail `Component` for the `construct_homepage_panels`
hook; a panel's app computes its numbers (in a constant number of queries) and hands over
`BarChart`s. The bars take Wagtail's own colours (its CSS custom properties, so its dark theme
too), the table Wagtail's `listing` classes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.forms import Media
from django.utils import formats
from django.utils.translation import gettext
from wagtail.admin.ui.components import Component

# The colours a series may take (ops/charts.css maps each to a Wagtail colour).
TONES = ("positive", "info", "warning", "critical", "neutral", "primary")
# A bar's length in the SVG's own units; the SVG stretches to its box (preserveAspectRatio).
BAR_LENGTH = 100
# A value above zero is never drawn thinner than this, so it stays visible beside large ones.
MIN_SEGMENT = 0.6


def number_text(value: float | int | None) -> str:
    """A number as the admin's language writes it (grouped thousands); a dash for none."""
    if value is None:
        return "—"
    if isinstance(value, float) and not value.is_integer():
        return formats.number_format(value, decimal_pos=1, use_l10n=True, force_grouping=True)
    return formats.number_format(int(value), use_l10n=True, force_grouping=True)


@dataclass(frozen=True)
class Series:
    """One kind of value in a chart: a column of its table, a colour of its bars."""

    label: str
    tone: str = "info"

    def __post_init__(self) -> None:
        if self.tone not in TONES:
            raise ValueError(f"tone {self.tone!r} is not one of {TONES}")


@dataclass(frozen=True)
class Cell:
    """One value of a row, with the text the table shows and where it leads, if anywhere."""

    value: float | int | None
    text: str
    url: str = ""


@dataclass
class ChartRow:
    """A row of the table and its bar: a label, one value per series, optional links.

    `urls` (one per series, "" for none) link the table's numbers, e.g. into a filtered
    listing; `extra` are further cells after the series (a median, a status), shown as given.
    """

    label: str
    values: Sequence[float | int | None]
    url: str = ""
    urls: Sequence[str] = ()
    extra: Sequence[str] = ()

    @property
    def total(self) -> float:
        return sum(value or 0 for value in self.values)


@dataclass
class BarChart:
    """Horizontal bars, stacked when there is more than one series, and their table.

    `title` is the table's caption; `row_heading` the heading of its first column;
    `extra_headings` name the rows' `extra` cells. `show_total` adds a Total column (and the
    total at the end of each bar), for series that add up (pages by status, deliveries by
    outcome), not for ones that do not (a count beside a median).
    """

    title: str
    row_heading: str
    series: Sequence[Series]
    rows: Sequence[ChartRow]
    extra_headings: Sequence[str] = ()
    show_total: bool = False
    total_heading: str = ""
    empty_text: str = ""
    format_value: Callable[[float | int | None], str] = number_text
    # Bars are drawn against this; by default the largest row total, so rows compare.
    scale: float | None = None
    id: str = ""

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row.values) != len(self.series):
                raise ValueError(
                    f"row {row.label!r}: {len(row.values)} values for {len(self.series)} series"
                )

    @property
    def stacked(self) -> bool:
        return len(self.series) > 1

    @property
    def headings(self) -> list[str]:
        names = [str(series.label) for series in self.series]
        if self.show_total:
            names.append(str(self.total_heading))
        return [*names, *(str(heading) for heading in self.extra_headings)]

    @cached_property
    def table_rows(self) -> list[dict[str, Any]]:
        """The table: each row's label, link, and cells (the series, the total, the extras)."""
        rows = []
        for row in self.rows:
            urls = list(row.urls) + [""] * (len(self.series) - len(row.urls))
            cells = [
                Cell(value, self.format_value(value), url)
                for value, url in zip(row.values, urls, strict=True)
            ]
            if self.show_total:
                cells.append(Cell(row.total, self.format_value(row.total)))
            cells += [Cell(None, str(text)) for text in row.extra]
            rows.append({"label": row.label, "url": row.url, "cells": cells})
        return rows

    @cached_property
    def bars(self) -> list[dict[str, Any]]:
        """The bars: per row, its segments' positions and lengths in the SVG's units."""
        scale = self.scale or max((row.total for row in self.rows), default=0)
        drawn = []
        for row in self.rows:
            parts = [
                (series, value, max(MIN_SEGMENT, value / scale * BAR_LENGTH))
                for series, value in zip(self.series, row.values, strict=True)
                if value and scale
            ]
            # Widened small values may overrun the bar: all segments give way in proportion.
            fit = min(1.0, BAR_LENGTH / sum(width for _s, _v, width in parts)) if parts else 1
            segments, x = [], 0.0
            for series, value, width in parts:
                segments.append(
                    {
                        "x": round(x, 3),
                        "width": round(width * fit, 3),
                        "tone": series.tone,
                        "label": gettext("%(series)s: %(value)s")
                        % {"series": series.label, "value": self.format_value(value)},
                    }
                )
                x += width * fit
            shown = row.total if self.stacked or self.show_total else row.values[0]
            drawn.append(
                {
                    "label": row.label,
                    "url": row.url,
                    "segments": segments,
                    "text": self.format_value(shown),
                }
            )
        return drawn


@dataclass
class PanelLink:
    label: str
    url: str


class ChartPanel(Component):
    """A dashboard panel of charts in Wagtail's admin look, for `construct_homepage_panels`.

    Subclasses set `name` (the panel's id), `heading` and `order`, and return the panel's
    context from `panel_context(request)`: `charts` (BarCharts, side by side on wide screens)
    and optionally `intro` (a sentence above them) and `links` (PanelLinks below). A subclass
    may extend the template (`ops/charts/panel.html`) through its `before_charts` and
    `after_charts` blocks.
    """

    template_name = "ops/charts/panel.html"
    heading = ""
    order = 200

    @property
    def media(self) -> Media:
        return Media(css={"all": ["ops/charts.css"]})

    def panel_context(self, request) -> Mapping[str, Any]:
        raise NotImplementedError

    def get_context_data(self, parent_context: Mapping[str, Any]) -> Mapping[str, Any]:
        context = dict(super().get_context_data(parent_context))
        request = parent_context["request"]
        context.update(
            {
                "request": request,
                "panel_id": self.name.replace("_", "-"),
                "heading": self.heading,
                "charts": [],
                "links": [],
                "intro": "",
            }
        )
        context.update(self.panel_context(request))
        return context
