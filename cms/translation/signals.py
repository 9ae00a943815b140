"""Keep cached API responses honest about `translation_status`.

The API cache (cms.apicache) is invalidated by publishing; but a page's translation status also
changes when its translation is synced (TranslationSource re-extracted), a translator saves a
segment, or a translation is created, enabled or disabled (which languages have translation
statuses at all), none of which publishes anything.
"""

from django.db.models.signals import post_delete, post_save
from wagtail_localize.models import StringTranslation, Translation, TranslationSource

from cms.apicache.version import bump_content_version


def _bump(sender, **kwargs) -> None:
    if not kwargs.get("raw"):
        bump_content_version()


def connect() -> None:
    for model in (TranslationSource, StringTranslation, Translation):
        for signal in (post_save, post_delete):
            signal.connect(
                _bump,
                sender=model,
                dispatch_uid=f"translation-status-{model.__name__}-{id(signal)}",
            )
