"""Reads for the public API: batched lookups of the relations between public pages.

Batching matters because a list of 100 digests must cost the same few queries as a list of 10:
a digest's topic and a topic's digests are fetched once per page of results, not once per item.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db.models import F, Q
from django.db.models.functions import Substr
from wagtail.models import Page

if TYPE_CHECKING:
    from .visibility import PublicRule

# Attributes that hold prefetched relations on page instances (read by cms.digests.serializers
# and cms.api.serializers).
PREFETCHED_PARENT = "_api_parent"
PREFETCHED_DIGESTS = "_api_digests"


def parent_path(page: Page) -> str:
    return page.path[: -page.steplen]


# What `meta.parent` (id, type, detail and html URLs, title) and a digest's `topic` (id, title,
# slug) read of a parent page.
PARENT_FIELDS = ("id", "title", "slug", "path", "depth", "url_path", "content_type")
# What PublicRule.public_among reads of a page.
RULE_FIELDS = ("live", "path", "alias_of", "locale")


def attach_public_parents(pages: Sequence[Page], *, rule: PublicRule) -> None:
    """Give each page its parent if the parent is public, else None, with one query for all.

    `meta.parent` and a digest's `topic` (its parent) both read it: Wagtail's parent field
    would read the parent, then ask whether it is public, in two queries a page.
    """
    wanted = {parent_path(page) for page in pages}
    parents = Page.objects.filter(path__in=wanted).only(*PARENT_FIELDS, *RULE_FIELDS).order_by()
    parents = {parent.path: parent for parent in rule.public_among(parents)}
    for page in pages:
        setattr(page, PREFETCHED_PARENT, parents.get(parent_path(page)))


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
