"""Bring translations up to date with their source: wagtail-localize's "Sync translated pages".

`TranslationSource.update_from_db()` re-extracts the source's segments. Translated strings are
stored per (source string, context), so every segment whose English did not change keeps its
translation; a changed segment starts from its previous translation, marked for review
(cms.translation.workflow.previous). Syncing many pages is slow, so the status report's "Sync"
starts `sync_translations_task` after its commit (cms.ops.background) and returns at once.

A sync never publishes: a live translation keeps its old text live until its translator
publishes the update from the translation editor (cms.translation.policy.rules decides who may).
"""

from dataclasses import dataclass, field

from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from wagtail_localize.models import TranslationSource

from cms.translation.workflow.previous import carry_over_previous_translations, segment_strings


@dataclass
class SyncResult:
    synced: list[int] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)


def sync_translation_sources(*, source_ids: list[int], user_id: int | None = None) -> SyncResult:
    """Re-extract each source; the translated pages stay as they are until a translator publishes.

    Each source is synced in its own transaction, so one failure does not undo the others.
    `user_id` (who asked) is kept for the logs of the job.
    """
    result = SyncResult()
    sources = TranslationSource.objects.filter(pk__in=source_ids).order_by("pk")
    found = set()
    for source in sources:
        found.add(source.pk)
        with transaction.atomic():
            try:
                before = segment_strings(source)
                source.update_from_db()
            except ObjectDoesNotExist:  # the source page was deleted
                result.missing.append(source.pk)
                continue
            carry_over_previous_translations(source, before)
            for translation in source.translations.filter(enabled=True).select_related(
                "target_locale"
            ):
                source.update_target_view_restrictions(translation.target_locale)
        result.synced.append(source.pk)
    result.missing.extend(pk for pk in source_ids if pk not in found)
    return result
