"""What the translation editor hides from users the policy refuses (cms.translation.policy).

wagtail-localize's translation editor draws its footer actions in JavaScript from props that
offer "Stop Synced translation", and "Convert to alias page" to anyone who may edit the page.
Our views refuse them (cms.translation.localize_views); these body classes let the admin
stylesheet leave them out too.
"""

from django import template
from wagtail.models import Page

from .. import policy

register = template.Library()


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
