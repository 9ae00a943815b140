"""Run the zh-Hant guard over pages and translations, reading their text as segments."""

from collections.abc import Iterator
from dataclasses import replace

from django.db.models import QuerySet
from wagtail.models import Page
from wagtail_localize.models import StringSegment, Translation
from wagtail_localize.segments import StringSegmentValue
from wagtail_localize.segments.extract import extract_segments

from .places import place_label
from .roles import TARGET_LANGUAGE
from .zh_hant import SimplifiedText, check_texts


def page_texts(page: Page) -> Iterator[tuple[str, str]]:
    """(field path, text) for every translatable string of the page as it is stored now."""
    for segment in extract_segments(page.specific):
        if isinstance(segment, StringSegmentValue):
            yield segment.path, segment.string.data


def placed(findings: list[SimplifiedText], instance) -> list[SimplifiedText]:
    """The findings with each field path named as a person reads it (cms.translation.places);
    worked out for findings only, as most checks find nothing."""
    return [replace(finding, where=place_label(instance, finding.where)) for finding in findings]


def check_page(page: Page) -> list[SimplifiedText]:
    """Simplified-only characters in a page's translatable text."""
    findings = list(check_texts(page_texts(page)))
    return placed(findings, page.specific) if findings else []


def check_translation(translation: Translation) -> list[SimplifiedText]:
    """Simplified-only characters in the strings a translation would publish next."""
    segments = (
        StringSegment.objects.filter(source_id=translation.source_id)
        .annotate_translation(translation.target_locale_id)
        .select_related("context")
        .order_by("order")
    )
    findings = list(
        check_texts(
            (segment.context.path, segment.translation)
            for segment in segments
            if segment.translation
        )
    )
    return placed(findings, translation.source.as_instance()) if findings else []


def zh_hant_pages() -> QuerySet[Page]:
    """Every zh-hant page below the tree root, in tree order."""
    return Page.objects.filter(locale__language_code=TARGET_LANGUAGE, depth__gt=1).order_by("path")
