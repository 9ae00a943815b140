"""Run the zh-Hant guard over pages and translations: every text a publish puts live.

A zh-hant page publishes its translated strings and, copied from English as they are, its
synchronized fields (a digest's short name, a slug) and the blocks never sent for translation
(code, LaTeX). Reading the translatable strings alone let Simplified characters typed in those
reach zh-hant readers, so a page is read field by field, every block of its StreamFields
included, and a translation as its strings plus the source's texts that are not strings.
"""

from collections.abc import Iterator
from dataclasses import replace

from django.db.models import Model, QuerySet
from django.utils.html import strip_tags
from wagtail.blocks import ListBlock, StreamBlock, StreamValue, StructBlock
from wagtail.models import Page
from wagtail.rich_text import RichText
from wagtail_localize.fields import get_translatable_fields
from wagtail_localize.models import StringSegment, Translation

from cms.translation.guard.places import place_label
from cms.translation.guard.zh_hant import SimplifiedText, check_texts
from cms.translation.languages import TARGET_LANGUAGE


def _block_texts(path: str, block, value) -> Iterator[tuple[str, str]]:
    """(path, text) for every text below a block, with wagtail-localize's segment paths
    (field, then block ids and child names), so cms.translation.guard.places can name them."""
    if isinstance(block, StreamBlock):
        for child in value or []:
            yield from _block_texts(f"{path}.{child.id}", child.block, child.value)
    elif isinstance(block, StructBlock):
        for name, child_block in block.child_blocks.items():
            yield from _block_texts(f"{path}.{name}", child_block, (value or {}).get(name))
    elif isinstance(block, ListBlock):
        for item in getattr(value, "bound_blocks", None) or []:
            yield from _block_texts(f"{path}.{item.id}", block.child_block, item.value)
    elif isinstance(value, RichText):
        yield path, strip_tags(value.source)
    elif isinstance(value, str):
        yield path, value


def page_texts(instance: Model) -> Iterator[tuple[str, str]]:
    """(field path, text) for every text field of `instance` that a translation carries,
    translated or synchronized, as it is stored now (StreamFields block by block)."""
    instance = getattr(instance, "specific", instance)
    for translatable in get_translatable_fields(type(instance)):
        name = translatable.field_name
        value = getattr(instance, name, None)
        if isinstance(value, StreamValue):
            yield from _block_texts(name, value.stream_block, value)
        elif isinstance(value, str):
            yield name, strip_tags(value) if "<" in value else value


def placed(findings: list[SimplifiedText], instance) -> list[SimplifiedText]:
    """The findings with each field path named as a person reads it (cms.translation.guard.places);
    worked out for findings only, as most checks find nothing."""
    return [replace(finding, where=place_label(instance, finding.where)) for finding in findings]


def check_page(page: Page) -> list[SimplifiedText]:
    """Simplified-only characters in any text field of a page."""
    findings = list(check_texts(page_texts(page)))
    return placed(findings, page.specific) if findings else []


def check_translation(translation: Translation) -> list[SimplifiedText]:
    """Simplified-only characters in what a translation would publish next: its translated
    strings, and the source's texts it copies unchanged (synchronized fields, untranslated
    blocks: every text at a path that holds no string segment)."""
    segments = list(
        StringSegment.objects.filter(source_id=translation.source_id)
        .annotate_translation(translation.target_locale_id)
        .select_related("context")
        .order_by("order")
    )
    source = translation.source.as_instance()
    translated = {segment.context.path for segment in segments}
    copied = [(path, text) for path, text in page_texts(source) if path not in translated]
    findings = list(
        check_texts(
            [
                *(
                    (segment.context.path, segment.translation)
                    for segment in segments
                    if segment.translation
                ),
                *copied,
            ]
        )
    )
    return placed(findings, source) if findings else []


def zh_hant_pages() -> QuerySet[Page]:
    """Every zh-hant page below the tree root, in tree order."""
    return Page.objects.filter(locale__language_code=TARGET_LANGUAGE, depth__gt=1).order_by("path")
