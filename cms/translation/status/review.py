"""Which translated texts a translator has reviewed, and how the translation editor shows the rest.

A text is *reviewed* once a translator saved it (wagtail-localize stores it as a manual
translation, with no tool name), or it came from a source that people wrote and checked (the
seed import, a PO file: manual too). Texts filled in automatically are stored as machine
translations with the tool that made them: a machine translator, the translation memory, or a
sync's previous translation of changed English (cms.translation.workflow.previous). Those are what
the status counts as `needs_review`, what publishing asks about first, and what the translation
memory never learns.

wagtail-localize's editor draws every filled segment with the same green tick; the only other
state it can draw for a segment is an error (red, with the text we give). Its props are ours to
rewrite (templatetags/translation_policy.py), so an unreviewed segment is given a note there;
saving the segment (Edit, Save) stores it as manual and the note goes.
"""

from django.db.models import Q
from django.utils.translation import gettext
from wagtail_localize.models import StringSegment, StringTranslation, Translation

from cms.translation.status.tool_names import tool_name_for_display

REVIEWED = Q(translation_type=StringTranslation.TRANSLATION_TYPE_MANUAL)


def unreviewed_strings(translation: Translation):
    """The translation's stored texts that were filled in automatically and not saved since."""
    return StringTranslation.objects.filter(
        ~REVIEWED,
        locale_id=translation.target_locale_id,
        context__object_id=translation.source.object_id,
    )


def unreviewed_note(string: StringTranslation) -> str:
    """What the editor says on an unreviewed segment, in the reader's language."""
    tool = tool_name_for_display(string.tool_name) or gettext("machine translation")
    return gettext(
        "Not reviewed yet: filled in by {tool}. Check it, then Edit and Save to mark it reviewed."
    ).format(tool=tool)


def unreviewed_notes(translation: Translation) -> dict[int, str]:
    """{segment id: note} of the translation's segments whose text is not reviewed yet."""
    strings = {
        (string.translation_of_id, string.context_id): string
        for string in unreviewed_strings(translation)
    }
    if not strings:
        return {}
    segments = StringSegment.objects.filter(source_id=translation.source_id).values_list(
        "pk", "string_id", "context_id"
    )
    return {
        pk: unreviewed_note(strings[(string_id, context_id)])
        for pk, string_id, context_id in segments
        if (string_id, context_id) in strings
    }
