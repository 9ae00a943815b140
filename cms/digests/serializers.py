"""API representations of the relations between digest pages.

Both fields read the relation prefetched by the pages API (cms.api.prefetch, cms.digests.selectors)
and fall back to
a query of their own elsewhere, so one list response costs the same queries for 10 or 100 pages.
"""

from typing import Any

from cms.api.fields import WholeInstanceField
from cms.api.prefetch import PREFETCHED_PARENT

# The attribute that holds a topic's prefetched public digests (cms.digests.selectors).
PREFETCHED_DIGESTS = "_api_digests"

_MISSING = object()


class TopicRefField(WholeInstanceField):
    """A digest's topic as {id, title, slug}: the parent TopicPage."""

    def to_representation(self, page) -> dict[str, Any] | None:
        topic = getattr(page, PREFETCHED_PARENT, _MISSING)
        if topic is _MISSING:
            topic = page.topic
        if topic is None:
            return None
        return {"id": topic.pk, "title": topic.title, "slug": topic.slug}


class TopicDigestsField(WholeInstanceField):
    """A topic's live, public digests in their editorial order."""

    def to_representation(self, topic) -> list[dict[str, Any]]:
        digests = getattr(topic, PREFETCHED_DIGESTS, _MISSING)
        if digests is _MISSING:
            digests = topic.public_digests()
        return [
            {
                "id": digest.pk,
                "title": digest.title,
                "slug": digest.slug,
                "short_name": digest.short_name,
                "reading_minutes": digest.reading_minutes,
            }
            for digest in digests
        ]
