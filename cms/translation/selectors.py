"""Read-side queries for the translation screens: translated pages, and which of them lag.

The translator's queue, which starts from the English pages, is in cms.translation.queue."""

from django.db.models import BooleanField, Case, F, OuterRef, QuerySet, Subquery, Value, When
from wagtail.models import Page
from wagtail_localize.models import TranslationSource

from cms.digests.models import DigestPage, TopicPage

TARGET_LANGUAGE = "zh-hant"


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
    pages = Page.objects.type(DigestPage, TopicPage).filter(locale__language_code=language)
    return annotate_needs_sync(pages).order_by("-needs_sync", "path")
