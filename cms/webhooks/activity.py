"""How deliveries to each endpoint fared lately: delivered, retrying, failed, and how long a
delivered one took (the median of its last attempt's duration).

For the dashboard's webhooks panel (cms/webhooks/dashboard.py): two queries whatever the number
of deliveries or endpoints.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import BooleanField, Case, Count, ExpressionWrapper, F, Q, When
from django.utils import timezone

from .models import Delivery, Endpoint

WINDOW_DAYS = 30
SUCCEEDED = Delivery.Status.SUCCEEDED
FAILED = Delivery.Status.FAILED


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
