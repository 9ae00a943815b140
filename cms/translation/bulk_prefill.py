"""Translate many new pages at once from strings we already have: the bulk form of prefill.py.

`prefill_page_translation()` goes through wagtail-localize one page at a time
(`TranslationSource.update_or_create_from_instance`, `StringTranslation.update_or_create`,
`create_or_update_translation`): about 200 queries per page, most of a seed import. For a page
that was just created - so it has no source, no translation and no translated page yet - the
rows those calls write are known in advance, and `translate_new_pages()` writes them per table
for a whole batch:

- the source: `TranslatableObject`, `TranslationSource` (its `content_json` as given), the
  `TranslationContext`, `String` and segment rows of wagtail-localize's own `extract_segments()`;
- the translation: `Translation`, one manual `StringTranslation` per string segment;
- the translated page as `create_or_update_translation(copy_parent_pages=True)` then our
  `publish_translation()` leave it: Wagtail's `_copy()` of the source page (as
  `copy_for_translation` makes it, with its revision and log entries), the strings put in by
  wagtail-localize's `ingest_segments()`, a second revision, a `TranslationLog`, published.

`translatable_in_bulk()` says which pages qualify (plain-field segments only, a string for each,
a translated parent, values that validate); anything else stays on the per-page path, which also
reports its errors. tests/digests/test_bulk_import.py compares the result with that path.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from django.utils.text import slugify
from wagtail.actions.copy_for_translation import CopyPageForTranslationAction
from wagtail.models import Locale, Page, Revision
from wagtail.models.copying import _copy
from wagtail.signals import copy_for_translation_done
from wagtail_localize.fields import copy_synchronised_fields
from wagtail_localize.models import (
    OverridableSegment,
    String,
    StringSegment,
    StringTranslation,
    TranslatableObject,
    Translation,
    TranslationContext,
    TranslationLog,
    TranslationSource,
    get_schema_version,
)
from wagtail_localize.segments import OverridableSegmentValue, StringSegmentValue
from wagtail_localize.segments.extract import extract_segments
from wagtail_localize.segments.ingest import ingest_segments
from wagtail_localize.strings import StringValue

from cms.db import update_rows
from cms.digests import bulk_pages

from .prefill import SEED_TOOL_NAME


@dataclass
class NewPageTranslation:
    """A page created in this batch, what to translate it with, and where its translation goes."""

    page: Page
    strings_by_field: dict[str, str]
    target_parent: Page | None
    source_json: str = ""
    segments: list = field(default_factory=list)
    source: TranslationSource | None = None
    target: Page | None = None


def _translated_copy(page: Page, locale: Locale, slug: str) -> Page:
    """The page as Wagtail's `copy_for_translation` copies it, before it is saved."""
    copy, _children = _copy(
        page,
        exclude_fields=page.default_exclude_fields_in_copy + page.exclude_fields_in_copy,
        update_attrs={
            "live": False,
            "has_unpublished_changes": True,
            "live_revision": None,
            "first_published_at": None,
            "last_published_at": None,
            "alias_of": None,
            "locale": locale,
            "slug": slug,
        },
    )
    return bulk_pages.without_child_objects(copy)


def _translated_segments(item: NewPageTranslation) -> list[StringSegmentValue]:
    """What `_get_segments_for_translation()` hands `ingest_segments()` once the strings exist."""
    return [
        StringSegmentValue(
            segment.path,
            StringValue(StringValue.from_plaintext(item.strings_by_field[segment.path]).data),
            attrs=segment.attrs,
        ).with_order(segment.order)
        for segment in item.segments
        if isinstance(segment, StringSegmentValue)
    ]


def _ingest(item: NewPageTranslation, target: Page, source_locale: Locale, locale: Locale) -> None:
    copy_synchronised_fields(item.page, target)
    ingest_segments(item.page, target, source_locale, locale, _translated_segments(item))


