"""wagtail-localize's writes behind a page's `translation_status`, as writes to those pages.

A page's translation status changes when its translation is synced (TranslationSource
re-extracted) or a translation is created, enabled or disabled, none of which publishes
anything. Each is recorded as a TRANSLATION write of the pages it concerns (cms.apicache.stale).
A translator's unpublished segment is recorded too, though the public status shows only
published facts (cms.translation.status.public): a write there costs a rebuild, never a stale
answer. Translators' names are not in the API, so renaming a user changes nothing.
"""

from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from wagtail_localize.models import (
    StringTranslation,
    Translation,
    TranslationContext,
    TranslationSource,
)

from .stale import TRANSLATION, Write, record


def _pages_of(condition: Q) -> None:
    record(Write(TRANSLATION, pages=condition))


def _source_changed(sender, instance: TranslationSource, raw=False, **kwargs) -> None:
    if not raw:
        _pages_of(Q(translation_key=instance.object_id))


def _translation_changed(sender, instance: Translation, raw=False, **kwargs) -> None:
    if not raw:
        source = TranslationSource.objects.filter(pk=instance.source_id).values("object_id")
        _pages_of(Q(translation_key__in=source, locale_id=instance.target_locale_id))


def _string_changed(sender, instance: StringTranslation, raw=False, **kwargs) -> None:
    if not raw:  # by subquery: when the context is deleted, its strings go first
        key = TranslationContext.objects.filter(pk=instance.context_id).values("object_id")
        _pages_of(Q(translation_key__in=key, locale_id=instance.locale_id))


def connect() -> None:
    receivers = (
        (TranslationSource, _source_changed),
        (Translation, _translation_changed),
        (StringTranslation, _string_changed),
    )
    for model, receiver in receivers:
        for signal in (post_save, post_delete):
            signal.connect(
                receiver,
                sender=model,
                dispatch_uid=f"translation-status-{model.__name__}-{id(signal)}",
            )
