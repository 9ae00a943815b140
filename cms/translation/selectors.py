"""Read-side queries for the translation screens: translated pages, and which of them lag."""

from django.db.models import BooleanField, Case, F, OuterRef, QuerySet, Subquery, Value, When
from wagtail.models import Page
from wagtail.permission_policies.pages import PagePermissionPolicy
from wagtail_localize.models import TranslationSource

from cms.digests.models import DigestPage, TopicPage

from .status import TranslationStatus, translation_statuses

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


def pages_waiting_for_translation(
    user, *, language: str = TARGET_LANGUAGE, limit: int = 10
) -> list[tuple[Page, TranslationStatus]]:
    """Translated pages `user` may edit that need work (out of date, incomplete or machine)."""
    editable = PagePermissionPolicy().instances_user_has_permission_for(user, "change")
    pages = list(translated_pages(language).filter(pk__in=editable.values("pk")))
    statuses = translation_statuses(pages)
    waiting = [
        (page, statuses[page.pk])
        for page in pages
        if page.pk in statuses and statuses[page.pk].state != "up_to_date"
    ]
    return waiting[:limit]
