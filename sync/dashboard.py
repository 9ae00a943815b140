"""The sync's panels on the admin dashboard (registered in sync/wagtail_hooks.py: no cms module
may import sync, so the sync adds its own), for editors and operators (whoever may sync papers).

- Sync activity: per source over the last 30 days, requests sent, papers changed and errors,
  drawn as three small charts with their tables, and the last run's status.
- Papers that need a person: update notices to acknowledge and sync errors waiting will not
  fix, while there are any.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from cms.ops.charts import BarChart, ChartPanel, ChartRow, PanelLink, Series
from cms.papers.notice_types import type_label

from . import activity, attention, display
from .models import SyncRun
from .sources import display_name

RUN_STATUS_CLASSES = {
    SyncRun.Status.FINISHED: "w-status--primary",
    SyncRun.Status.FAILED: "w-status--critical",
}


def notices_report_url(update_type: str = "") -> str:
    """The editors' notices report, showing the notices not yet acknowledged (of one type)."""
    query = {"acknowledged": "false", **({"update_type": update_type} if update_type else {})}
    return f"{reverse('papers_notices_report')}?{urlencode(query)}"


def papers_with_errors_url() -> str:
    return f"{reverse('sync_papers')}?{urlencode({'sync_state__failed_attempts__gt': 0})}"


def activity_charts(sources: list[activity.SourceActivity]) -> list[BarChart]:
    """Three charts, one per measure, each on its own scale (requests outnumber errors)."""
    errors_url = papers_with_errors_url()

    def chart(key: str, title, tone: str, *, link: str = "") -> BarChart:
        return BarChart(
            id=f"sync-activity-{key.replace('_', '-')}",
            title=title,
            row_heading=_("Source"),
            series=[Series(title, tone)],
            rows=[
                ChartRow(
                    label=display_name(source.source),
                    values=[getattr(source, key)],
                    urls=[link if link and getattr(source, key) else ""],
                )
                for source in sources
            ],
        )

    return [
        chart("requests", _("Requests"), "info"),
        chart("papers_changed", _("Papers changed"), "positive"),
        chart("errors", _("Errors"), "critical", link=errors_url),
    ]


class SyncActivityPanel(ChartPanel):
    name = "sync_activity"
    heading = _("Metadata sync: the last 30 days")
    template_name = "sync/dashboard_activity.html"
    order = 120

    def panel_context(self, request) -> Mapping[str, Any]:
        sources = activity.activity_by_source(since=activity.window_start())
        run = activity.last_run()
        context: dict[str, Any] = {
            "charts": activity_charts(sources),
            "links": [
                PanelLink(_("Sync runs"), reverse("sync_runs")),
                PanelLink(_("Papers: sync state"), reverse("sync_papers")),
            ],
            "run": run,
        }
        if run is not None:
            context.update(
                run_url=reverse("sync_run", args=[run.pk]),
                run_status=run.status_label,
                run_status_class=RUN_STATUS_CLASSES.get(run.status, ""),
                run_started=display.readable_datetime(run.started_at),
            )
        return context


class PapersNeedingAPersonPanel(ChartPanel):
    """Papers with update notices nobody acknowledged or sync errors waiting will not fix
    (sync/attention.py), for those who may edit papers; shown only while there is any. Each
    paper leads to its editor; the papers' sync screen lists every failed one."""

    name = "papers_needing_a_person"
    heading = _("Papers that need a person")
    template_name = "sync/dashboard_attention.html"
    order = 80  # first: this is work waiting

    def panel_context(self, request) -> Mapping[str, Any]:
        found = attention.needing_a_person()
        errors_url = papers_with_errors_url()
        rows = []
        for update_type, label, papers in found.by_notice_type:
            url = notices_report_url(update_type)
            rows.append(
                ChartRow(label=type_label(update_type, label), values=[papers], url=url, urls=[url])
            )
        if found.papers_with_errors:
            rows.append(
                ChartRow(
                    label=_("Sync error, not retried automatically"),
                    values=[found.papers_with_errors],
                    url=errors_url,
                    urls=[errors_url],
                )
            )
        chart = BarChart(
            id="papers-needing-a-person",
            title=_("Papers per reason"),
            row_heading=_("Reason"),
            series=[Series(_("Papers"), "critical")],
            rows=rows,
        )
        return {
            "intro": ngettext(
                "%(count)s paper has an update notice to acknowledge or a sync error to look at.",
                "%(count)s papers have an update notice to acknowledge or a sync error to look at.",
                found.papers,
            )
            % {"count": found.papers},
            "charts": [chart],
            "notices": [
                {
                    "notice": notice,
                    "type": type_label(notice.update_type, notice.label),
                    "edit_url": reverse(
                        "wagtailsnippets_papers_paper:edit", args=[notice.paper_id]
                    ),
                    "date": display.readable_datetime(notice.updated_on or notice.first_seen_at),
                }
                for notice in found.notices
            ],
            "more_notices": max(
                0, sum(n for _type, _label, n in found.by_notice_type) - len(found.notices)
            ),
            "errors": [
                {
                    "state": state,
                    "edit_url": reverse("wagtailsnippets_papers_paper:edit", args=[state.paper_id]),
                    "sync_url": reverse("sync_paper", args=[state.paper_id]),
                    "date": display.readable_datetime(state.run.started_at if state.run else None),
                }
                for state in found.errors
            ],
            "more_errors": max(0, found.papers_with_errors - len(found.errors)),
            "links": [
                *(
                    [PanelLink(_("Retracted and corrected papers"), notices_report_url())]
                    if found.notices
                    else []
                ),
                *(
                    [PanelLink(_("Papers with sync errors"), errors_url)]
                    if found.papers_with_errors
                    else []
                ),
            ],
        }
