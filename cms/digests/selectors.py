"""Reads for the public API: batched lookups of the relations between public pages.

Batching matters because a list of 100 digests must cost the same few queries as a list of 10:
a digest's topic and a topic's digests are fetched once per page of results, not once per item.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.db.models import F, Q
from django.db.models.functions import Substr
from wagtail.models import Page

from .serializers import PREFETCHED_DIGESTS


def attach_digests(topics: Sequence[Page], *, public: Q) -> None:
    """Give each topic its public digests in tree order with one query for the whole list."""
    from .models import DigestPage

    by_parent: dict[str, list[DigestPage]] = defaultdict(list)
    if topics:
        digests = (
            DigestPage.objects.filter(
                public,
                depth__in={topic.depth + 1 for topic in topics},
            )
            .annotate(parent_path=Substr("path", 1, (F("depth") - 1) * Page.steplen))
            .filter(parent_path__in={topic.path for topic in topics})
            .only("id", "title", "slug", "path", "depth", "short_name", "reading_minutes")
            .order_by("path")
        )
        for digest in digests:
            by_parent[digest.parent_path].append(digest)
    for topic in topics:
        setattr(topic, PREFETCHED_DIGESTS, by_parent.get(topic.path, []))
