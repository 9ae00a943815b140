"""Read-side queries for the translation screens: translated pages, and which of them lag.

The translator's queue, which starts from the English pages, is in
cms.translation.workflow.queue."""

from django.db.models import (
    BooleanField,
    Case,
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from wagtail.models import Page
from wagtail_localize.models import TranslationSource

from cms.translation.languages import LANGUAGE_ROOT_DEPTH, TARGET_LANGUAGE


def annotate_needs_sync(pages: QuerySet[Page]) -> QuerySet[Page]:
    """Add `needs_sync`: the page's source was published after its translation was last synced.

    The same rule as TranslationStatus.out_of_date, in SQL so a listing can filter and sort on it.
    """
    source = TranslationSource.objects.filter(
        object_id=OuterRef("translation_key"),
        translations__target_locale_id=OuterRef("locale_id"),
        translations__enabled=True,
    )
    source_page = Page.objects.filter(
        translation_key=OuterRef("translation_key"), locale_id=OuterRef("_source_locale_id")
    )
    return (
        pages.annotate(
            _synced_at=Subquery(source.values("last_updated_at")[:1]),
            _source_locale_id=Subquery(source.values("locale_id")[:1]),
        )
        .annotate(_source_published_at=Subquery(source_page.values("last_published_at")[:1]))
        .annotate(
            needs_sync=Case(
                When(_source_published_at__gt=F("_synced_at"), then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
    )


def translated_pages(language: str = TARGET_LANGUAGE) -> QuerySet[Page]:
    """Every digest and topic page in `language`, lagging ones first, then in tree order."""
    pages = Page.objects.filter(depth__gt=LANGUAGE_ROOT_DEPTH, locale__language_code=language)
    return annotate_needs_sync(pages).order_by("-needs_sync", "path")


def status_report_pages(
    language: str = TARGET_LANGUAGE, *, source_language: str = "en"
) -> QuerySet[Page]:
    """The translation status report's rows: every digest and topic in `language`, and before
    them every live one in `source_language` with no page in `language` yet (which a report of
    translated pages alone would never show). Lagging translations next, then tree order.
    """
    translated = Page.objects.filter(
        translation_key=OuterRef("translation_key"), locale__language_code=language
    )
    pages = Page.objects.filter(depth__gt=LANGUAGE_ROOT_DEPTH).filter(
        Q(locale__language_code=language)
        | Q(locale__language_code=source_language, live=True) & ~Exists(translated)
    )
    return (
        annotate_needs_sync(pages)
        .annotate(untranslated=Q(locale__language_code=source_language))
        .order_by("-untranslated", "-needs_sync", "path")
    )
