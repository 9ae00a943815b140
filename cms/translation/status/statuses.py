"""How far each translated page is behind its source, computed for many pages at once.

The facts come from wagtail-localize's own records (TranslationSource, StringSegment,
StringTranslation) and Wagtail's page log, so nothing extra is stored. `translation_statuses()`
answers for a whole list of pages in one query, whatever its length, which keeps
the admin report and the pages API (`translation_status`) fast.

A page is *out of date* when its source was published after the translation was last synced
(wagtail-localize's "Sync translated pages", which re-extracts the source's segments); once it is
synced, only the segments whose English changed are left untranslated.
"""

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, JSONObject
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from wagtail.models import Page, PageLogEntry
from wagtail_localize.models import StringSegment, StringTranslation, Translation

from cms.translation.status.review import REVIEWED
from cms.translation.status.tool_names import tool_name_for_display

# Summary states, most urgent first; a front end badges anything but "up_to_date".
OUT_OF_DATE = "out_of_date"
INCOMPLETE = "incomplete"
# Texts filled in automatically (a machine translator, the memory, or a sync's previous
# translation) that no translator has saved since: not "machine", as often no machine made them.
NEEDS_REVIEW = "needs_review"
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
        return summary_state(
            out_of_date=self.out_of_date,
            total=self.total_segments,
            translated=self.translated_segments,
            machine=self.machine_segments,
            unpublished=self.has_unpublished_translations,
        )


def summary_state(
    *, out_of_date: bool, total: int, translated: int, machine: int, unpublished: bool = False
) -> str:
    """The most urgent state that holds; the admin's and the API's statuses share it."""
    if out_of_date:
        return OUT_OF_DATE
    if translated < total:
        return INCOMPLETE
    if machine:
        return NEEDS_REVIEW
    if unpublished:
        return UNPUBLISHED
    return UP_TO_DATE


def count_rows(segments) -> Coalesce:
    """COUNT(*) of a segment subquery, as a scalar subquery (0 when empty)."""
    counted = segments.order_by().values("source_id").annotate(n=Count("pk")).values("n")[:1]
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def segment_counts(translated: Q) -> dict[str, Coalesce]:
    """Segment counts of Translation rows: all, translated, and machine segments.

    A segment is translated when a string translation matching `translated` exists for it, and
    a *machine segment* when that translation is not reviewed (cms.translation.status.review):
    filled by a machine translator, the memory, or a sync's previous translation, and not yet saved
    by a translator. The one definition the report, the API, the publish warning and
    the translator's queue share.

    `translated` is a condition on StringTranslation; it may refer to the Translation row as
    `OuterRef(OuterRef(...))` (the admin counts every translation, the API only published ones).
    """
    segments = StringSegment.objects.filter(source_id=OuterRef("source_id"))
    done = StringTranslation.objects.filter(
        translated,
        translation_of_id=OuterRef("string_id"),
        context_id=OuterRef("context_id"),
        locale_id=OuterRef(OuterRef("target_locale_id")),
        has_error=False,
    )
    machine = done.exclude(REVIEWED)
    return {
        "total_segments": count_rows(segments),
        "translated_segments": count_rows(segments.filter(Exists(done))),
        "machine_segments": count_rows(segments.filter(Exists(machine))),
    }


def segment_facts(translated: Q) -> dict[str, Any]:
    """The annotations both statuses share, for Translation rows: `segment_counts(translated)`,
    the source page's id, live revision and publish time, and the revision the last sync read.
    """
    source_page = Page.objects.filter(
        translation_key=OuterRef("source__object_id"), locale_id=OuterRef("source__locale_id")
    )
    # The synced revision: the source's last publish before the sync. The sync reads the
    # page's live content, so drafts saved in between do not count.
    synced_revision = PageLogEntry.objects.filter(
        page__translation_key=OuterRef("source__object_id"),
        page__locale_id=OuterRef("source__locale_id"),
        action="wagtail.publish",
        revision__isnull=False,
        timestamp__lte=OuterRef("source__last_updated_at"),
    ).order_by("-timestamp", "-pk")
    # The source page's values come back as one JSON object (datetimes as text, json_datetime):
    # one subquery instead of three for Django to compile and the database to plan.
    return {
        **segment_counts(translated),
        "source_page": Subquery(
            source_page.values(
                json=JSONObject(
                    id="pk", revision_id="live_revision_id", published_at="last_published_at"
                )
            )[:1]
        ),
        "synced_revision_id": Subquery(synced_revision.values("revision_id")[:1]),
    }


