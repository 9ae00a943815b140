"""Run the zh-Hant guard over pages and translations, reading their text as segments."""

from collections.abc import Iterator

from django.db.models import QuerySet
from wagtail.models import Page
from wagtail_localize.models import StringSegment, Translation
from wagtail_localize.segments import StringSegmentValue
from wagtail_localize.segments.extract import extract_segments

from .places import place_label
from .roles import TARGET_LANGUAGE
from .zh_hant import SimplifiedText, check_texts


def page_texts(page: Page) -> Iterator[tuple[str, str]]:
    """(place, text) for every translatable string of the page as it is stored now; the place
    as a person reads it (cms.translation.places)."""
    specific = page.specific
    for segment in extract_segments(specific):
        if isinstance(segment, StringSegmentValue):
            yield place_label(specific, segment.path), segment.string.data


def check_page(page: Page) -> list[SimplifiedText]:
    """Simplified-only characters in a page's translatable text."""
    return list(check_texts(page_texts(page)))


def check_translation(translation: Translation) -> list[SimplifiedText]:
    """Simplified-only characters in the strings a translation would publish next."""
    segments = (
        StringSegment.objects.filter(source_id=translation.source_id)
        .annotate_translation(translation.target_locale_id)
        .select_related("context")
        .order_by("order")
    )
    source = translation.source.as_instance()
    return list(
        check_texts(
            (place_label(source, segment.context.path), segment.translation)
            for segment in segments
            if segment.translation
        )
    )


def zh_hant_pages() -> QuerySet[Page]:
    """Every zh-hant page below the tree root, in tree order."""
    return Page.objects.filter(locale__language_code=TARGET_LANGUAGE, depth__gt=1).order_by("path")
