"""How far each translated page is behind its source, computed for many pages at once.

The facts come from wagtail-localize's own records (TranslationSource, StringSegment,
StringTranslation) and Wagtail's page log, so nothing extra is stored. `translation_statuses()`
answers for a whole list of pages in a fixed number of queries (five, whatever the length of the
list), which keeps the admin report and the pages API (`translation_status`) fast.

A page is *out of date* when its source was published after the translation was last synced
(wagtail-localize's "Sync translated pages", which re-extracts the source's segments); once it is
synced, only the segments whose English changed are left untranslated.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, Subquery
from wagtail.models import Page, PageLogEntry
from wagtail_localize.models import (
    StringSegment,
    StringTranslation,
    Translation,
    TranslationSource,
)

# Summary states, most urgent first; a front end badges anything but "up_to_date".
OUT_OF_DATE = "out_of_date"
INCOMPLETE = "incomplete"
MACHINE = "machine"
UNPUBLISHED = "unpublished"
UP_TO_DATE = "up_to_date"


@dataclass(frozen=True)
class TranslationStatus:
    """Where one translated page stands against its source page."""

    page_id: int
    source_page_id: int | None
    total_segments: int
    translated_segments: int
    machine_segments: int
    source_revision_id: int | None
    synced_revision_id: int | None
    translated_revision_id: int | None
    source_published_at: datetime | None
    synced_at: datetime
    translated_at: datetime | None
    translated_by: str
    translated_by_public: str
    published_at: datetime | None

    @property
    def percent_translated(self) -> int:
        if not self.total_segments:
            return 100
        return self.translated_segments * 100 // self.total_segments

    @property
    def out_of_date(self) -> bool:
        """The source was published after the translation was last synced."""
        return self.source_published_at is not None and self.source_published_at > self.synced_at

    @property
    def has_unpublished_translations(self) -> bool:
        return self.translated_at is not None and (
            self.published_at is None or self.translated_at > self.published_at
        )

    @property
    def state(self) -> str:
        if self.out_of_date:
            return OUT_OF_DATE
        if self.translated_segments < self.total_segments:
            return INCOMPLETE
        if self.machine_segments:
            return MACHINE
        if self.has_unpublished_translations:
            return UNPUBLISHED
        return UP_TO_DATE

    def as_dict(self) -> dict[str, Any]:
        """The API representation (`translation_status` on a translated page)."""
        return {
            "state": self.state,
            "out_of_date": self.out_of_date,
            "percent_translated": self.percent_translated,
            "segments": {
                "total": self.total_segments,
                "translated": self.translated_segments,
                "machine": self.machine_segments,
            },
            "source_page_id": self.source_page_id,
            "source_revision_id": self.source_revision_id,
            "synced_revision_id": self.synced_revision_id,
            "translated_revision_id": self.translated_revision_id,
            "synced_at": self.synced_at,
            "translated_at": self.translated_at,
            "translated_by": self.translated_by_public or None,
        }


def translator_name(string_translation: StringTranslation | None, *, public: bool = False) -> str:
    """Who made a translation: the person's name, else the tool (e.g. "DeepL", "PO File").

    The public form (for the API) never falls back to the login name.
    """
    if string_translation is None:
        return ""
    user = string_translation.last_translated_by
    if user is not None:
        name = user.get_full_name().strip()
        return name if name or public else user.get_username()
    return string_translation.tool_name


def _translations_for(pages: list[Page]):
    """The enabled Translation records whose target is one of `pages` (query 1)."""
    latest_string = StringTranslation.objects.filter(
        context__object_id=OuterRef("source__object_id"), locale_id=OuterRef("target_locale_id")
    ).order_by("-updated_at", "-pk")
    return (
        Translation.objects.filter(
            enabled=True,
            source__object_id__in={page.translation_key for page in pages},
            target_locale_id__in={page.locale_id for page in pages},
        )
        .select_related("source")
        .annotate(latest_string_id=Subquery(latest_string.values("pk")[:1]))
    )


def _source_pages(translations: list[Translation]) -> dict[tuple, dict]:
    """Source page facts by (translation_key, locale_id), with the revision last synced (query 2).

    The synced revision is the source's last publish logged before the sync: the sync reads the
    page's live content, so drafts saved in between do not count.
    """
    synced_at = TranslationSource.objects.filter(
        object_id=OuterRef(OuterRef("translation_key")), locale_id=OuterRef(OuterRef("locale_id"))
    ).values("last_updated_at")[:1]
    synced_revision = (
        PageLogEntry.objects.filter(
            page_id=OuterRef("pk"),
            action="wagtail.publish",
            revision__isnull=False,
            timestamp__lte=Subquery(synced_at),
        )
        .order_by("-timestamp", "-pk")
        .values("revision_id")[:1]
    )
    rows = (
        Page.objects.filter(
            translation_key__in={t.source.object_id for t in translations},
            locale_id__in={t.source.locale_id for t in translations},
        )
        .annotate(synced_revision_id=Subquery(synced_revision))
        .values(
            "pk",
            "translation_key",
            "locale_id",
            "live_revision_id",
            "last_published_at",
            "synced_revision_id",
        )
    )
    return {(row["translation_key"], row["locale_id"]): row for row in rows}


def _segment_counts(translations: list[Translation]) -> dict[tuple, dict]:
    """Total, translated and machine-translated segments per source (query 3, per locale)."""
    counts: dict[int, dict] = {}
    by_locale: dict[int, list[int]] = defaultdict(list)
    for translation in translations:
        by_locale[translation.target_locale_id].append(translation.source_id)
    for locale_id, source_ids in by_locale.items():
        done = StringTranslation.objects.filter(
            translation_of_id=OuterRef("string_id"),
            context_id=OuterRef("context_id"),
            locale_id=locale_id,
            has_error=False,
        )
        rows = (
            StringSegment.objects.filter(source_id__in=source_ids)
            .annotate(
                is_translated=Exists(done),
                is_machine=Exists(
                    done.filter(translation_type=StringTranslation.TRANSLATION_TYPE_MACHINE)
                ),
            )
            .values("source_id")
            .annotate(
                total=Count("pk"),
                translated=Count("pk", filter=Q(is_translated=True)),
                machine=Count("pk", filter=Q(is_machine=True)),
            )
        )
        for row in rows:
            counts[(row["source_id"], locale_id)] = row
    return counts


def _latest_strings(translations: list[Translation]) -> dict[int, StringTranslation]:
    """The most recently saved string of each translation, with its translator (query 4)."""
    ids = [t.latest_string_id for t in translations if t.latest_string_id]
    if not ids:
        return {}
    strings = StringTranslation.objects.filter(pk__in=ids).select_related("last_translated_by")
    return {string.pk: string for string in strings}


def translation_statuses(pages: Iterable[Page]) -> dict[int, TranslationStatus]:
    """The status of every page in `pages` that is a translation, keyed by page id.

    Pages that are not the target of a wagtail-localize translation (source pages, pages created
    directly in a locale) are left out. Costs at most four queries for one target locale, however
    many pages are passed, so call it once per page of results rather than once per page.
    """
    pages = [page for page in pages if page.pk is not None]
    if not pages:
        return {}
    translations = list(_translations_for(pages))
    if not translations:
        return {}
    by_target = {(t.source.object_id, t.target_locale_id): t for t in translations}
    sources = _source_pages(translations)
    counts = _segment_counts(translations)
    latest = _latest_strings(translations)

    statuses = {}
    for page in pages:
        translation = by_target.get((page.translation_key, page.locale_id))
        if translation is None or translation.source.locale_id == page.locale_id:
            continue
        source = sources.get((translation.source.object_id, translation.source.locale_id), {})
        count = counts.get((translation.source_id, page.locale_id), {})
        string = latest.get(translation.latest_string_id)
        statuses[page.pk] = TranslationStatus(
            page_id=page.pk,
            source_page_id=source.get("pk"),
            total_segments=count.get("total", 0),
            translated_segments=count.get("translated", 0),
            machine_segments=count.get("machine", 0),
            source_revision_id=source.get("live_revision_id"),
            synced_revision_id=source.get("synced_revision_id"),
            translated_revision_id=page.live_revision_id,
            source_published_at=source.get("last_published_at"),
            synced_at=translation.source.last_updated_at,
            translated_at=string.updated_at if string else None,
            translated_by=translator_name(string),
            translated_by_public=translator_name(string, public=True),
            published_at=page.last_published_at,
        )
    return statuses


def translation_status(page: Page) -> TranslationStatus | None:
    """One page's status (prefer `translation_statuses()` for lists)."""
    return translation_statuses([page]).get(page.pk)
