"""How deliveries to each endpoint fared lately: delivered, retrying, failed, and how long a
delivered one took (the median of its last attempt's duration).

For the dashboard's webhooks panel (cms/webhooks/dashboard.py): two queries whatever the number
of deliveries or endpoints, and none while a recent count is kept (`recent_activity`).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import BooleanField, Case, Count, ExpressionWrapper, F, Q, When
from django.utils import timezone

from cms.api.version import CACHE_DOWN

from .models import Delivery, Endpoint

WINDOW_DAYS = 30
SUCCEEDED = Delivery.Status.SUCCEEDED
FAILED = Delivery.Status.FAILED
KEPT_KEY = "webhooks:dashboard-activity"


@dataclass
class EndpointActivity:
    """One endpoint's deliveries created in the window, by where they stand."""

    endpoint: Endpoint
    delivered: int = 0
    retrying: int = 0  # pending after at least one failed attempt
    waiting: int = 0  # pending, not attempted yet
    failed: int = 0
    median_ms: float | None = None


def window_start(days: int = WINDOW_DAYS, now: datetime | None = None) -> datetime:
    return (now or timezone.now()) - timedelta(days=days)


def _median(counted: list[tuple[int, int]]) -> float:
    """The median of values given as (value, how many), in ascending order of value."""
    total = sum(number for _value, number in counted)
    wanted = [(total + 1) // 2, (total + 2) // 2]  # 1-based positions of the middle
    found, seen = [], 0
    for value, number in counted:
        seen += number
        while wanted and wanted[0] <= seen:
            found.append(value)
            wanted.pop(0)
    return sum(found) / len(found)


def activity_by_endpoint(*, since: datetime) -> list[EndpointActivity]:
    """Every endpoint (active or not), with its deliveries created since `since`.

    One pass over the deliveries: the database counts them per endpoint, status, whether they
    were attempted, and (delivered ones) duration in whole milliseconds, which is at most as
    many rows as distinct durations; the medians are found from those counts here, exactly,
    without ranking every delivery.
    """
    counts = (
        Delivery.objects.filter(created_at__gte=since)
        .annotate(
            tried=ExpressionWrapper(Q(attempts__gt=0), output_field=BooleanField()),
            took=Case(When(status=SUCCEEDED, then=F("duration_ms")), default=None),
        )
        .order_by()
        .values_list("endpoint_id", "status", "tried", "took")
        .annotate(deliveries=Count("pk"))
        .order_by("endpoint_id", "took")
    )
    rows = {
        endpoint.pk: EndpointActivity(endpoint=endpoint)
        for endpoint in Endpoint.objects.order_by("url", "pk")
    }
    durations: dict[int, list[tuple[int, int]]] = {}
    for endpoint_id, status, tried, took, number in counts:
        row = rows.get(endpoint_id)
        if row is None:  # an endpoint added since the endpoints were read
            continue
        if status == SUCCEEDED:
            row.delivered += number
            if took is not None:
                durations.setdefault(endpoint_id, []).append((took, number))
        elif status == FAILED:
            row.failed += number
        elif tried:
            row.retrying += number
        else:
            row.waiting += number
    for endpoint_id, counted in durations.items():
        rows[endpoint_id].median_ms = _median(counted)
    return list(rows.values())


@dataclass
class Counted:
    """The window's activity per endpoint, and when it was counted."""

    endpoints: list[EndpointActivity]
    at: datetime


def recent_activity() -> Counted:
    """The last WINDOW_DAYS' activity as counted at most WEBHOOK_DASHBOARD_SECONDS ago.

    Counting is one aggregate over the window's deliveries: about 10 ms a visit with 9,000 of
    them, which put the admin's dashboard over its budget (`make bench`: 2.05x Wagtail's own
    against 2x). Operators read these numbers as trends, so the count is kept in the default
    cache for a short while instead of taken on every visit, and the panel says when it was
    taken. A cache that does not answer only means counting again.
    """
    seconds = settings.WEBHOOK_DASHBOARD_SECONDS
    if seconds:
        try:
            kept = cache.get(KEPT_KEY)
        except CACHE_DOWN:
            kept = None
        if kept is not None:
            return kept
    now = timezone.now()
    counted = Counted(activity_by_endpoint(since=window_start(now=now)), now)
    if seconds:
        with contextlib.suppress(CACHE_DOWN):
            cache.set(KEPT_KEY, counted, seconds)
    return counted
