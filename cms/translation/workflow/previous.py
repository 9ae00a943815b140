"""After a sync, offer each changed segment's previous translation as a draft to revise.

wagtail-localize stores a translation per (source string, context): when a sync re-extracts a
page whose English paragraph changed, that paragraph is a new string with no translation, and
the editor shows it empty although the old translation is still stored, under the old string.
We copy it onto the new string, marked as machine-made with a tool name that says where it came
from: the editor then shows it with "Translated with previous translation …", the status report
counts it among the segments to review, and the live page is untouched until the translator
publishes. All through wagtail-localize's public models; it has no hook for this itself.
"""

from django.db import transaction
from django.utils.translation import gettext_lazy
from wagtail_localize.models import StringSegment, StringTranslation, TranslationSource

from cms.translation.status.tool_names import tool_name_to_store

PREVIOUS_TRANSLATION = gettext_lazy("previous translation (English changed, please review)")


def segment_strings(source: TranslationSource) -> dict[int, int]:
    """{context id: string id} of the source's string segments, taken before a sync."""
    return dict(StringSegment.objects.filter(source=source).values_list("context_id", "string_id"))


def previous_translation_tool_name() -> str:
    """As stored, the same whoever synced (cms.translation.status.tool_names)."""
    return tool_name_to_store(PREVIOUS_TRANSLATION)


@transaction.atomic
def carry_over_previous_translations(source: TranslationSource, before: dict[int, int]) -> int:
    """Give each segment whose string changed in the sync its context's previous translation.

    `before` is `segment_strings(source)` from before the sync. Only segments with no
    translation of their new string get one; returns how many translations were written.
    """
    changed = {
        segment.context_id: segment.string_id
        for segment in StringSegment.objects.filter(source=source)
        if segment.context_id in before and before[segment.context_id] != segment.string_id
    }
    if not changed:
        return 0
    locales = list(
        source.translations.filter(enabled=True).values_list("target_locale_id", flat=True)
    )
    previous = StringTranslation.objects.filter(
        context_id__in=changed,
        locale_id__in=locales,
        translation_of_id__in=[before[context] for context in changed],
        has_error=False,
    )
    existing = set(
        StringTranslation.objects.filter(context_id__in=changed, locale_id__in=locales).values_list(
            "translation_of_id", "context_id", "locale_id"
        )
    )
    tool_name = previous_translation_tool_name()
    written = 0
    for old in previous:
        if before[old.context_id] != old.translation_of_id:
            continue
        new_string = changed[old.context_id]
        if (new_string, old.context_id, old.locale_id) in existing:
            continue
        StringTranslation.objects.create(
            translation_of_id=new_string,
            locale_id=old.locale_id,
            context_id=old.context_id,
            data=old.data,
            translation_type=StringTranslation.TRANSLATION_TYPE_MACHINE,
            tool_name=tool_name,
        )
        written += 1
    return written