@functools.cache
def _annotated_translations():
    """Translations with every fact annotated, built once: Django takes longer to build this
    queryset than the database takes to run it, and each call only adds the pages' filter.

    One query in all: segment counts, the source page's revisions and the latest translated
    string are correlated subqueries, so the cost stays the same for any number of pages.
    """
    latest = StringTranslation.objects.filter(
        context__object_id=OuterRef("source__object_id"), locale_id=OuterRef("target_locale_id")
    ).order_by("-updated_at", "-pk")
    username = f"last_translated_by__{get_user_model().USERNAME_FIELD}"
    return Translation.objects.annotate(
        **segment_facts(Q()),
        latest_string=Subquery(
            latest.values(
                json=JSONObject(
                    at="updated_at",
                    tool="tool_name",
                    first_name="last_translated_by__first_name",
                    last_name="last_translated_by__last_name",
                    username=username,
                )
            )[:1]
        ),
    )


def json_datetime(value: str | None) -> datetime | None:
    """A datetime column as JSON gave it: ISO 8601 (PostgreSQL) or SQLite's UTC text."""
    if value is None:
        return None
    moment = parse_datetime(value)
    if timezone.is_naive(moment):
        return timezone.make_aware(moment, UTC)
    return moment.astimezone(UTC)


def _translator(latest: dict[str, Any]) -> str:
    """Who made the latest translation, for the admin only: a person's full name, else their
    login name; without a person, the tool ("seed import", "DeepL", "PO File"), in the reader's
    language (cms.translation.status.tool_names)."""
    if latest.get("username"):
        full_name = f"{latest.get('first_name') or ''} {latest.get('last_name') or ''}".strip()
        return full_name or latest["username"]
    return tool_name_for_display(latest.get("tool") or "")


# The columns a status is made of. Read as plain rows: model instances would load every column
# of the translation and of its source, whose content_json holds the whole serialized page.
FACT_COLUMNS = (
    "target_locale_id",
    "source__object_id",
    "source__locale_id",
    "source__last_updated_at",
    "total_segments",
    "translated_segments",
    "machine_segments",
    "source_page",
    "synced_revision_id",
)  # what segment_facts annotates, with the translation's keys: both statuses read these


def translation_rows(
    translations: QuerySet[Translation], pages: Iterable[Page], *columns: str
) -> Iterator[tuple[Page, dict[str, Any]]]:
    """Each page of `pages` that a translation writes, with that translation's FACT_COLUMNS and
    `columns`, from `translations` (annotated with segment_facts).

    Pages that are not the target of a wagtail-localize translation (source pages, pages created
    directly in a locale) are left out. One query however many pages are passed, so call it once
    per page of results rather than once per page.
    """
    pages = [page for page in pages if page.pk is not None]
    if not pages:
        return
    rows = translations.filter(
        enabled=True,
        source__object_id__in={page.translation_key for page in pages},
        target_locale_id__in={page.locale_id for page in pages},
    ).values(*FACT_COLUMNS, *columns)
    by_target = {(row["source__object_id"], row["target_locale_id"]): row for row in rows}
    for page in pages:
        row = by_target.get((page.translation_key, page.locale_id))
        if row is not None and row["source__locale_id"] != page.locale_id:
            yield page, row


def translation_statuses(pages: Iterable[Page]) -> dict[int, TranslationStatus]:
    """The status of every page in `pages` that is a translation, keyed by page id (one query)."""
    statuses = {}
    for page, row in translation_rows(_annotated_translations(), pages, "latest_string"):
        source_page = row["source_page"] or {}
        latest = row["latest_string"] or {}
        statuses[page.pk] = TranslationStatus(
            page_id=page.pk,
            source_page_id=source_page.get("id"),
            total_segments=row["total_segments"],
            translated_segments=row["translated_segments"],
            machine_segments=row["machine_segments"],
            source_revision_id=source_page.get("revision_id"),
            synced_revision_id=row["synced_revision_id"],
            translated_revision_id=page.live_revision_id,
            source_published_at=json_datetime(source_page.get("published_at")),
            synced_at=row["source__last_updated_at"],
            translated_at=json_datetime(latest.get("at")),
            translated_by=_translator(latest),
            published_at=page.last_published_at,
        )
    return statuses


def translation_status(page: Page) -> TranslationStatus | None:
    """One page's status (prefer `translation_statuses()` for lists)."""
    return translation_statuses([page]).get(page.pk)
