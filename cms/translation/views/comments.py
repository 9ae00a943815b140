"""How and when a text was translated, as the translation editor says it to its reader.

wagtail-localize writes that comment under each filled text ("Translated with {tool_name} on
{date}", StringTranslation.get_comment) with the stored tool name as it is and the date through
`strftime`, so a zh-hant translator read "於 6 December 2026 用previous translation (English
changed, please review)翻譯". Here the tool name is the reader's (cms.translation.status.tool_names)
and the date is formatted by Django for the active language. The editor's props
(templatetags/translation_comments.py) and its answer to a saved text (localize_views) use it.
"""

from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext
from wagtail_localize.models import StringTranslation, Translation

from cms.translation.status.tool_names import tool_name_for_display


def translation_comment(string_translation: StringTranslation) -> str | None:
    """The comment wagtail-localize would show, in the active language; None where it has none."""
    date = formats.date_format(timezone.localtime(string_translation.updated_at), "DATE_FORMAT")
    if string_translation.tool_name:
        return gettext("Translated with {tool_name} on {date}").format(
            tool_name=tool_name_for_display(string_translation.tool_name), date=date
        )
    if string_translation.translation_type == StringTranslation.TRANSLATION_TYPE_MANUAL:
        return gettext("Translated manually on {date}").format(date=date)
    if string_translation.translation_type == StringTranslation.TRANSLATION_TYPE_MACHINE:
        return gettext("Machine translated on {date}").format(date=date)
    return None


def localize_comments(string_translations: list[dict[str, Any]], translation: Translation) -> None:
    """Rewrite, in place, the comments of the editor's serialized string translations (each
    naming its `string_id` and `segment_id`) of `translation`."""
    segment_ids = {
        (segment.string_id, segment.context_id): segment.pk
        for segment in translation.source.stringsegment_set.all()
    }
    comments = {
        (found.translation_of_id, segment_ids.get((found.translation_of_id, found.context_id))): (
            translation_comment(found)
        )
        for found in StringTranslation.objects.filter(
            locale_id=translation.target_locale_id,
            context__object_id=translation.source.object_id,
        )
    }
    for serialized in string_translations:
        key = (serialized.get("string_id"), serialized.get("segment_id"))
        if key in comments:
            serialized["comment"] = comments[key]
