"""The admin dashboard as tests read it: its panels, and each chart's table (cms/ops/charts.py)."""

from __future__ import annotations

from bs4 import BeautifulSoup
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext


def dashboard_html(client, user) -> str:
    client.force_login(user)
    response = client.get("/admin/")
    assert response.status_code == 200
    return response.content.decode()


def panel_ids(html: str) -> set[str]:
    """The ids of the dashboard's panels (Wagtail's `<section id="<name>-section">`)."""
    soup = BeautifulSoup(html, "html.parser")
    return {
        section["id"].removesuffix("-section")
        for section in soup.select("section.w-panel[id$='-section']")
    }


def chart_table(html: str, chart_id: str) -> dict[str, dict[str, str]]:
    """{row label: {column heading: cell text}} of the chart's table; {} when it has no rows."""
    soup = BeautifulSoup(html, "html.parser")
    chart = soup.select_one(f".w-chart[data-chart='{chart_id}']")
    assert chart is not None, f"no chart {chart_id!r} on the page"
    table = chart.select_one("table")
    if table is None:
        return {}
    headings = [th.get_text(strip=True) for th in table.select("thead th")][1:]
    rows = {}
    for tr in table.select("tbody tr"):
        label = tr.select_one("th").get_text(strip=True)
        cells = [td.get_text(strip=True) for td in tr.select("td")]
        rows[label] = dict(zip(headings, cells, strict=True))
    return rows


def chart_links(html: str, chart_id: str) -> dict[str, list[str]]:
    """{row label: the links of the row's cells, in order} of the chart's table."""
    soup = BeautifulSoup(html, "html.parser")
    chart = soup.select_one(f".w-chart[data-chart='{chart_id}']")
    return {
        tr.select_one("th").get_text(strip=True): [a["href"] for a in tr.select("td a")]
        for tr in chart.select("table tbody tr")
    }


def panel_queries(panel, user) -> int:
    """How many queries rendering `panel` for `user` costs, in a request of its own (the user
    loaded afresh, as each request does: no permission or role cache kept from before)."""
    request = RequestFactory().get("/admin/")
    request.user = type(user).objects.get(pk=user.pk)
    with CaptureQueriesContext(connection) as queries:
        panel.render_html({"request": request})
    return len(queries)
