"""How deliveries to each endpoint fared lately: delivered, retrying, failed, and how long a
delivered one took (the median of its last attempt's duration).

For the dashboard's webhooks panel (cms/webhooks/dashboard.py): two queries whatever the number
of deliveries, the counts in one, the medians in the other (window functions rank each
endpoint's durations, and only the one or two middle rows come back).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from .models import Delivery, Endpoint

WINDOW_DAYS = 30
PENDING = Delivery.Status.PENDING
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


def median_durations(deliveries) -> dict[int, float]:
    """{endpoint id: median duration in ms} of `deliveries` that have a duration, in one query."""
    ranked = deliveries.filter(duration_ms__isnull=False).annotate(
        position=Window(RowNumber(), partition_by=[F("endpoint_id")], order_by=F("duration_ms").asc()),
        count=Window(Count("pk"), partition_by=[F("endpoint_id")]),
    )
    # The middle row of an odd count, the two middle rows of an even one (integer division).
    middle = ranked.filter(
        position__gte=(F("count") + 1) / 2, position__lte=(F("count") + 2) / 2
    ).values_list("endpoint_id", "duration_ms")
    found: dict[int, list[int]] = {}
    for endpoint_id, duration in middle:
        found.setdefault(endpoint_id, []).append(duration)
    return {endpoint_id: sum(values) / len(values) for endpoint_id, values in found.items()}


def activity_by_endpoint(*, since: datetime) -> list[EndpointActivity]:
    """Every endpoint (active or not), with its deliveries created since `since`."""
    window = Q(deliveries__created_at__gte=since)
    endpoints = Endpoint.objects.annotate(
        delivered=Count("deliveries", filter=window & Q(deliveries__status=SUCCEEDED)),
        failed=Count("deliveries", filter=window & Q(deliveries__status=FAILED)),
        retrying=Count(
            "deliveries", filter=window & Q(deliveries__status=PENDING, deliveries__attempts__gt=0)
        ),
        waiting=Count(
            "deliveries", filter=window & Q(deliveries__status=PENDING, deliveries__attempts=0)
        ),
    ).order_by("url", "pk")
    medians = median_durations(Delivery.objects.filter(created_at__gte=since, status=SUCCEEDED))
    return [
        EndpointActivity(
            endpoint=endpoint,
            delivered=endpoint.delivered,
            retrying=endpoint.retrying,
            waiting=endpoint.waiting,
            failed=endpoint.failed,
            median_ms=medians.get(endpoint.pk),
        )
        for endpoint in endpoints
    ]
