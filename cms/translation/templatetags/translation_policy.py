"""What the translation editor leaves out for users the policy refuses (cms.translation.policy).

wagtail-localize's translation editor draws its footer actions and its segments in JavaScript
from props its view builds, offering "Stop Synced translation", "Convert to alias page" and a
"Change image" or "Edit" on every synchronized value to anyone who may edit the page. Our views
refuse them (cms.translation.localize_views); the body classes here let the admin stylesheet
leave out the footer actions (drawn whatever the props say), and the props themselves are
rewritten to leave out the synchronized values the user may not override.
"""

import json

from django import template
from wagtail.models import Page

from .. import policy

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
    """The editor's props (JSON) without the synchronized values `user` may not override.

    The editor has no read-only state for one segment (only for a locked page), so those
    segments and their overrides are left out: the translator has nothing to do with them, and
    the page keeps them as in English (or as an administrator overrode them).
    """
    if not isinstance(instance, Page) or policy.may_override_synchronized(user, instance):
        return props
    data = json.loads(props)
    data["segments"] = [s for s in data["segments"] if s["type"] != SYNCHRONIZED_SEGMENT]
    data["initialOverrides"] = []  # every override is of a synchronized value
    return json.dumps(data)
