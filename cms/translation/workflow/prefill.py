"""Fill a wagtail-localize translation from strings we already have (seed import).

We go through wagtail-localize's own models (TranslationSource, StringTranslation) instead of
writing the target page directly, so the localize editor shows the page 100% translated and a
later English edit shows up as out of date, exactly as for a translator's own work.
"""

from dataclasses import dataclass

from django.db import transaction
from wagtail.models import Locale, Page
from wagtail_localize.models import StringSegment, StringTranslation, Translation, TranslationSource
from wagtail_localize.strings import StringValue

from cms.translation.status.tool_names import SEED_IMPORT

SEED_TOOL_NAME = SEED_IMPORT


class MissingSegmentTranslation(ValueError):
    """A segment of the source has no string to translate it with."""


@dataclass
class PrefillResult:
    translation_created: bool = False
    strings_written: int = 0
    target_saved: bool = False


@transaction.atomic
def prefill_page_translation(
    *,
    page: Page,
    locale: Locale,
    strings_by_field: dict[str, str],
    source_changed: bool = False,
    tool_name: str = SEED_TOOL_NAME,
) -> PrefillResult:
    """Translate `page` into `locale` with the given text per field path, publishing the result.

    Writes nothing when the translation already holds exactly these strings and the target page
    exists, so running it again is free and creates no revision. `source_changed` says the
    English page was just edited, so synchronized fields must be copied over again.
    """
    result = PrefillResult()
    source, _ = TranslationSource.update_or_create_from_instance(page)
    translation, result.translation_created = Translation.objects.get_or_create(
        source=source, target_locale=locale, defaults={"enabled": True}
    )

    segments = StringSegment.objects.filter(source=source).select_related("string", "context")
    existing = {
        (item.translation_of_id, item.context_id): item
        for item in StringTranslation.objects.filter(
            locale=locale, translation_of__in=[segment.string_id for segment in segments]
        )
    }
    for segment in segments:
        path = segment.context.path
        if path not in strings_by_field:
            raise MissingSegmentTranslation(
                f"{page.title!r}: no {locale.language_code} text for field '{path}'"
            )
        data = StringValue.from_plaintext(strings_by_field[path]).data
        current = existing.get((segment.string_id, segment.context_id))
        if current is not None and current.data == data and not current.has_error:
            continue
        StringTranslation.objects.update_or_create(
            translation_of_id=segment.string_id,
            locale=locale,
            context_id=segment.context_id,
            defaults={
                "data": data,
                "translation_type": StringTranslation.TRANSLATION_TYPE_MANUAL,
                "tool_name": tool_name,
                "has_error": False,
                "field_error": "",
            },
        )
        result.strings_written += 1

    target_exists = page.get_translations().filter(locale=locale).exists()
    if source_changed or result.translation_created or result.strings_written or not target_exists:
        publish_translation(translation)
        result.target_saved = True
    return result


def publish_translation(translation: Translation, user=None) -> Page:
    """Save the translated page from its strings and publish it now.

    wagtail-localize's `save_target(publish=True)` defers the publish to
    `transaction.on_commit`, with the page instance it held in memory: inside a long
    transaction that adds children in between (an import, a bulk sync) the deferred publish
    writes back a stale `numchild` and corrupts the tree, and inside a transaction that is
    rolled back (a test) it never happens. Saving a draft with `save_target(publish=False)` and
    publishing the freshly loaded revision avoids both.
    """
    translation.save_target(user=user, publish=False)
    target = translation.source.get_translated_instance(translation.target_locale)
    revision = Page.objects.get(pk=target.pk).get_latest_revision()
    revision.publish(user=user)
    return target
