"""How much of each topic is translated: its live English pages counted by where they stand.

A page's standing is the translator's queue's (cms.translation.workflow.queue): the queue is the
one place that decides it. The four groups a dashboard shows fold the queue's states:

- untranslated: no page in the language yet (the queue's "not translated");
- out of date: the English page was published after its translation was synced or published;
- being translated: a draft not yet published, texts filled in automatically and not reviewed,
  or reviewed changes not yet published;
- up to date: live and not in the queue.

Counted in SQL, grouped by topic (the page at the top of each branch of the language's tree,
the topic page itself included), in three queries whatever the number of pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count
from django.db.models.functions import Substr
from django.utils.translation import gettext_lazy as _
from wagtail.models import Page

from cms.translation.languages import (
    LANGUAGE_ROOT_DEPTH,
    SOURCE_LANGUAGE,
    TARGET_LANGUAGE,
    translatable_pages,
)
from cms.translation.workflow.queue import (
    CHANGES_NOT_PUBLISHED,
    NOT_PUBLISHED,
    NOT_TRANSLATED,
    OUT_OF_DATE,
    TO_REVIEW,
    translation_queue,
)

UP_TO_DATE = "up_to_date"
OUT_OF_DATE_GROUP = "out_of_date"
BEING_TRANSLATED = "being_translated"
UNTRANSLATED = "untranslated"

# In the order a dashboard draws them, done first.
COVERAGE_GROUPS = [UP_TO_DATE, OUT_OF_DATE_GROUP, BEING_TRANSLATED, UNTRANSLATED]
COVERAGE_LABELS = {
    UP_TO_DATE: _("Up to date"),
    OUT_OF_DATE_GROUP: _("Out of date"),
    BEING_TRANSLATED: _("Being translated"),
    UNTRANSLATED: _("Untranslated"),
}
# The queue's states in each group (up to date: not in the queue at all).
QUEUE_STATES = {
    OUT_OF_DATE_GROUP: [OUT_OF_DATE],
    BEING_TRANSLATED: [NOT_PUBLISHED, TO_REVIEW, CHANGES_NOT_PUBLISHED],
    UNTRANSLATED: [NOT_TRANSLATED],
}
GROUP_OF_STATE = {state: group for group, states in QUEUE_STATES.items() for state in states}

TOPIC_DEPTH = LANGUAGE_ROOT_DEPTH + 1


@dataclass
class TopicCoverage:
    """One topic's live English pages (itself and its digests), counted by group."""

    topic_id: int
    title: str
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _topic_path():
    """The tree path of the topic a page is in (its own, for a topic)."""
    return Substr("path", 1, Page.steplen * TOPIC_DEPTH)


def source_topics(source_language: str = SOURCE_LANGUAGE):
    """The topics of the source language's tree, in tree order."""
    return translatable_pages(source_language).filter(depth=TOPIC_DEPTH).order_by("path")


def coverage_by_topic(
    *, source_language: str = SOURCE_LANGUAGE, language: str = TARGET_LANGUAGE
) -> list[TopicCoverage]:
    """Each topic's live `source_language` pages by group, for translations into `language`.

    Three queries: the topics, the live pages per topic, the queue per topic and state.
    """
    topics = {
        row["path"]: TopicCoverage(topic_id=row["pk"], title=row["title"])
        for row in source_topics(source_language).values("pk", "path", "title")
    }
    live = (
        translatable_pages(source_language)
        .filter(live=True)
        .annotate(topic_path=_topic_path())
        .order_by()
        .values("topic_path")
        .annotate(pages=Count("pk"))
    )
    totals = {row["topic_path"]: row["pages"] for row in live}
    queued = (
        translation_queue(source_language=source_language, language=language)
        .annotate(topic_path=_topic_path())
        .order_by()
        .values("topic_path", "queue_state")
        .annotate(pages=Count("pk"))
    )
    waiting: dict[str, dict[str, int]] = {}
    for row in queued:
        group = GROUP_OF_STATE[row["queue_state"]]
        counts = waiting.setdefault(row["topic_path"], {})
        counts[group] = counts.get(group, 0) + row["pages"]
    for path, topic in topics.items():
        counts = waiting.get(path, {})
        topic.counts = {group: counts.get(group, 0) for group in COVERAGE_GROUPS}
        topic.counts[UP_TO_DATE] = totals.get(path, 0) - sum(counts.values())
    return list(topics.values())
