"""wagtail-localize's writes behind a page's `translation_status`, as writes to those pages.

A page's translation status changes when its translation is synced (TranslationSource
re-extracted), a translator saves a segment, a translation is created, enabled or disabled, or
the translator behind the latest segment changes their name, none of which publishes anything.
Each is recorded as a TRANSLATION write of the pages it concerns (cms.apicache.stale).
"""

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.signals import post_delete, post_save, pre_delete
from wagtail_localize.models import (
    StringTranslation,
    Translation,
    TranslationContext,
    TranslationSource,
)

from cms.apicache.stale import TRANSLATION, Write, record

# The user fields a translation status shows (as the translator's public name).
NAME_FIELDS = frozenset({"first_name", "last_name"})


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


def _translator_changed(sender, instance, raw=False, update_fields=None, **kwargs) -> None:
    if raw or (update_fields is not None and not NAME_FIELDS & set(update_fields)):
        return
    translated = StringTranslation.objects.filter(last_translated_by=instance)
    pairs = set(translated.values_list("context__object_id", "locale_id").distinct())
    if pairs:
        condition = Q(pk__in=[])
        for key, locale_id in pairs:
            condition |= Q(translation_key=key, locale_id=locale_id)
        _pages_of(condition)


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
    user = get_user_model()
    post_save.connect(_translator_changed, sender=user, dispatch_uid="translation-status-user")
    # Before: deleting the user empties last_translated_by without a signal of its own.
    pre_delete.connect(_translator_changed, sender=user, dispatch_uid="translation-status-user-del")
