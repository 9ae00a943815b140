"""Celery tasks for translations: thin, they take ids and call one service."""

from celery import shared_task

from cms.translation.workflow.notifications import notify_translators
from cms.translation.workflow.sync import sync_translation_sources


@shared_task(name="translation.sync_translations", ignore_result=True)
def sync_translations_task(source_ids: list[int], user_id: int | None = None, **_ignored) -> str:
    """Sync translation sources in a worker (never publishing); a short status for logs and tests.

    Extra keyword arguments (a `publish` flag queued by an earlier release) are ignored.
    """
    result = sync_translation_sources(source_ids=source_ids, user_id=user_id)
    return f"synced {len(result.synced)}, missing {len(result.missing)}"


@shared_task(name="translation.notify_translators", ignore_result=True)
def notify_translators_task(page_ids: list[int]) -> str:
    """Email translators about published English pages (at most once per page per hour)."""
    return notify_translators(page_ids)