def translatable_in_bulk(item: NewPageTranslation, locale: Locale) -> bool:
    """Whether the bulk path writes exactly what the per-page path would for this page."""
    if item.target_parent is None or slugify(item.page.slug) != item.page.slug:
        return False
    item.segments = extract_segments(item.page)
    for segment in item.segments:
        if not isinstance(segment, StringSegmentValue | OverridableSegmentValue):
            return False  # templates (rich text) and related objects: leave them to localize
        if "." in segment.path:
            return False  # inside a StreamField or child object: field paths need the instance
        if isinstance(segment, StringSegmentValue) and segment.path not in item.strings_by_field:
            return False  # the per-page path raises MissingSegmentTranslation for this
    trial = _translated_copy(item.page, locale, item.page.slug)
    _ingest(item, trial, item.page.locale, locale)
    return bulk_pages.page_field_errors(trial) is None


def _available_slug(taken: set[str], requested: str) -> str:
    """`wagtail.coreutils.find_available_slug()` against slugs already known."""
    slug, number = requested, 1
    while slug in taken:
        slug = f"{requested}-{number}"
        number += 1
    return slug


def _strings(locale: Locale, data: Iterable[str]) -> dict[str, String]:
    """`String.from_value()` for many strings: reuse the stored ones, create the rest."""
    by_hash = {String._get_data_hash(text): text for text in data}
    found = {
        string.data_hash: string
        for string in String.objects.filter(locale=locale, data_hash__in=list(by_hash))
    }
    new = [
        String(locale=locale, data_hash=key, data=text)
        for key, text in by_hash.items()
        if key not in found
    ]
    String.objects.bulk_create(new, batch_size=500)
    found.update((string.data_hash, string) for string in new)
    return {text: found[key] for key, text in by_hash.items()}


def _create_sources(items: list[NewPageTranslation], source_locale: Locale) -> list[StringSegment]:
    """`TranslationSource.update_or_create_from_instance()` for pages that have no source yet."""
    page_type = ContentType.objects.get_for_model(Page)
    objects = [
        TranslatableObject(translation_key=item.page.translation_key, content_type=page_type)
        for item in items
    ]
    TranslatableObject.objects.bulk_create(objects, batch_size=500)
    versions: dict[str, str] = {}
    now = timezone.now()
    for item, obj in zip(items, objects, strict=True):
        label = item.page._meta.app_label
        if label not in versions:
            versions[label] = get_schema_version(label)
        item.source = TranslationSource(
            object=obj,
            specific_content_type=ContentType.objects.get_for_model(type(item.page)),
            locale=source_locale,
            object_repr=str(item.page)[:200],
            content_json=item.source_json,
            schema_version=versions[label],
            last_updated_at=now,
        )
    TranslationSource.objects.bulk_create([item.source for item in items], batch_size=500)

    strings = _strings(
        source_locale,
        (
            s.string.data
            for item in items
            for s in item.segments
            if isinstance(s, StringSegmentValue)
        ),
    )
    contexts = {
        (item.source.object_id, segment.path): TranslationContext(
            object_id=item.source.object_id,
            path=segment.path,
            path_id=TranslationContext._get_path_id(segment.path),
            field_path=segment.path,  # get_field_path() of a top-level plain field
        )
        for item in items
        for segment in item.segments
    }
    TranslationContext.objects.bulk_create(list(contexts.values()), batch_size=500)

    string_segments, overridable_segments = [], []
    for item in items:
        for segment in item.segments:
            context = contexts[(item.source.object_id, segment.path)]
            if isinstance(segment, StringSegmentValue):
                string_segments.append(
                    StringSegment(
                        source=item.source,
                        context=context,
                        order=segment.order,
                        string=strings[segment.string.data],
                        attrs=json.dumps(segment.attrs, cls=DjangoJSONEncoder),
                    )
                )
            else:
                overridable_segments.append(
                    OverridableSegment(
                        source=item.source,
                        context=context,
                        order=segment.order,
                        data_json=json.dumps(segment.data, cls=DjangoJSONEncoder),
                    )
                )
    StringSegment.objects.bulk_create(string_segments, batch_size=500)
    OverridableSegment.objects.bulk_create(overridable_segments, batch_size=500)
    return string_segments


