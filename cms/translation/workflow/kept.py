"""The translator's queue's answers kept between requests, for the admin dashboard's panels.

The queue is one query over every English page and its translation's wagtail-localize rows:
tens of milliseconds with thousands of pages, on every visit to the dashboard. Its answers are
kept in the default cache (cms.api.version's `read_through`) under two things that change with
everything it reads:

- the content version, which every write to pages and to wagtail-localize's rows bumps once
  it commits (publishes, moves, deletions, syncs, translated strings: cms.apicache's staleness
  map), as it does for the API's cached responses;
- the newest revision's id, which a saved draft changes: drafts change the queue (a draft of a
  translation is "changes not yet published") but not the API, so they bump no version.

Kept as long as the API's cached responses are (API_RESPONSE_CACHE_SECONDS; 0 keeps nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from wagtail.models import Revision

from cms.api.version import VERSION_KEY, read_through

T = TypeVar("T")


def kept(name: str, compute: Callable[[], T]) -> T:
    """`compute()`'s answer, kept under `name` until a write or a draft changes what it read."""
    newest = Revision.objects.order_by("-pk").values_list("pk", flat=True).first()
    return read_through(
        f"translation-queue:{name}:{newest}",
        VERSION_KEY,
        compute,
        settings.API_RESPONSE_CACHE_SECONDS,
    )
