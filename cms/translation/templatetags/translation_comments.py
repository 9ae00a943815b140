"""The translation editor's props with each text's comment in the reader's language
(cms.translation.views.comments)."""

import json

from django import template
from wagtail_localize.models import Translation

from cms.translation.views.comments import localize_comments

register = template.Library()


@register.simple_tag
def localized_translation_comments(props: str, translation: Translation) -> str:
    """`props` (JSON) with the comments of its initial string translations rewritten."""
    data = json.loads(props)
    localize_comments(data.get("initialStringTranslations", []), translation)
    return json.dumps(data)
