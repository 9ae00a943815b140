"""The webhooks panel of the admin dashboard, for operators (whoever may manage webhooks):
per endpoint over the last 30 days, deliveries delivered, retrying and failed, and the median
time a delivered one took, each number leading to the delivery log filtered to it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from cms.ops.charts import BarChart, ChartPanel, ChartRow, PanelLink, Series, number_text

from . import activity
from .models import Delivery

OUTCOMES = [
    ("delivered", _("Delivered"), "positive", Delivery.Status.SUCCEEDED),
    ("waiting", _("Waiting"), "neutral", Delivery.Status.PENDING),
    ("retrying", _("Retrying"), "warning", Delivery.Status.PENDING),
    ("failed", _("Failed"), "critical", Delivery.Status.FAILED),
]


def deliveries_url(**filters: Any) -> str:
    return f"{reverse('webhook_deliveries:index')}?{urlencode(filters)}"


def milliseconds(value: float | None) -> str:
    return "—" if value is None else _("%(ms)s ms") % {"ms": number_text(round(value))}


def endpoint_label(endpoint) -> str:
    label = str(endpoint)
    return label if endpoint.active else _("%(endpoint)s (disabled)") % {"endpoint": label}


def counted_when(counted: activity.Counted) -> str:
    """When the numbers were counted, and how long they are kept, in the admin's time zone."""
    seconds = settings.WEBHOOK_DASHBOARD_SECONDS
    if not seconds:
        return ""
    at = formats.time_format(timezone.localtime(counted.at), "TIME_FORMAT")
    return ngettext(
        "Counted at %(time)s: these numbers are at most %(seconds)s second old.",
        "Counted at %(time)s: these numbers are at most %(seconds)s seconds old.",
        seconds,
    ) % {"time": at, "seconds": seconds}


def webhook_charts(endpoints: list[activity.EndpointActivity]) -> list[BarChart]:
    outcomes = BarChart(
        id="webhook-outcomes",
        title=_("Deliveries per endpoint"),
        row_heading=_("Endpoint"),
        series=[Series(label, tone) for _key, label, tone, _status in OUTCOMES],
        rows=[
            ChartRow(
                label=endpoint_label(row.endpoint),
                values=[getattr(row, key) for key, _label, _tone, _status in OUTCOMES],
                url=reverse("webhook_endpoints:edit", args=[row.endpoint.pk]),
                urls=[
                    deliveries_url(endpoint=row.endpoint.pk, status=status)
                    if getattr(row, key)
                    else ""
                    for key, _label, _tone, status in OUTCOMES
                ],
            )
            for row in endpoints
        ],
        show_total=True,
        total_heading=_("Deliveries"),
        empty_text=_("No webhook endpoint yet."),
    )
    latency = BarChart(
        id="webhook-latency",
        title=_("Median time to deliver"),
        row_heading=_("Endpoint"),
        series=[Series(_("Median time to deliver"), "info")],
        rows=[
            ChartRow(label=endpoint_label(row.endpoint), values=[row.median_ms])
            for row in endpoints
        ],
        format_value=milliseconds,
        empty_text=_("No webhook endpoint yet."),
    )
    return [outcomes, latency]


class WebhookDeliveriesPanel(ChartPanel):
    name = "webhook_deliveries"
    heading = _("Webhooks: the last 30 days")
    order = 130

    def panel_context(self, request) -> Mapping[str, Any]:
        counted = activity.recent_activity()
        return {
            "intro": counted_when(counted),
            "charts": webhook_charts(counted.endpoints),
            "links": [
                PanelLink(_("Webhook endpoints"), reverse("webhook_endpoints:index")),
                PanelLink(_("Webhook deliveries"), reverse("webhook_deliveries:index")),
            ],
        }
