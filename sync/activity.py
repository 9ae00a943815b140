"""What the sync did lately, per source: requests sent, papers changed, errors; and its last run.

For the dashboard's sync panel (sync/dashboard.py). Counted in SQL from the rows the runs write
(SourceRequests, PaperChange, SyncError), grouped by source, in four queries whatever the number
of runs, papers or errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Sum
from django.utils import timezone

from .models import PaperChange, SourceRequests, SyncError, SyncRun

WINDOW_DAYS = 30


@dataclass
class SourceActivity:
    """One source's share of the runs started in the window."""

    source: str
    requests: int = 0
    papers_changed: int = 0
    errors: int = 0


def window_start(days: int = WINDOW_DAYS, now: datetime | None = None) -> datetime:
    return (now or timezone.now()) - timedelta(days=days)


def activity_by_source(*, since: datetime) -> list[SourceActivity]:
    """Per source, over the runs started since `since`: requests sent to it, papers it changed
    (a paper counted once however many of its fields or runs), errors it answered.

    The configured sources come first, in settings order, each listed even when idle; any
    other name the runs recorded (an error of the worker itself) follows, by name.
    """
    in_window = {"run__started_at__gte": since}
    requests = dict(
        SourceRequests.objects.filter(**in_window)
        .order_by()
        .values("source")
        .annotate(total=Sum("requests"))
        .values_list("source", "total")
    )
    changed = dict(
        PaperChange.objects.filter(**in_window)
        .order_by()
        .values("source")
        .annotate(papers=Count("paper_id", distinct=True))
        .values_list("source", "papers")
    )
    errors = dict(
        SyncError.objects.filter(**in_window)
        .order_by()
        .values("source")
        .annotate(count=Count("pk"))
        .values_list("source", "count")
    )
    configured = list(settings.SYNC_SOURCES)
    others = sorted((set(requests) | set(changed) | set(errors)) - set(configured))
    return [
        SourceActivity(
            source=name,
            requests=requests.get(name, 0),
            papers_changed=changed.get(name, 0),
            errors=errors.get(name, 0),
        )
        for name in [*configured, *others]
    ]


def last_run() -> SyncRun | None:
    """The run started last, of any kind."""
    return SyncRun.objects.order_by("-started_at", "-pk").first()
