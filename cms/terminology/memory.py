"""Translation memory: published translations of English segments, found again exactly or fuzzily.

Entries are copied from wagtail-localize's StringTranslation rows when a translated page is
published (`record_published`), so the memory holds only text a reader can already see, and
only reviewed text (cms.translation.status.review): a segment filled in automatically and published
unreviewed (a sync's previous translation pairs new English with the old Chinese) would
otherwise come back as an exact match. Exact
matches are looked up by a hash of the segment's text in the database; fuzzy matches are scored
with rapidfuzz against an in-process index of the locale's distinct English segments, rebuilt
when the entries change.
"""

import hashlib
import threading
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Max, Q
from rapidfuzz import fuzz, process, utils
from wagtail.models import Locale, Page
from wagtail_localize.models import StringSegment, StringTranslation, Translation

from cms.translation.policy.rules import translation_into
from cms.translation.status.review import REVIEWED

from .models import MemoryEntry

DEFAULT_FUZZY_THRESHOLD = 75.0
# Bumped on every write to the memory; each process's fuzzy index reloads when it changes.
VERSION_KEY = "terminology:memory-version"


def fuzzy_threshold() -> float:
    return float(getattr(settings, "TRANSLATION_MEMORY_FUZZY_THRESHOLD", DEFAULT_FUZZY_THRESHOLD))


def source_hash(text: str) -> str:
    """The key of an English segment: its text with runs of whitespace made one space."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()


@dataclass(frozen=True)
class MemoryMatch:
    source: str
    target: str
    score: float  # 100 for an exact match
    page_id: int


def translated_strings(
    translation: Translation, *conditions: Q, **filters
) -> dict[tuple[int, int], str]:
    """{(string id, context id): text} of the translations stored for `translation`'s segments."""
    return {
        (item.translation_of_id, item.context_id): item.data
        for item in StringTranslation.objects.filter(
            *conditions,
            locale_id=translation.target_locale_id,
            context__object_id=translation.source.object_id,
            **filters,
        )
    }


@transaction.atomic
def record_published(page: Page) -> int:
    """Make the memory hold `page`'s translated segments as just published; returns how many."""
    translation = translation_into(page)
    if translation is None:
        return 0
    segments = StringSegment.objects.filter(source=translation.source).select_related(
        "string", "context"
    )
    translated = translated_strings(translation, REVIEWED, has_error=False)
    entries = {}
    for segment in segments:
        target = translated.get((segment.string_id, segment.context_id))
        if not target:
            continue
        entries[segment.context.path] = MemoryEntry(
            locale_id=page.locale_id,
            page_id=page.pk,
            context=segment.context.path[:255],
            source_hash=source_hash(segment.string.data),
            source_text=segment.string.data,
            target_text=target,
        )
    MemoryEntry.objects.filter(page_id=page.pk, locale_id=page.locale_id).delete()
    MemoryEntry.objects.bulk_create(entries.values())
    memory_changed()
    return len(entries)


def forget_page(page: Page) -> None:
    """Unpublished or deleted: its translations are no longer published text."""
    MemoryEntry.objects.filter(page_id=page.pk).delete()
    memory_changed()


def memory_changed() -> None:
    """Tell every process's fuzzy index to reload (now and again once the write commits).

    The version is a fresh random token, not a counter: a counter restarting after the cache
    is cleared could meet an index's old number and leave it stale.
    """

    def bump() -> None:
        cache.set(VERSION_KEY, uuid.uuid4().hex, timeout=None)

    bump()
    transaction.on_commit(bump)


def rebuild(locale: Locale | None = None) -> int:
    """Record every live translated page again (after an import or a restore)."""
    pages = Page.objects.live().exclude(locale__language_code=settings.LANGUAGE_CODE)
    if locale is not None:
        pages = pages.filter(locale=locale)
    return sum(record_published(page) for page in pages)


def exact_matches(locale: Locale, texts: list[str]) -> dict[str, MemoryMatch]:
    """{English text: its most recently published translation}, for the texts found."""
    by_hash = {source_hash(text): text for text in texts}
    found: dict[str, MemoryMatch] = {}
    entries = MemoryEntry.objects.filter(locale=locale, source_hash__in=by_hash).order_by(
        "-published_at", "-pk"
    )
    for entry in entries.only("source_hash", "source_text", "target_text", "page_id"):
        text = by_hash[entry.source_hash]
        if text not in found and " ".join(entry.source_text.split()) == " ".join(text.split()):
            found[text] = MemoryMatch(entry.source_text, entry.target_text, 100.0, entry.page_id)
    return found


class FuzzyIndex:
    """The locale's distinct English segments, preprocessed once for rapidfuzz."""

    def __init__(self, locale_id: int):
        self.locale_id = locale_id
        self.stamp: tuple | None = None  # None until loaded
        self.sources: list[str] = []
        self.processed: list[str] = []
        self.best: list[tuple[str, int]] = []  # (target, page id) per source

    def refresh(self) -> None:
        # The newest row too: a write rolled back after this process read it leaves the token
        # as it was, but takes its rows away. (One index lookup, whatever the table's size.)
        stamp = (cache.get(VERSION_KEY), MemoryEntry.objects.aggregate(newest=Max("pk"))["newest"])
        if stamp == self.stamp:
            return
        latest: dict[str, tuple[str, int]] = {}
        rows = (
            MemoryEntry.objects.filter(locale_id=self.locale_id)
            .order_by("published_at", "pk")
            .values_list("source_text", "target_text", "page_id")
        )
        for source, target, page_id in rows.iterator(chunk_size=5000):
            latest[source] = (target, page_id)
        self.sources = list(latest)
        self.processed = [utils.default_process(text) for text in self.sources]
        self.best = list(latest.values())
        self.stamp = stamp

    def search(self, text: str, *, limit: int, threshold: float) -> list[MemoryMatch]:
        """Matches from the index as last refreshed (call `refresh()` first)."""
        results = process.extract(
            utils.default_process(text),
            self.processed,
            scorer=fuzz.ratio,
            processor=None,
            limit=limit,
            score_cutoff=threshold,
        )
        return [
            MemoryMatch(self.sources[i], self.best[i][0], round(score, 1), self.best[i][1])
            for _choice, score, i in results
        ]


_indexes: dict[int, FuzzyIndex] = {}
_lock = threading.Lock()


def fuzzy_matches(
    locale: Locale, text: str, *, limit: int = 3, threshold: float | None = None
) -> list[MemoryMatch]:
    """The closest published English segments to `text` with their translations and scores."""
    return fuzzy_matches_each(locale, [text], limit=limit, threshold=threshold)[0]


def fuzzy_matches_each(
    locale: Locale, texts: list[str], *, limit: int = 3, threshold: float | None = None
) -> list[list[MemoryMatch]]:
    """`fuzzy_matches` for each of `texts`, from one look at whether the memory changed."""
    threshold = fuzzy_threshold() if threshold is None else threshold
    with _lock:
        index = _indexes.setdefault(locale.pk, FuzzyIndex(locale.pk))
        index.refresh()
        return [index.search(text, limit=limit, threshold=threshold) for text in texts]
