"""What the translation editor leaves out for users the policy refuses
(cms.translation.policy.rules).

wagtail-localize's translation editor draws its footer actions and its segments in JavaScript
from props its view builds, offering "Stop Synced translation", "Convert to alias page" and a
"Change image" or "Edit" on every synchronized value to anyone who may edit the page. Our views
refuse them (cms.translation.views.localize); the body classes here let the admin stylesheet
leave out the footer actions (drawn whatever the props say), and the props themselves are
rewritten to leave out the synchronized values the user may not override, and to mark the
segments the translator still has to look at: texts filled in automatically and not reviewed
(cms.translation.status.review), and Simplified-only characters in Traditional Chinese, with their
Traditional forms (cms.translation.guard.zh_hant). The editor draws a segment's `error` in red on
the segment, in place of the green tick of a reviewed one.
"""

import json

from django import template
from wagtail.models import Page

from cms.translation.guard.zh_hant import is_traditional_chinese, simplified_message
from cms.translation.policy import rules as policy
from cms.translation.status.review import unreviewed_notes

register = template.Library()

SYNCHRONIZED_SEGMENT = "synchronised_value"


@register.simple_tag
def refused_translation_actions(user, instance) -> str:
    """Body classes naming the editor's actions `user` may not take on `instance`."""
    if not isinstance(instance, Page):
        return ""
    refused = []
    if not policy.may_stop_translation(user, instance):
        refused.append("translation-refuses-stop")
    if not policy.may_convert_to_alias(user, instance):
        refused.append("translation-refuses-alias")
    return " ".join(refused)


@register.simple_tag
def translation_editor_props(props: str, user, instance) -> str:
    """The editor's props (JSON) as `user` should see them.

    The editor has no read-only state for one segment (only for a locked page), so the
    synchronized values the user may not override and their overrides are left out: the
    translator has nothing to do with them, and the page keeps them as in English (or as an
    administrator overrode them). Segments that need the translator get a note (`marked`).
    """
    data = json.loads(props)
    if isinstance(instance, Page) and not policy.may_override_synchronized(user, instance):
        data["segments"] = [s for s in data["segments"] if s["type"] != SYNCHRONIZED_SEGMENT]
        data["initialOverrides"] = []  # every override is of a synchronized value
    translation = policy.translation_into(instance) if isinstance(instance, Page) else None
    if translation is not None:
        marked(data["initialStringTranslations"], translation)
    return json.dumps(data)


def marked(strings: list[dict], translation) -> None:
    """Give each saved segment that needs the translator an error the editor shows on it: a
    Simplified-only character first (it blocks publishing), else not reviewed yet. Errors
    wagtail-localize found itself are left as they are."""
    notes = unreviewed_notes(translation)
    guarded = is_traditional_chinese(translation.target_locale.language_code)
    for string in strings:
        if string.get("error"):
            continue
        problem = simplified_message(string["data"]) if guarded else None
        string["error"] = problem or notes.get(string["segment_id"]) or string.get("error")