def _create_translations(
    items: list[NewPageTranslation],
    locale: Locale,
    string_segments: list[StringSegment],
    tool_name: str,
) -> None:
    """The `Translation` of each source and a manual `StringTranslation` per string segment."""
    Translation.objects.bulk_create(
        [Translation(source=item.source, target_locale=locale, enabled=True) for item in items],
        batch_size=500,
    )
    item_of = {item.source.pk: item for item in items}
    StringTranslation.objects.bulk_create(
        [
            StringTranslation(
                translation_of=segment.string,
                locale=locale,
                context=segment.context,
                data=StringValue.from_plaintext(
                    item_of[segment.source_id].strings_by_field[segment.context.path]
                ).data,
                translation_type=StringTranslation.TRANSLATION_TYPE_MANUAL,
                tool_name=tool_name,
                has_error=False,
                field_error="",
            )
            for segment in string_segments
        ],
        batch_size=500,
    )


def _copy_log_data(page: Page, copy: Page, destination: Page) -> dict:
    """The data of the `wagtail.copy_for_translation` log entry (CopyPageAction)."""
    source = page.get_parent()
    return {
        "page": {
            "id": copy.id,
            "title": copy.get_admin_display_title(),
            "locale": {"id": copy.locale_id, "language_code": copy.locale.language_code},
        },
        "source": {"id": source.id, "title": source.specific_deferred.get_admin_display_title()},
        "destination": {
            "id": destination.id,
            "title": destination.specific_deferred.get_admin_display_title(),
        },
        "keep_live": False,
        "source_locale": {"id": page.locale_id, "language_code": page.locale.language_code},
    }


def _create_targets(
    items: list[NewPageTranslation], locale: Locale, logs: bulk_pages.LogEntries
) -> list[Revision]:
    """The translated pages, copied, translated and published, under one translated parent."""
    parent = items[0].target_parent
    taken = bulk_pages.children_slugs(parent)
    for item in items:
        slug = _available_slug(taken, item.page.slug)
        taken.add(slug)
        item.target = _translated_copy(item.page, locale, slug)
    targets = [item.target for item in items]
    bulk_pages.insert_children(parent, targets, logs)
    bulk_pages.save_revisions(targets, changed=False)

    for item in items:
        target = item.target
        logs.add(
            target, "wagtail.copy_for_translation", data=_copy_log_data(item.page, target, parent)
        )
        copy_for_translation_done.send(
            sender=CopyPageForTranslationAction, source_obj=item.page, target_obj=target
        )
        slug = target.slug
        _ingest(item, target, item.page.locale, locale)
        # create_or_update_translation() then re-picks the slug from slugify(source slug), which
        # translatable_in_bulk() made sure is the source slug: it finds the slug chosen above.
        target.slug = slug
        if hasattr(target, "compute_search_text"):  # SearchTextMixin.save()
            target.search_text = target.compute_search_text()
    revisions = bulk_pages.save_revisions(targets, changed=True)
    TranslationLog.objects.bulk_create(
        [
            TranslationLog(source=item.source, locale=locale, revision=revision)
            for item, revision in zip(items, revisions, strict=True)
        ],
        batch_size=500,
    )
    bulk_pages.publish(targets, revisions, logs)
    bulk_pages.insert_specific_rows(targets)
    update_rows(
        Page,
        targets,
        ["title", "slug", "seo_title", "search_description", *bulk_pages.PUBLISH_FIELDS],
    )
    return revisions


def translate_new_pages(
    items: list[NewPageTranslation],
    *,
    locale: Locale,
    logs: bulk_pages.LogEntries,
    tool_name: str = SEED_TOOL_NAME,
) -> list[Page]:
    """Write the localize data and the published translations of pages created in this batch.

    Every item must have passed `translatable_in_bulk()`, carry the `content_json` that
    wagtail-localize would have extracted, and share one translated parent.
    """
    if not items:
        return []
    string_segments = _create_sources(items, items[0].page.locale)
    _create_translations(items, locale, string_segments, tool_name)
    _create_targets(items, locale, logs)
    targets = [item.target for item in items]
    bulk_pages.announce_published(targets)
    return targets
